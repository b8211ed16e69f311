// Usage by every dimension at once (issue 49): `quarter_slices` per UTC quarter hour and
// `day_slices` per day of the account's zone, each keyed by model, provider, device, request type
// and status. Any filter and any grouping of any range is then a sum of rows, never a scan of raw
// reports, so a view of a year costs what a view of a day costs (bench/results.md), and every
// total equals the sum of its parts by construction. The quarter rows are the source of any zone,
// as `quarters` is for `daily` (ADR 0030); the day rows are redrawn from them when the zone changes.
import { MS } from "../../constants";
import { offsetPeriods } from "../../time-zone";
import { addDays, dayStart } from "../dates";
import type { DailyRow, SliceGroup, SliceQuery, SliceRow, SliceValues, UsageFilter } from "./types";

// The slices' key as migration 5 made it; migration 9 (MEMBER_MIGRATION) added the member.
const KEY_V5 = "model_name, model_provider, device_id, request_type, success";
const KEY = `${KEY_V5}, member_id`;
/** A slice's figure columns, in the order `sliceFigures` gives their values. */
export const SLICE_FIGURES = "total_requests, success_count, total_tokens, tokens_input, tokens_output, total_cost_micros, total_duration_ms, timed_requests";
const FIGURES = SLICE_FIGURES;
const ADD = FIGURES.split(", ")
  .map((c) => `${c} = ${c} + excluded.${c}`)
  .join(", ");
const FIGURE_COLUMNS = FIGURES.split(", ")
  .map((c) => `${c} INTEGER NOT NULL DEFAULT 0`)
  .join(", ");
const COLUMNS_V5 = `model_name TEXT NOT NULL, model_provider TEXT NOT NULL, device_id TEXT NOT NULL, request_type TEXT NOT NULL, success INTEGER NOT NULL,
  ${FIGURE_COLUMNS}`;
const COLUMNS = `${COLUMNS_V5}, member_id TEXT NOT NULL DEFAULT ''`;

/** A fallback (secure) report's request type in the slices and the request log. */
export const FALLBACK_TYPE = "fallback";

/**
 * The ledger migration that adds the slices. Quarters come from the raw reports; what `quarters`
 * holds beyond them (reports archived to R2 before this version) keeps its model and provider and
 * goes under no device and an empty request type, its failed requests in an error row.
 * `day_slices` is drawn afterwards in the ledger's zone (LedgerStore runs rebuildDaySlices).
 */
