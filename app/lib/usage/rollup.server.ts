// Cross-account usage figures for admins, from the rollup in D1 that the ledgers feed (ADR 0020):
// never from visiting every account's ledger.
import { and, count, countDistinct, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { MS } from "../constants";
import { UTC } from "../time-zone";
import { dayKey, startOfMonth } from "./dates";

const r = schema.usageRollup;

export type UsageTotals = { requests: number; tokens: number; cost: number; accounts: number; since: string };

/** Requests, tokens and cost of every account this month, and how many accounts used the app (UTC days: the rollup's). */
export async function usageTotalsThisMonth(db: Db, now = Date.now()): Promise<UsageTotals> {
  const since = dayKey(startOfMonth(now, UTC), UTC);
  const [row] = await db
    .select({
      requests: sql<number>`coalesce(sum(${r.requests}), 0)`,
      tokens: sql<number>`coalesce(sum(${r.tokens}), 0)`,
      costMicros: sql<number>`coalesce(sum(${r.costMicros}), 0)`,
      accounts: countDistinct(r.userId),
    })
    .from(r)
    .where(gte(r.date, since));
  return { requests: row?.requests ?? 0, tokens: row?.tokens ?? 0, cost: (row?.costMicros ?? 0) / 1e6, accounts: row?.accounts ?? 0, since };
}

/** Accounts whose first usage report arrived in each week (keyed by the week's Monday, epoch ms). */
export async function firstUsageByWeek(db: Db, since: number, until: number): Promise<Map<number, number>> {
  const a = schema.usageAccounts;
  // Inlined, not bound: D1 binds JavaScript numbers as REAL, which would make this a real division.
  const DAY = sql.raw(String(MS.DAY));
  const day = sql<number>`(${a.firstReportAt} / ${DAY})`;
  // Monday of the week, as weekStart() computes it (1970-01-01 was a Thursday).
  const week = sql<number>`((${day} - ((${day} + 3) % 7)) * ${DAY})`;
  const rows = await db
    .select({ week, n: count() })
    .from(a)
    .where(and(gte(a.firstReportAt, since), lt(a.firstReportAt, until)))
    .groupBy(week);
  return new Map(rows.map((row) => [Number(row.week), Number(row.n)]));
}
