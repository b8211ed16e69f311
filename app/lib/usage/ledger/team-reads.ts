// The reads of a team's ledger (issue 50, ADR 0038). A team's ledger is an account's ledger kept
// in UTC, each report under its member (slices keyed by member_id). Its members live in many time
// zones, so no zone's days are stored: a viewer's range [from, to) is read as the whole UTC days
// inside it from `day_slices` plus the two partial UTC days at its ends from `quarter_slices`
// (exact at any offset: a zone's day starts on a quarter hour), and its days are drawn from the
// quarter hours with one GROUP BY per period of one offset, as hours are for an account.
import { MS } from "../../constants";
import { offsetPeriods, UTC } from "../../time-zone";
import { dayKey } from "../dates";
import type { SliceRow } from "./types";

const FIGURES = [
  "total_requests",
  "success_count",
  "total_tokens",
  "tokens_input",
  "tokens_output",
  "total_cost_micros",
  "total_duration_ms",
  "timed_requests",
];
const SUMS = FIGURES.map((c) => `sum(${c}) AS ${c}`).join(", ");

/** The position after a row of the members' table: ordered by cost (highest first), then member id. */
export type MemberCursor = { cost: number; member: string };

export type TeamQuery = {
  /** The viewer's range, [from, to) in epoch ms (local midnights of the viewer's zone). */
  from: number;
  to: number;
  /** The viewer's zone: the days of `days` are its days. */
  zone: string;
  /** Only this member's usage (a member's own view, or an admin's filter). */
  member?: string;
  /** How many rows of the members' table, after which one. */
  members: { limit: number; after?: MemberCursor | null };
};

export type TeamRead = {
  totals: SliceRow;
  /** By model (key: model name, with its provider), highest cost first. */
  models: SliceRow[];
  /** By day of the viewer's zone (key: 'YYYY-MM-DD'), days with usage only, oldest first. */
  days: SliceRow[];
  /** By member (key: user id), highest cost first: one page, and where the next starts. */
  members: { rows: SliceRow[]; next: MemberCursor | null };
};

type Clause = { sql: string; args: Array<string | number> };

/** The slice rows of [from, to): whole UTC days from `day_slices`, the ends from `quarter_slices`. */
function rangeRows(from: number, to: number, columns: string, member: string | undefined): Clause {
  const mine = member === undefined ? "" : ` AND member_id = ? AND member_id <> ''`;
  const withMember = (args: Array<string | number>) => (member === undefined ? args : [...args, member]);
  const firstWhole = Math.ceil(from / MS.DAY) * MS.DAY;
  const lastWhole = Math.floor(to / MS.DAY) * MS.DAY;
  const quarters = `SELECT ${columns}, ${FIGURES.join(", ")} FROM quarter_slices`;
  if (firstWhole >= lastWhole) return { sql: `${quarters} WHERE start >= ? AND start < ?${mine}`, args: withMember([from, to]) };
  return {
    sql: `SELECT ${columns}, ${FIGURES.join(", ")} FROM day_slices WHERE date >= ? AND date < ?${mine}
      UNION ALL ${quarters} WHERE ((start >= ? AND start < ?) OR (start >= ? AND start < ?))${mine}`,
    args: [...withMember([dayKey(firstWhole, UTC), dayKey(lastWhole, UTC)]), ...withMember([from, firstWhole, lastWhole, to])],
  };
}

export function readTeam(sql: SqlStorage, q: TeamQuery): TeamRead {
  const models = rangeRows(q.from, q.to, "model_name, model_provider", q.member);
  const modelRows = sql
    .exec(
      `SELECT model_name AS key, model_provider, ${SUMS} FROM (${models.sql}) GROUP BY model_name, model_provider
       ORDER BY total_cost_micros DESC, total_requests DESC, model_name, model_provider`,
      ...models.args,
    )
    .toArray()
    .map((r) => sliceRow(r, String(r.key)));
  return { totals: totalOf(modelRows), models: modelRows, days: teamDays(sql, q), members: memberPage(sql, q) };
}