export const SLICES_MIGRATION = [
  `CREATE TABLE quarter_slices (start INTEGER NOT NULL, ${COLUMNS_V5}, PRIMARY KEY (start, ${KEY_V5})) WITHOUT ROWID`,
  `CREATE TABLE day_slices (date TEXT NOT NULL, ${COLUMNS_V5}, PRIMARY KEY (date, ${KEY_V5})) WITHOUT ROWID`,
  `INSERT INTO quarter_slices (start, ${KEY_V5}, ${FIGURES})
    SELECT occurred_at - occurred_at % 900000, model_name, model_provider, coalesce(device_id, ''), request_type, success, count(*), sum(success),
      sum(tokens_used), sum(tokens_input), sum(tokens_output), sum(cost_micros), sum(request_duration_ms), count(*)
    FROM reports GROUP BY 1, 2, 3, 4, 5, 6`,
  `INSERT INTO quarter_slices (start, ${KEY_V5}, ${FIGURES})
    SELECT report_timestamp - report_timestamp % 900000, model_name, provider, '', '${FALLBACK_TYPE}', error_count = 0, sum(request_count),
      sum(success_count), sum(tokens_used), 0, 0, sum(cost_micros), 0, 0
    FROM secure_reports WHERE true GROUP BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (start, ${KEY_V5}) DO UPDATE SET ${ADD}`,
  `INSERT INTO quarter_slices (start, ${KEY_V5}, ${FIGURES})
    SELECT q.start, q.model_name, q.model_provider, '', '', 1, q.success_count - coalesce(s.success_count, 0), q.success_count - coalesce(s.success_count, 0),
      q.total_tokens - coalesce(s.total_tokens, 0), q.tokens_input - coalesce(s.tokens_input, 0), q.tokens_output - coalesce(s.tokens_output, 0),
      q.total_cost_micros - coalesce(s.total_cost_micros, 0), q.total_duration_ms - coalesce(s.total_duration_ms, 0),
      q.timed_requests - coalesce(s.timed_requests, 0)
    FROM quarters AS q LEFT JOIN (
      SELECT start, model_name, model_provider, sum(total_requests) AS total_requests, sum(success_count) AS success_count, sum(total_tokens) AS total_tokens,
        sum(tokens_input) AS tokens_input, sum(tokens_output) AS tokens_output, sum(total_cost_micros) AS total_cost_micros,
        sum(total_duration_ms) AS total_duration_ms, sum(timed_requests) AS timed_requests
      FROM quarter_slices GROUP BY 1, 2, 3
    ) AS s ON s.start = q.start AND s.model_name = q.model_name AND s.model_provider = q.model_provider
    WHERE q.success_count <> coalesce(s.success_count, 0) OR q.total_tokens <> coalesce(s.total_tokens, 0)
      OR q.total_cost_micros <> coalesce(s.total_cost_micros, 0) OR q.total_duration_ms <> coalesce(s.total_duration_ms, 0)
    ON CONFLICT (start, ${KEY_V5}) DO UPDATE SET ${ADD}`,
  `INSERT INTO quarter_slices (start, ${KEY_V5}, ${FIGURES})
    SELECT q.start, q.model_name, q.model_provider, '', '', 0, (q.total_requests - q.success_count) - coalesce(s.errors, 0), 0, 0, 0, 0, 0, 0, 0
    FROM quarters AS q LEFT JOIN (
      SELECT start, model_name, model_provider, sum(total_requests - success_count) AS errors FROM quarter_slices GROUP BY 1, 2, 3
    ) AS s ON s.start = q.start AND s.model_name = q.model_name AND s.model_provider = q.model_provider
    WHERE (q.total_requests - q.success_count) > coalesce(s.errors, 0)
    ON CONFLICT (start, ${KEY_V5}) DO UPDATE SET ${ADD}`,
  // Failed reports are few: the request log's "errors only" pages read them by this index.
  `CREATE INDEX reports_failed ON reports (occurred_at) WHERE success = 0`,
];

/**
 * The devices and request types an account has reported with, and how many requests each: the
 * request log's filter lists them without summing a range's slices (a busy account's week is
 * about 1,300 day-slice rows per list; this is a row per device or type).
 */
export const SLICE_VALUES_MIGRATION = [
  `CREATE TABLE slice_values (dimension TEXT NOT NULL, value TEXT NOT NULL, requests INTEGER NOT NULL, PRIMARY KEY (dimension, value)) WITHOUT ROWID`,
  `INSERT INTO slice_values (dimension, value, requests) SELECT 'device', device_id, sum(total_requests) FROM quarter_slices GROUP BY device_id`,
  `INSERT INTO slice_values (dimension, value, requests) SELECT 'request_type', request_type, sum(total_requests) FROM quarter_slices GROUP BY request_type`,
];

/**
 * The ledger migration that adds the member (issue 50, ADR 0038): a team's ledger keeps each report
 * under the member who sent it, so its slices are keyed by the member too; an account's own ledger
 * keeps '' there. The slices' key is their primary key, so the two tables are copied into new
 * ones (once per ledger, on its first use after the deploy).
 */
