// The request log (issue 49): a ledger's raw reports newest first, filtered, a page at a time by
// keyset (the last row's time and key), never by OFFSET, so the ten-thousandth row costs what the
// first does: each page is a range read of the `occurred_at` index (`reports_failed` for errors
// only) from where the last one stopped. Fallback (secure) reports are rows of their own, request
// type "fallback", merged in by time. The same filter on the slices gives the same totals.
import { FALLBACK_TYPE, filterClause } from "./slices";
import type { LogCursor, LogPage, LogQuery, LogRow, ReportDetail, UsageFilter } from "./types";

type Row = Record<string, SqlStorageValue>;
const num = (v: SqlStorageValue | undefined) => Number(v ?? 0);
const FALLBACK_ID = "fallback:";

// At one instant, usage rows come before fallback rows, each newest (largest key) first.
const KIND_ORDER = { usage: 1, fallback: 0 } as const;

/** Whether `a` comes before `b` in the log (newest first). */
function before(a: LogCursor, b: LogCursor): boolean {
  if (a.at !== b.at) return a.at > b.at;
  if (a.kind !== b.kind) return KIND_ORDER[a.kind] > KIND_ORDER[b.kind];
  return a.kind === "usage" ? Number(a.key) > Number(b.key) : a.key > b.key;
}

/** A page of the log from the ledger's raw rows: the two tables' pages merged by time. */
export function readLog(sql: SqlStorage, q: LogQuery): LogPage {
  const usage = q.filter?.requestType === FALLBACK_TYPE ? [] : usagePage(sql, q);
  const fallback = fallbackApplies(q.filter) ? fallbackPage(sql, q) : [];
  return mergePages(usage, fallback, q.limit);
}

/** Two pages, each in log order and at most limit + 1 long, as one page of `limit` and the cursor after it. */
function mergePages(a: Array<{ row: LogRow; cursor: LogCursor }>, b: Array<{ row: LogRow; cursor: LogCursor }>, limit: number): LogPage {
  const merged: Array<{ row: LogRow; cursor: LogCursor }> = [];
  let i = 0;
  let j = 0;
  while (merged.length < limit + 1 && (i < a.length || j < b.length)) {
    if (j >= b.length || (i < a.length && before(a[i]!.cursor, b[j]!.cursor))) merged.push(a[i++]!);
    else merged.push(b[j++]!);
  }
  const page = merged.slice(0, limit);
  return { rows: page.map((m) => m.row), next: merged.length > limit ? page[page.length - 1]!.cursor : null };
}

function usagePage(sql: SqlStorage, q: LogQuery): Array<{ row: LogRow; cursor: LogCursor }> {
  const where = filterClause(q.filter, { device: "coalesce(device_id, '')" });
  const after = q.after;
  // After a usage row: the same instant's older rowids, then older instants. After a fallback row
  // at t: usage rows at t come before it, so only older instants.
  const keyset = after === undefined ? "" : after.kind === "usage" ? " AND (occurred_at, rowid) < (?, ?)" : " AND occurred_at < ?";
  const keyArgs = after === undefined ? [] : after.kind === "usage" ? [after.at, Number(after.key)] : [after.at];
  const index = q.filter?.status === "error" ? "reports_failed" : "reports_time";
  return sql
    .exec(
      `SELECT rowid, id, occurred_at, model_name, model_provider, device_id, request_type, tokens_used, tokens_input, tokens_output, cost_micros,
        request_duration_ms, success
       FROM reports INDEXED BY ${index} WHERE occurred_at >= ? AND occurred_at < ?${where.sql}${keyset}
       ORDER BY occurred_at DESC, rowid DESC LIMIT ?`,
      q.fromMs,
      q.toMs,
      ...where.args,
      ...keyArgs,
      q.limit + 1,
    )
    .toArray()
    .map((r) => ({ row: usageRow(r), cursor: { at: num(r.occurred_at), kind: "usage" as const, key: String(num(r.rowid)) } }));
}

const usageRow = (r: Row): LogRow => ({
  id: String(r.id),
  kind: "usage",
  occurredAt: num(r.occurred_at),
  modelName: String(r.model_name),
  modelProvider: String(r.model_provider),
  deviceId: r.device_id === null || r.device_id === undefined ? null : String(r.device_id),
  requestType: String(r.request_type),
  requests: 1,
  tokens: num(r.tokens_used),
  tokensInput: num(r.tokens_input),
  tokensOutput: num(r.tokens_output),
  costMicros: num(r.cost_micros),
  durationMs: num(r.request_duration_ms),
  success: num(r.success) === 1,
});

/** Fallback reports have no device and one request type: a filter on another never matches them. */
function fallbackApplies(filter: UsageFilter | undefined): boolean {
  return (filter?.device === undefined || filter.device === "") && (filter?.requestType === undefined || filter.requestType === FALLBACK_TYPE);
}

