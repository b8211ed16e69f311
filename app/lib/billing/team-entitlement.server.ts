// A member of a team with a paid Team plan has the desktop app's entitlements and downloads, like a
// Pro subscriber (ADR 0037). The SQL below is folded into statements the callers already make (the
// session's, the activation's, the plan's), so the rule costs no D1 statement of its own.
import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

// Past any date: an active subscription without a period end (a grant) counts as active forever.
const NO_END = Number.MAX_SAFE_INTEGER;

/**
 * Until when the account's best team subscription counts as active: the trial's end while in
 * trial, the period's end while active (statuses.ts countsAsActive, in SQL), null when no team it
 * belongs to has a paid plan. One index lookup per membership (team_members_user_idx, then
 * team_subscriptions' unique team_id).
 */
export function teamPaidUntilSql(userId: SQLiteColumn | SQL | string): SQL<number | null> {
  return sql<
    number | null
  >`(select max(case when ts.status = 'trial' then ts.trial_end when ts.status = 'active' then coalesce(ts.current_period_end, ${NO_END}) end) from team_members as tm join team_subscriptions as ts on ts.team_id = tm.team_id where tm.user_id = ${userId})`;
}

/** Whether a team seat gives the account the paid plan now. */
export function teamSeatActive(paidUntil: number | null | undefined, now = Date.now()): boolean {
  return paidUntil !== null && paidUntil !== undefined && Number(paidUntil) > now;
}