export const MEMBER_MIGRATION = [
  `ALTER TABLE reports ADD COLUMN member_id TEXT NOT NULL DEFAULT ''`,
  `ALTER TABLE secure_reports ADD COLUMN member_id TEXT NOT NULL DEFAULT ''`,
  ...(["quarter_slices start INTEGER", "day_slices date TEXT"] as const).flatMap((spec) => {
    const [table, at, type] = spec.split(" ") as [string, string, string];
    return [
      `CREATE TABLE ${table}_by_member (${at} ${type} NOT NULL, ${COLUMNS}, PRIMARY KEY (${at}, ${KEY})) WITHOUT ROWID`,
      `INSERT INTO ${table}_by_member (${at}, ${KEY_V5}, ${FIGURES}) SELECT ${at}, ${KEY_V5}, ${FIGURES} FROM ${table}`,
      `DROP TABLE ${table}`,
      `ALTER TABLE ${table}_by_member RENAME TO ${table}`,
      // A team's member rows by member: only a team's ledger has any (an account's own pays no index).
      `CREATE INDEX ${table}_member ON ${table} (member_id, ${at}) WHERE member_id <> ''`,
    ];
  }),
];

/** One slice's figures (a daily row's), as an ingest adds them up before writing each row once. */
export type SliceDelta = Omit<DailyRow, "date" | "modelName" | "modelProvider" | "lastUsedAt">;
/** `memberId`: who sent it, in a team's ledger; '' in an account's own. */
type SliceKey = { modelName: string; modelProvider: string; deviceId: string; requestType: string; success: boolean; memberId: string };
export type SliceTally = {
  quarters: Map<string, { start: number; key: SliceKey; d: SliceDelta }>;
  days: Map<string, { date: string; key: SliceKey; d: SliceDelta }>;
  /** Requests per device and per request type ("device" or "request_type", a NUL, the value). */
  values: Map<string, number>;
};

export const emptySliceTally = (): SliceTally => ({ quarters: new Map(), days: new Map(), values: new Map() });

/** Adds one stored report (or fallback report) to its quarter's and day's slice. */
export function addToSlices(tally: SliceTally, at: { start: number; date: string }, key: SliceKey, add: SliceDelta) {
  const k = `\u0000${key.modelName}\u0000${key.modelProvider}\u0000${key.deviceId}\u0000${key.requestType}\u0000${key.success ? 1 : 0}\u0000${key.memberId}`;
  const q = tally.quarters.get(`${at.start}${k}`) ?? { start: at.start, key, d: emptySliceFigures() };
  tally.quarters.set(`${at.start}${k}`, q);
  addSliceFigures(q.d, add);
  const d = tally.days.get(`${at.date}${k}`) ?? { date: at.date, key, d: emptySliceFigures() };
  tally.days.set(`${at.date}${k}`, d);
  addSliceFigures(d.d, add);
  for (const value of [`device\u0000${key.deviceId}`, `request_type\u0000${key.requestType}`])
    tally.values.set(value, (tally.values.get(value) ?? 0) + add.totalRequests);
}

const FIGURE_KEYS = [
  "totalRequests",
  "successCount",
  "totalTokens",
  "tokensInput",
  "tokensOutput",
  "totalCostMicros",
  "totalDurationMs",
  "timedRequests",
] as const;
/** A slice's figures before anything is added. */
export const emptySliceFigures = (): SliceDelta => ({
  totalRequests: 0,
  successCount: 0,
  totalTokens: 0,
  tokensInput: 0,
  tokensOutput: 0,
  totalCostMicros: 0,
  totalDurationMs: 0,
  timedRequests: 0,
});
/** Adds one slice's figures to another's. */
export function addSliceFigures(into: SliceDelta, add: SliceDelta) {
  for (const k of FIGURE_KEYS) into[k] += add[k];
}

const VALUES = `VALUES (${Array.from({ length: 15 }, () => "?").join(", ")})`;
const UPSERT_QUARTER = `INSERT INTO quarter_slices (start, ${KEY}, ${FIGURES}) ${VALUES} ON CONFLICT (start, ${KEY}) DO UPDATE SET ${ADD}`;
const UPSERT_DAY = `INSERT INTO day_slices (date, ${KEY}, ${FIGURES}) ${VALUES} ON CONFLICT (date, ${KEY}) DO UPDATE SET ${ADD}`;