function fallbackPage(sql: SqlStorage, q: LogQuery): Array<{ row: LogRow; cursor: LogCursor }> {
  const parts: string[] = [];
  const args: Array<string | number> = [];
  if (q.filter?.model !== undefined) {
    parts.push(" AND model_name = ?");
    args.push(q.filter.model);
  }
  if (q.filter?.provider !== undefined) {
    parts.push(" AND provider = ?");
    args.push(q.filter.provider);
  }
  if (q.filter?.status !== undefined) parts.push(q.filter.status === "success" ? " AND error_count = 0" : " AND error_count > 0");
  const after = q.after;
  if (after !== undefined) {
    parts.push(after.kind === "fallback" ? " AND (report_timestamp, report_hash) < (?, ?)" : " AND report_timestamp <= ?");
    args.push(after.at);
    if (after.kind === "fallback") args.push(after.key);
  }
  return sql
    .exec(
      `SELECT * FROM secure_reports WHERE report_timestamp >= ? AND report_timestamp < ?${parts.join("")}
       ORDER BY report_timestamp DESC, report_hash DESC LIMIT ?`,
      q.fromMs,
      q.toMs,
      ...args,
      q.limit + 1,
    )
    .toArray()
    .map((r) => ({ row: fallbackRow(r), cursor: { at: num(r.report_timestamp), kind: "fallback" as const, key: String(r.report_hash) } }));
}

const fallbackRow = (r: Row): LogRow => ({
  id: `${FALLBACK_ID}${String(r.report_hash)}`,
  kind: "fallback",
  occurredAt: num(r.report_timestamp),
  modelName: String(r.model_name),
  modelProvider: String(r.provider),
  deviceId: null,
  requestType: FALLBACK_TYPE,
  requests: num(r.request_count),
  tokens: num(r.tokens_used),
  tokensInput: 0,
  tokensOutput: 0,
  costMicros: num(r.cost_micros),
  durationMs: null,
  success: num(r.error_count) === 0,
});

/** One report in full, by a log row's id; null when the ledger holds no such report. */
export function readReport(sql: SqlStorage, id: string): ReportDetail | null {
  if (id.startsWith(FALLBACK_ID)) {
    const r = sql.exec(`SELECT * FROM secure_reports WHERE report_hash = ?`, id.slice(FALLBACK_ID.length)).toArray()[0];
    return r ? fallbackDetail(r) : null;
  }
  const r = sql.exec(`SELECT * FROM reports WHERE id = ?`, id.toLowerCase()).toArray()[0];
  return r ? usageDetail(r) : null;
}

export function usageDetail(r: Record<string, unknown>): ReportDetail {
  const row = r as Row;
  return {
    ...usageRow(row),
    receivedAt: num(row.received_at),
    errorMessage: row.error_message === null || row.error_message === undefined ? null : String(row.error_message),
    metadata: typeof r.metadata === "string" ? parseJson(r.metadata) : (r.metadata ?? null),
    conversationId: nullable(row.conversation_id),
    appVersion: nullable(row.app_version),
    appInstanceId: nullable(row.app_instance_id),
    successCount: num(row.success) === 1 || r.success === true ? 1 : 0,
    errorCount: num(row.success) === 1 || r.success === true ? 0 : 1,
  };
}

export function fallbackDetail(r: Record<string, unknown>): ReportDetail {
  const row = r as Row;
  return {
    ...fallbackRow(row),
    receivedAt: num(row.received_at),
    errorMessage: null,
    metadata: null,
    conversationId: null,
    appVersion: nullable(row.app_version),
    appInstanceId: nullable(row.app_instance_id),
    successCount: num(row.success_count),
    errorCount: num(row.error_count),
  };
}

const nullable = (v: SqlStorageValue | undefined) => (v === null || v === undefined ? null : String(v));

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The log of an archived month (its rows read back from R2, as NDJSON objects): the same filter,
 * order and cursor as the ledger's. The archive keeps no rowid, so a usage row's key is its
 * position in the month's time order (stable: the object is written once the month is past).
 */
export function archivedLogPage(rows: Array<Record<string, unknown>>, q: LogQuery): LogPage {
  const usage: Array<{ row: LogRow; cursor: LogCursor }> = [];
  const fallback: Array<{ row: LogRow; cursor: LogCursor }> = [];
  const sorted = rows
    .filter((r) => r.kind === "usage")
    .sort((a, b) => Number(a.occurred_at) - Number(b.occurred_at) || String(a.id).localeCompare(String(b.id)));
  sorted.forEach((r, i) => {
    const row = usageDetail(r);
    if (matches(row, q)) usage.push({ row: stripDetail(row), cursor: { at: row.occurredAt, kind: "usage", key: String(i + 1) } });
  });
  for (const r of rows) {
    if (r.kind !== "secure") continue;
    const row = fallbackDetail(r);
    if (matches(row, q)) fallback.push({ row: stripDetail(row), cursor: { at: row.occurredAt, kind: "fallback", key: String(r.report_hash) } });
  }
  const after = q.after;
  const order = (list: typeof usage) =>
    list.sort((a, b) => (before(a.cursor, b.cursor) ? -1 : 1)).filter((e) => after === undefined || before(after, e.cursor));
  return mergePages(order(usage).slice(0, q.limit + 1), order(fallback).slice(0, q.limit + 1), q.limit);
}

function matches(row: LogRow, q: LogQuery): boolean {
  const f = q.filter ?? {};
  if (row.occurredAt < q.fromMs || row.occurredAt >= q.toMs) return false;
  if (f.model !== undefined && row.modelName !== f.model) return false;
  if (f.provider !== undefined && row.modelProvider !== f.provider) return false;
  if (f.device !== undefined && (row.deviceId ?? "") !== f.device) return false;
  if (f.requestType !== undefined && row.requestType !== f.requestType) return false;
  if (f.status !== undefined && row.success !== (f.status === "success")) return false;
  return true;
}

function stripDetail(d: ReportDetail): LogRow {
  const { receivedAt: _r, errorMessage: _e, metadata: _m, conversationId: _c, appVersion: _a, appInstanceId: _i, successCount: _s, errorCount: _x, ...row } = d;
  return row;
}
