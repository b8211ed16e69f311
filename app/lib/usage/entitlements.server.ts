// The entitlement call (GET /api/v1/entitlements): what the account may do now. Free accounts
// have the spec's limits (FREE_TIER: 3 requests a minute, 20 an hour, 100 a day, 1,000 requests
// and 100,000 tokens a month); subscribers and early-access members have none. Windows are
// calendar windows in UTC (this minute, hour, day and month), like the API's own rate limit,
// so "allowed again" is the moment the blocking window ends. Counted from the aggregates the
// consumer writes (one statement, no raw rows), so a report shows here about a second after it
// was accepted. Reports are still recorded past a limit: this call is how the app asks first.
import { sql } from "drizzle-orm";
import { ENTITLEMENTS, FREE_TIER, MS } from "../constants";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { activationOf } from "../early-access/activation.server";
import { dayKey, startOfMonth, startOfUtcDay } from "./dates";
import type { SubscriptionLike } from "../subscription-rules";
import type { SessionProfile } from "../auth/session.server";

export type Plan = "free" | "premium" | "early_access";
export type WindowName = "minute" | "hour" | "day" | "month";

export type EntitlementWindow = {
  window: WindowName;
  unit: "requests" | "tokens";
  /** null: no limit on this plan. */
  limit: number | null;
  used: number;
  remaining: number | null;
  resets_at: string;
};

export type Entitlements = {
  plan: Plan;
  unlimited: boolean;
  allowed: boolean;
  /** Seconds until a call is allowed again (null when allowed now). */
  retry_after_seconds: number | null;
  allowed_at: string | null;
  windows: EntitlementWindow[];
};

export type UsageCounts = { minute: number; hour: number; day: number; monthRequests: number; monthTokens: number };
type Facts = UsageCounts & { subscription: SubscriptionLike | null };

/** Where each UTC window of `now` starts and ends. */
export function windowBounds(now: number): Record<WindowName, { start: number; end: number }> {
  const d = new Date(now);
  const minute = Math.floor(now / MS.MINUTE) * MS.MINUTE;
  const hour = Math.floor(now / MS.HOUR) * MS.HOUR;
  const day = startOfUtcDay(now);
  const month = startOfMonth(now);
  return {
    minute: { start: minute, end: minute + MS.MINUTE },
    hour: { start: hour, end: hour + MS.HOUR },
    day: { start: day, end: day + MS.DAY },
    month: { start: month, end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) },
  };
}

/**
 * The account's counts in each window and its subscription: one statement over the aggregates
 * (the usage tab shows these too, within its six statements).
 */
export async function entitlementFacts(db: Db, userId: string, now = Date.now()): Promise<Facts> {
  const w = windowBounds(now);
  const today = dayKey(w.day.start);
  const hourOfDay = new Date(w.hour.start).getUTCHours();
  const [row] = await db.all<{
    minute: number;
    hour: number;
    day: number;
    month_requests: number;
    month_tokens: number;
    sub_status: string | null;
    sub_trial_end: number | null;
    sub_period_end: number | null;
  }>(sql`
    SELECT
      (SELECT status FROM ${schema.subscriptions} WHERE user_id = ${userId}) AS sub_status,
      (SELECT trial_end FROM ${schema.subscriptions} WHERE user_id = ${userId}) AS sub_trial_end,
      (SELECT current_period_end FROM ${schema.subscriptions} WHERE user_id = ${userId}) AS sub_period_end,
      (SELECT coalesce(sum(total_requests), 0) FROM ${schema.minuteUsage} WHERE user_id = ${userId} AND minute = ${w.minute.start / MS.MINUTE}) AS minute,
      (SELECT coalesce(sum(total_requests), 0) FROM ${schema.hourlyUsage} WHERE user_id = ${userId} AND date = ${today} AND hour = ${hourOfDay}) AS hour,
      (SELECT coalesce(sum(total_requests), 0) FROM ${schema.dailyUsageSummary} WHERE user_id = ${userId} AND date = ${today}) AS day,
      (SELECT coalesce(sum(total_requests), 0) FROM ${schema.dailyUsageSummary} WHERE user_id = ${userId} AND date >= ${dayKey(w.month.start)} AND date < ${dayKey(w.month.end)}) AS month_requests,
      (SELECT coalesce(sum(total_tokens), 0) FROM ${schema.dailyUsageSummary} WHERE user_id = ${userId} AND date >= ${dayKey(w.month.start)} AND date < ${dayKey(w.month.end)}) AS month_tokens
  `);
  const r = row!;
  return {
    minute: r.minute,
    hour: r.hour,
    day: r.day,
    monthRequests: r.month_requests,
    monthTokens: r.month_tokens,
    subscription: r.sub_status === null ? null : { status: r.sub_status, trialEnd: r.sub_trial_end, currentPeriodEnd: r.sub_period_end },
  };
}

/** What the counts allow on this plan (pure: tested without a database). */
export function entitlementsFrom(counts: UsageCounts, plan: Plan, now = Date.now()): Entitlements {
  const w = windowBounds(now);
  const free = plan === "free";
  const windows: EntitlementWindow[] = (
    [
      ["minute", "requests", FREE_TIER.perMinute, counts.minute],
      ["hour", "requests", FREE_TIER.perHour, counts.hour],
      ["day", "requests", FREE_TIER.perDay, counts.day],
      ["month", "requests", FREE_TIER.requestsPerMonth, counts.monthRequests],
      ["month", "tokens", FREE_TIER.tokensPerMonth, counts.monthTokens],
    ] as const
  ).map(([window, unit, limit, used]) => ({
    window,
    unit,
    limit: free ? limit : null,
    used,
    remaining: free ? Math.max(0, limit - used) : null,
    resets_at: new Date(w[window].end).toISOString(),
  }));
  // Allowed again once every exhausted window has ended.
  const blockedUntil = Math.max(0, ...windows.filter((x) => x.remaining === 0).map((x) => Date.parse(x.resets_at)));
  const allowed = blockedUntil === 0;
  return {
    plan,
    unlimited: !free,
    allowed,
    retry_after_seconds: allowed ? null : Math.max(1, Math.ceil((blockedUntil - now) / 1000)),
    allowed_at: allowed ? null : new Date(blockedUntil).toISOString(),
    windows,
  };
}

/** The account's entitlements now. `profile`: the session's profile fields (early access). */
export async function accountEntitlements(
  db: Db,
  userId: string,
  profile: Pick<SessionProfile, "earlyAccessStatus" | "earlyAccessExpiresAt">,
  now = Date.now(),
) {
  const facts = await entitlementFacts(db, userId, now);
  const activation = activationOf(facts.subscription, profile, now);
  const plan: Plan = activation.subscription ? "premium" : activation.earlyAccess ? "early_access" : "free";
  return entitlementsFrom(facts, plan, now);
}

/** The hourly cron: per-minute counts older than two hours are no longer read. */
export async function sweepMinuteUsage(db: Db, now = Date.now()): Promise<number> {
  const result = await db
    .delete(schema.minuteUsage)
    .where(sql`${schema.minuteUsage.minute} < ${Math.floor((now - ENTITLEMENTS.minuteRowsKeptMs) / MS.MINUTE)}`)
    .run();
  return result.meta.changes;
}