export function writeSlices(sql: SqlStorage, tally: SliceTally) {
  for (const { start, key, d } of tally.quarters.values()) sql.exec(UPSERT_QUARTER, start, ...keyValues(key), ...sliceFigures(d));
  for (const { date, key, d } of tally.days.values()) sql.exec(UPSERT_DAY, date, ...keyValues(key), ...sliceFigures(d));
  for (const [k, requests] of tally.values) {
    const [dimension, value] = k.split("\u0000") as [string, string];
    sql.exec(UPSERT_VALUE, dimension, value, requests);
  }
}

const UPSERT_VALUE = `INSERT INTO slice_values (dimension, value, requests) VALUES (?, ?, ?)
  ON CONFLICT (dimension, value) DO UPDATE SET requests = requests + excluded.requests`;

/** Every device and request type the account has reported with, most used first. */
export function readSliceValues(sql: SqlStorage): SliceValues {
  const out: SliceValues = { devices: [], requestTypes: [] };
  for (const r of sql.exec(`SELECT dimension, value, requests FROM slice_values ORDER BY requests DESC, value`).toArray()) {
    (r.dimension === "device" ? out.devices : out.requestTypes).push({ value: String(r.value), requests: Number(r.requests) });
  }
  return out;
}
const keyValues = (k: SliceKey) => [k.modelName, k.modelProvider, k.deviceId, k.requestType, k.success ? 1 : 0, k.memberId];
/** A slice's figures, in SLICE_FIGURES' order (FIGURE_KEYS is in that order). */
export const sliceFigures = (d: SliceDelta) => FIGURE_KEYS.map((k) => d[k]);

const DAYS_FROM_QUARTERS = `INSERT INTO day_slices (date, ${KEY}, ${FIGURES})
  SELECT strftime('%Y-%m-%d', CAST((start + ?1) / 1000 AS INTEGER), 'unixepoch'), ${KEY}, ${FIGURES.split(", ")
    .map((c) => `sum(${c})`)
    .join(", ")}
  FROM quarter_slices WHERE start >= ?2 AND start < ?3 GROUP BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT (date, ${KEY}) DO UPDATE SET ${ADD}`;

/** Draws `day_slices` again in `zone` from the quarter slices (a change of zone, or the migration). */
export function rebuildDaySlices(sql: SqlStorage, zone: string) {
  sql.exec(`DELETE FROM day_slices`);
  const row = sql.exec(`SELECT min(start) AS first, max(start) AS last FROM quarter_slices`).one();
  if (row.first === null) return;
  for (const p of offsetPeriods(Number(row.first), Number(row.last) + MS.QUARTER_HOUR, zone)) sql.exec(DAYS_FROM_QUARTERS, p.offset, p.start, p.end);
}

/** The figures summed under their own names (a GROUP BY's columns; a team's reads use them too). */
export const SLICE_SUMS = FIGURES.split(", ")
  .map((c) => `sum(${c}) AS ${c}`)
  .join(", ");
const DIMENSION: Record<Exclude<SliceGroup, "date" | "hour">, string> = {
  model: "model_name",
  provider: "model_provider",
  device: "device_id",
  request_type: "request_type",
  status: "success",
};

/** The WHERE clause and its values for a filter (the request log uses the same, on raw reports). */
export function filterClause(
  filter: UsageFilter | undefined,
  columns: { device: string } = { device: "device_id" },
): { sql: string; args: Array<string | number> } {
  const parts: string[] = [];
  const args: Array<string | number> = [];
  const add = (part: string, value: string | number | undefined) => {
    if (value === undefined) return;
    parts.push(` AND ${part} = ?`);
    args.push(value);
  };
  add("model_name", filter?.model);
  add("model_provider", filter?.provider);
  add(columns.device, filter?.device);
  add("request_type", filter?.requestType);
  // A literal, not a parameter: SQLite uses the partial index of failed reports only for a condition it can read.
  if (filter?.status !== undefined) parts.push(` AND success = ${filter.status === "success" ? 1 : 0}`);
  return { sql: parts.join(""), args };
}

