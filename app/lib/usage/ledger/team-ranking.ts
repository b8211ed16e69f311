// The members' table of a team's usage page, kept ranked (issue 50, ADR 0038). A page of it was a
// GROUP BY of every member's slices over the range: about 100,000 rows for a 1,000-member team's 30
// days, against 21,000 for a 10-member team with the same usage (bench/results.md, "Teams"), so the
// page's cost grew with the team. Instead, each range a viewer asks for (the last 7, 30 or 90 days
// of their zone, an exact [from, to) of quarter hours) gets one row per member with the member's
// totals in it, ordered by an index on cost: a page is the next 26 entries of that index, whatever
// the team's size.
//
// Exact, as the slices are: a range's rows are summed from the slices once, on its first read, and
// from then on every ingest adds to them exactly what it adds to the slices (the same tally, in the
// same transaction), so they always equal the slices' sum over the range. A range is kept while it
// can still be asked for: a viewer's range always ends after the moment of the view (at their next
// midnight), so once an ingest's `now` is past a range's end nobody asks for it again and it goes.
// At most LEDGER.teamRangesKept are kept (the oldest goes first), which bounds what an ingest adds.
import { LEDGER } from "../../constants";
import { addSliceFigures, emptySliceFigures, SLICE_FIGURES, type SliceDelta, type SliceTally, sliceFigures } from "./slices";

/** The ledger migration that adds the ranked ranges (an account's own ledger never has any). */
export const RANKING_MIGRATION = [
  `CREATE TABLE member_ranges (id INTEGER PRIMARY KEY, range_from INTEGER NOT NULL, range_to INTEGER NOT NULL, UNIQUE (range_from, range_to))`,
  `CREATE TABLE member_totals (range_id INTEGER NOT NULL, member_id TEXT NOT NULL, ${SLICE_FIGURES.split(", ")
    .map((c) => `${c} INTEGER NOT NULL DEFAULT 0`)
    .join(", ")}, PRIMARY KEY (range_id, member_id)) WITHOUT ROWID`,
  // The table's order: highest cost first, then member id (a page's cursor is the pair).
  `CREATE INDEX member_totals_rank ON member_totals (range_id, total_cost_micros DESC, member_id)`,
];

/** The position after a row of the members' table: ordered by cost (highest first), then member id. */
export type MemberCursor = { cost: number; member: string };

/** A range's slice rows with their member (SQL selecting `member_id` and the figures, and its values). */
export type MemberRows = { sql: string; args: Array<string | number> };

const VALUES = `VALUES (${Array.from({ length: SLICE_FIGURES.split(", ").length + 2 }, () => "?").join(", ")})`;
const UPSERT_TOTAL = `INSERT INTO member_totals (range_id, member_id, ${SLICE_FIGURES}) ${VALUES}
  ON CONFLICT (range_id, member_id) DO UPDATE SET ${SLICE_FIGURES.split(", ")
    .map((c) => `${c} = ${c} + excluded.${c}`)
    .join(", ")}`;

/**
 * A page of the members' table of [from, to): `limit` rows after `after` (and one more, which says
 * whether another page follows). The range is ranked first if it is not yet (`rows`: its slices).
 * The caller runs it in one storage transaction.
 */
