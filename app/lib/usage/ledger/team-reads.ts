// The reads of a team's ledger (issue 50, ADR 0038). A team's ledger is an account's ledger kept
// in UTC, each report under its member (slices keyed by member_id). Its members live in many time
// zones, so no zone's days are stored: a viewer's range [from, to) is read as the whole UTC days
// inside it plus the two partial UTC days at its ends from the quarter hours (exact at any offset:
// a zone's day starts on a quarter hour), and its days are drawn from the quarter hours with one
// GROUP BY per period of one offset, as hours are for an account. The team's own figures come from
// the tables without a member (`daily`, whose days are UTC's in a team's ledger, and `quarters`), so
// they cost the same for 10 members as for 1,000; the members' table is kept ranked (team-ranking.ts).
import { MS } from "../../constants";
import { offsetPeriods, UTC } from "../../time-zone";
import { dayKey } from "../dates";
import { addSliceFigures, addSliceRows, SLICE_FIGURES, SLICE_SUMS, sliceRow } from "./slices";
import { type MemberCursor, rankedMembers } from "./team-ranking";
import type { SliceRow } from "./types";

export type { MemberCursor } from "./team-ranking";

export type TeamQuery = {
  /** The viewer's range, [from, to) in epoch ms (local midnights of the viewer's zone). */
  from: number;
  to: number;
  /** The viewer's zone: the days of `days` are its days. */
  zone: string;
  /** Only this member's usage (a member's own view, or an admin's filter); the members' table is then their row. */
  member?: string;
  /** The members' table: how many rows, after which one. Absent: no table (unless `rowOf`). */
  members?: { limit: number; after?: MemberCursor | null };
  /** The members' table is this member's row alone, while the totals, models and days stay the team's (a member's view). */
  rowOf?: string;
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

/**
 * The rows of [from, to): whole UTC days from a table of days, the ends from a table of quarter
 * hours. `member`: one member's slices only (the member index); otherwise `tables` says which pair.
 */
function rangeRows(from: number, to: number, columns: string, member: string | undefined, tables = { days: "day_slices", quarters: "quarter_slices" }): Clause {
  const mine = member === undefined ? "" : ` AND member_id = ? AND member_id <> ''`;
  const withMember = (args: Array<string | number>) => (member === undefined ? args : [...args, member]);
  const firstWhole = Math.ceil(from / MS.DAY) * MS.DAY;
  const lastWhole = Math.floor(to / MS.DAY) * MS.DAY;
  const quarters = `SELECT ${columns}, ${SLICE_FIGURES} FROM ${tables.quarters}`;
  if (firstWhole >= lastWhole) return { sql: `${quarters} WHERE start >= ? AND start < ?${mine}`, args: withMember([from, to]) };
  return {
    sql: `SELECT ${columns}, ${SLICE_FIGURES} FROM ${tables.days} WHERE date >= ? AND date < ?${mine}
      UNION ALL ${quarters} WHERE ((start >= ? AND start < ?) OR (start >= ? AND start < ?))${mine}`,
    args: [...withMember([dayKey(firstWhole, UTC), dayKey(lastWhole, UTC)]), ...withMember([from, firstWhole, lastWhole, to])],
  };
}

// The team's own rows: `daily` and `quarters` hold the same figures as the slices summed over
// members (written from the same tally), a row per model instead of per model, device, request
// type, status and member. A team's ledger never gets a zone, so its `daily` days are UTC's.
const TEAM_TABLES = { days: "daily", quarters: "quarters" };

/** The caller runs it in one storage transaction: a range's first page ranks its members (team-ranking.ts). */
export function readTeam(sql: SqlStorage, q: TeamQuery): TeamRead {
  const models =
    q.member === undefined
      ? rangeRows(q.from, q.to, "model_name, model_provider", undefined, TEAM_TABLES)
      : rangeRows(q.from, q.to, "model_name, model_provider", q.member);
  const modelRows = sql
    .exec(
      `SELECT model_name AS key, model_provider, ${SLICE_SUMS} FROM (${models.sql}) GROUP BY model_name, model_provider
       ORDER BY total_cost_micros DESC, total_requests DESC, model_name, model_provider`,
      ...models.args,
    )
    .toArray()
    .map((r) => sliceRow(r, String(r.key)));
  return { totals: totalOf(modelRows), models: modelRows, days: teamDays(sql, q), members: memberTable(sql, q) };
}

function memberTable(sql: SqlStorage, q: TeamQuery): TeamRead["members"] {
  const one = q.member ?? q.rowOf;
  if (one !== undefined) return { rows: memberRow(sql, q, one), next: null };
  if (q.members === undefined) return { rows: [], next: null };
  const limit = q.members.limit;
  // Keyset paging over the ranked range: a page deep in a thousand members' table costs what the first costs.
  const page = rankedMembers(sql, q, q.members, () => rangeRows(q.from, q.to, "member_id", undefined)).map((r) => sliceRow(r, String(r.member_id)));
  const shown = page.slice(0, limit);
  const last = shown[shown.length - 1];
  return { rows: shown, next: page.length > limit && last ? { cost: last.totalCostMicros, member: last.key } : null };
}

/** One member's row over the range, from their own slices (the member index): none if they have no usage in it. */
function memberRow(sql: SqlStorage, q: TeamQuery, member: string): SliceRow[] {
  const rows = rangeRows(q.from, q.to, "member_id", member);
  return sql
    .exec(`SELECT member_id, ${SLICE_SUMS} FROM (${rows.sql}) GROUP BY member_id`, ...rows.args)
    .toArray()
    .map((r) => sliceRow(r, String(r.member_id)));
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
        `SELECT strftime('%Y-%m-%d', CAST((start + ?) / 1000 AS INTEGER), 'unixepoch') AS key, ${SLICE_SUMS} FROM ${table}
         WHERE start >= ? AND start < ?${mine} GROUP BY 1`,
        p.offset,
        Math.max(p.start, q.from),
        Math.min(p.end, q.to),
        ...(q.member === undefined ? [] : [q.member]),
      )
      .toArray();
    for (const r of rows) {
      const earlier = byDay.get(String(r.key));
      byDay.set(String(r.key), earlier ? addSliceRows(earlier, r) : r);
    }
  }
  return [...byDay.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([key, r]) => sliceRow(r, key));
}