/**
 * One slice query: the days from..to (the account zone's, inclusive) grouped by a dimension or by
 * day from `day_slices`, or by local hour from `quarter_slices` (at most the range's quarter rows:
 * hours are asked for ranges of a day or two). Groups are ordered by cost, then key; days and hours by time.
 */
export function readSlices(sql: SqlStorage, q: SliceQuery, zone: string): SliceRow[] {
  const where = filterClause(q.filter, { device: "device_id" });
  if (q.groupBy === "hour") return hourSlices(sql, q, zone, where);
  const group = q.groupBy === "date" ? "date" : DIMENSION[q.groupBy];
  const provider = q.groupBy === "model" ? ", model_provider" : "";
  const order = q.groupBy === "date" ? "date" : `total_cost_micros DESC, total_requests DESC, ${group}${provider}`;
  // `daily` holds the same figures per day and model only: about a sixteenth of the rows of a busy
  // account's slices, so the views that need no finer dimension read it (bench/results.md).
  const table = byModelOnly(q) ? "daily" : "day_slices";
  const rows = sql
    .exec(
      `SELECT ${group} AS key${provider}, ${SLICE_SUMS} FROM ${table} WHERE date >= ? AND date <= ?${where.sql} GROUP BY ${group}${provider} ORDER BY ${order}`,
      q.from,
      q.to,
      ...where.args,
    )
    .toArray();
  return rows.map((r) => sliceRow(r, q.groupBy === "status" ? (Number(r.key) === 1 ? "success" : "error") : String(r.key)));
}

function byModelOnly(q: SliceQuery): boolean {
  const f = q.filter ?? {};
  return (
    (q.groupBy === "model" || q.groupBy === "provider" || q.groupBy === "date") &&
    f.device === undefined &&
    f.requestType === undefined &&
    f.status === undefined
  );
}

function hourSlices(sql: SqlStorage, q: SliceQuery, zone: string, where: { sql: string; args: Array<string | number> }): SliceRow[] {
  const from = dayStart(q.from, zone);
  const to = dayStart(addDays(q.to, 1), zone);
  const byHour = new Map<number, Record<string, SqlStorageValue>>();
  for (const p of offsetPeriods(from, to, zone)) {
    const rows = sql
      .exec(
        `SELECT start - (start + ?) % 3600000 AS key, ${SLICE_SUMS} FROM quarter_slices WHERE start >= ? AND start < ?${where.sql} GROUP BY 1`,
        p.offset,
        Math.max(p.start, from),
        Math.min(p.end, to),
        ...where.args,
      )
      .toArray();
    for (const r of rows) {
      const earlier = byHour.get(Number(r.key));
      byHour.set(Number(r.key), earlier ? addSliceRows(earlier, r) : r);
    }
  }
  return [...byHour.entries()].sort((a, b) => a[0] - b[0]).map(([key, r]) => sliceRow(r, String(key)));
}

/** Two summed rows of one key (from two offset periods) as one. */
export function addSliceRows(a: Record<string, SqlStorageValue>, b: Record<string, SqlStorageValue>) {
  const out: Record<string, SqlStorageValue> = { ...a };
  for (const c of FIGURES.split(", ")) out[c] = Number(a[c] ?? 0) + Number(b[c] ?? 0);
  return out;
}

/** A summed row as the reads hand it back, under `key`. */
export function sliceRow(r: Record<string, SqlStorageValue>, key: string): SliceRow {
  const row: SliceRow = {
    key,
    totalRequests: Number(r.total_requests ?? 0),
    successCount: Number(r.success_count ?? 0),
    totalTokens: Number(r.total_tokens ?? 0),
    tokensInput: Number(r.tokens_input ?? 0),
    tokensOutput: Number(r.tokens_output ?? 0),
    totalCostMicros: Number(r.total_cost_micros ?? 0),
    totalDurationMs: Number(r.total_duration_ms ?? 0),
    timedRequests: Number(r.timed_requests ?? 0),
  };
  if (r.model_provider !== undefined) row.provider = String(r.model_provider);
  return row;
}