export function rankedMembers(
  sql: SqlStorage,
  range: { from: number; to: number },
  page: { limit: number; after?: MemberCursor | null },
  rows: () => MemberRows,
): Array<Record<string, SqlStorageValue>> {
  const id = rangeId(sql, range, rows);
  const want = page.limit + 1;
  const columns = `member_id, ${SLICE_FIGURES}`;
  // Named, so no plan change goes unnoticed (an error instead): given every figure to read, SQLite
  // would walk the primary key from the cursor's member instead, reading members of every cost.
  const ranked = "member_totals INDEXED BY member_totals_rank";
  const after = page.after ?? null;
  if (after === null) {
    return sql.exec(`SELECT ${columns} FROM ${ranked} WHERE range_id = ? ORDER BY total_cost_micros DESC, member_id LIMIT ?`, id, want).toArray();
  }
  // Two seeks into the index, each reading only the rows it gives: the rest of the cursor's cost
  // (many members may share a cost), then the lower costs. One condition of both kinds would start
  // at the cursor's cost and step over every member of that cost before the cursor's.
  const tied = sql
    .exec(
      `SELECT ${columns} FROM ${ranked} WHERE range_id = ? AND total_cost_micros = ? AND member_id > ? ORDER BY member_id LIMIT ?`,
      id,
      after.cost,
      after.member,
      want,
    )
    .toArray();
  if (tied.length === want) return tied;
  const lower = sql
    .exec(
      `SELECT ${columns} FROM ${ranked} WHERE range_id = ? AND total_cost_micros < ? ORDER BY total_cost_micros DESC, member_id LIMIT ?`,
      id,
      after.cost,
      want - tied.length,
    )
    .toArray();
  return [...tied, ...lower];
}

function rangeId(sql: SqlStorage, range: { from: number; to: number }, rows: () => MemberRows): number {
  const found = sql.exec(`SELECT id FROM member_ranges WHERE range_from = ? AND range_to = ?`, range.from, range.to).toArray()[0];
  if (found) return Number(found.id);
  const id = Number(sql.exec(`INSERT INTO member_ranges (range_from, range_to) VALUES (?, ?) RETURNING id`, range.from, range.to).one().id);
  const source = rows();
  sql.exec(
    `INSERT INTO member_totals (range_id, member_id, ${SLICE_FIGURES})
     SELECT ?, member_id, ${SLICE_FIGURES.split(", ")
       .map((c) => `sum(${c})`)
       .join(", ")} FROM (${source.sql}) GROUP BY member_id`,
    id,
    ...source.args,
  );
  // Past the limit, the ranges ranked longest ago go (ids only grow while the newest is kept).
  for (const old of sql.exec(`SELECT id FROM member_ranges ORDER BY id DESC LIMIT -1 OFFSET ?`, LEDGER.teamRangesKept).toArray()) drop(sql, Number(old.id));
  return id;
}

function drop(sql: SqlStorage, id: number) {
  sql.exec(`DELETE FROM member_totals WHERE range_id = ?`, id);
  sql.exec(`DELETE FROM member_ranges WHERE id = ?`, id);
}

/**
 * An ingest's part (ingest.ts, in its transaction): what the call added to the slices, added to each
 * ranked range its quarter hours fall in, one row per range and member. Ranges that ended by `now`
 * go first: nobody asks for them again.
 */
export function addToRankings(sql: SqlStorage, slices: SliceTally, now: number) {
  const ranges = sql
    .exec(`SELECT id, range_from, range_to FROM member_ranges`)
    .toArray()
    .map((r) => ({ id: Number(r.id), from: Number(r.range_from), to: Number(r.range_to) }));
  if (ranges.length === 0) return;
  const live = ranges.filter((r) => r.to > now);
  for (const r of ranges) if (r.to <= now) drop(sql, r.id);
  const sums = new Map<string, { id: number; member: string; d: SliceDelta }>();
  // A quarter hour lies wholly inside a range or outside it: a range's ends are quarter hours (every zone's midnight is one).
  for (const { start, key, d } of slices.quarters.values()) {
    for (const r of live) {
      if (start < r.from || start >= r.to) continue;
      const k = `${r.id}\u0000${key.memberId}`;
      const sum = sums.get(k) ?? { id: r.id, member: key.memberId, d: emptySliceFigures() };
      sums.set(k, sum);
      addSliceFigures(sum.d, d);
    }
  }
  for (const { id, member, d } of sums.values()) sql.exec(UPSERT_TOTAL, id, member, ...sliceFigures(d));
}