function memberPage(sql: SqlStorage, q: TeamQuery): TeamRead["members"] {
  const rows = rangeRows(q.from, q.to, "member_id", q.member);
  const after = q.members.after ?? null;
  // Keyset paging over the grouped rows: a thousand members' table is read a page at a time, and a
  // page deep in it costs what the first costs (the grouping is the same; only the rows handed back differ).
  const having = after === null ? "" : ` HAVING sum(total_cost_micros) < ? OR (sum(total_cost_micros) = ? AND member_id > ?)`;
  const page = sql
    .exec(
      `SELECT member_id, ${SUMS} FROM (${rows.sql}) GROUP BY member_id${having} ORDER BY sum(total_cost_micros) DESC, member_id LIMIT ?`,
      ...rows.args,
      ...(after === null ? [] : [after.cost, after.cost, after.member]),
      q.members.limit + 1,
    )
    .toArray()
    .map((r) => sliceRow(r, String(r.member_id)));
  const shown = page.slice(0, q.members.limit);
  const last = shown[shown.length - 1];
  return { rows: shown, next: page.length > q.members.limit && last ? { cost: last.totalCostMicros, member: last.key } : null };
}

/**
 * The viewer's days: the quarter hours of the range, each period of one offset grouped by its local
 * date. Without a member, `quarters` (no member dimension: its rows do not grow with the team).
 */
function teamDays(sql: SqlStorage, q: TeamQuery): SliceRow[] {
  const table = q.member === undefined ? "quarters" : "quarter_slices";
  const mine = q.member === undefined ? "" : ` AND member_id = ? AND member_id <> ''`;
  const byDay = new Map<string, Record<string, SqlStorageValue>>();
  for (const p of offsetPeriods(q.from, q.to, q.zone)) {
    const rows = sql
      .exec(
        `SELECT strftime('%Y-%m-%d', CAST((start + ?) / 1000 AS INTEGER), 'unixepoch') AS key, ${SUMS} FROM ${table}
         WHERE start >= ? AND start < ?${mine} GROUP BY 1`,
        p.offset,
        Math.max(p.start, q.from),
        Math.min(p.end, q.to),
        ...(q.member === undefined ? [] : [q.member]),
      )
      .toArray();
    for (const r of rows) {
      const earlier = byDay.get(String(r.key));
      byDay.set(String(r.key), earlier ? addRows(earlier, r) : r);
    }
  }
  return [...byDay.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([key, r]) => sliceRow(r, key));
}

/** One row of the team's export: a member's figures on one model on one day of the viewer's zone. */
export type TeamDetailRow = SliceRow & { date: string; member: string };

/**
 * Every member × day × model of the range (the CSV; `member`: one member's rows only), drawn from
 * the quarter hours period by period, as `teamDays` draws the days.
 */
export function readTeamDetail(sql: SqlStorage, q: Omit<TeamQuery, "members">): TeamDetailRow[] {
  const mine = q.member === undefined ? "" : ` AND member_id = ? AND member_id <> ''`;
  const rows = new Map<string, Record<string, SqlStorageValue>>();
  for (const p of offsetPeriods(q.from, q.to, q.zone)) {
    const found = sql
      .exec(
        `SELECT strftime('%Y-%m-%d', CAST((start + ?) / 1000 AS INTEGER), 'unixepoch') AS date, member_id, model_name, model_provider, ${SUMS}
         FROM quarter_slices WHERE start >= ? AND start < ?${mine} GROUP BY 1, 2, 3, 4`,
        p.offset,
        Math.max(p.start, q.from),
        Math.min(p.end, q.to),
        ...(q.member === undefined ? [] : [q.member]),
      )
      .toArray();
    for (const r of found) {
      const key = `${r.date}\u0000${r.member_id}\u0000${r.model_name}\u0000${r.model_provider}`;
      const earlier = rows.get(key);
      rows.set(key, earlier ? addRows(earlier, r) : r);
    }
  }
  return [...rows.entries()]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([, r]) => ({ ...sliceRow(r, String(r.model_name)), date: String(r.date), member: String(r.member_id) }));
}

function addRows(a: Record<string, SqlStorageValue>, b: Record<string, SqlStorageValue>) {
  const out: Record<string, SqlStorageValue> = { ...a };
  for (const c of FIGURES) out[c] = Number(a[c] ?? 0) + Number(b[c] ?? 0);
  return out;
}

function totalOf(rows: SliceRow[]): SliceRow {
  const total = sliceRow({}, "total");
  for (const r of rows) {
    total.totalRequests += r.totalRequests;
    total.successCount += r.successCount;
    total.totalTokens += r.totalTokens;
    total.tokensInput += r.tokensInput;
    total.tokensOutput += r.tokensOutput;
    total.totalCostMicros += r.totalCostMicros;
    total.totalDurationMs += r.totalDurationMs;
    total.timedRequests += r.timedRequests;
  }
  return total;
}

function sliceRow(r: Record<string, SqlStorageValue>, key: string): SliceRow {
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