/** The export's query: the range, zone and (a member's own export) member; no table. */
export type TeamDetailQuery = Omit<TeamQuery, "members" | "rowOf">;

/** One row of the team's export: a member's figures on one model on one day of the viewer's zone. */
export type TeamDetailRow = SliceRow & { date: string; member: string };

/**
 * Every member × day × model of the range (the CSV; `member`: one member's rows only), drawn from
 * the quarter hours period by period, as `teamDays` draws the days.
 */
export function readTeamDetail(sql: SqlStorage, q: TeamDetailQuery): TeamDetailRow[] {
  const mine = q.member === undefined ? "" : ` AND member_id = ? AND member_id <> ''`;
  const rows = new Map<string, Record<string, SqlStorageValue>>();
  for (const p of offsetPeriods(q.from, q.to, q.zone)) {
    const found = sql
      .exec(
        `SELECT strftime('%Y-%m-%d', CAST((start + ?) / 1000 AS INTEGER), 'unixepoch') AS date, member_id, model_name, model_provider, ${SLICE_SUMS}
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
      rows.set(key, earlier ? addSliceRows(earlier, r) : r);
    }
  }
  return [...rows.entries()]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([, r]) => ({ ...sliceRow(r, String(r.model_name)), date: String(r.date), member: String(r.member_id) }));
}

function totalOf(rows: SliceRow[]): SliceRow {
  const total = sliceRow({}, "total");
  for (const r of rows) addSliceFigures(total, r);
  return total;
}
