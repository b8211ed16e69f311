// The free tier's windows and what counts in them allow (pure: the ledger, the API and the tests
// share it). Windows are calendar windows in UTC (this minute, hour, day and month), so "allowed
// again" is the moment the blocking window ends; that moment is written in the account's zone
// (an ISO time with its offset, ADR 0030).
import { FREE_TIER, MS } from "../constants";
import { isoInZone, UTC } from "../time-zone";
import { accountWideReached, type CapEntitlement, capEntitlement, type CapState } from "./caps";
import { startOfMonth, startOfNextMonth, startOfUtcDay } from "./dates";

export type Plan = "free" | "premium" | "early_access";
export type WindowName = "minute" | "hour" | "day" | "month";

type EntitlementWindow = {
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
  /** The account's zone, in which resets_at and allowed_at are written (the windows themselves are UTC). */
  time_zone: string;
  windows: EntitlementWindow[];
  /** The account's hard caps (ADR 0032), any plan: a reached monthly or daily cap refuses every call until it starts again. */
  caps: CapEntitlement[];
  /**
   * A team device key's team (ADR 0039): its hard caps as they stand for this member (the team's
   * budgets and the member's own cap, UTC periods); any reached makes `allowed` false until it resets.
   */
  team?: { slug: string; caps: CapEntitlement[]; reached: boolean };
};

export type UsageCounts = { minute: number; hour: number; day: number; monthRequests: number; monthTokens: number };

/** Where each UTC window of `now` starts and ends. */
export function windowBounds(now: number): Record<WindowName, { start: number; end: number }> {
  const minute = Math.floor(now / MS.MINUTE) * MS.MINUTE;
  const hour = Math.floor(now / MS.HOUR) * MS.HOUR;
  const day = startOfUtcDay(now);
  const month = startOfMonth(now, UTC);
  return {
    minute: { start: minute, end: minute + MS.MINUTE },
    hour: { start: hour, end: hour + MS.HOUR },
    day: { start: day, end: day + MS.DAY },
    month: { start: month, end: startOfNextMonth(now, UTC) },
  };
}

/** What the counts and hard caps allow on this plan (pure: tested without a database); times written in `zone`. */
export function entitlementsFrom(counts: UsageCounts, plan: Plan, now = Date.now(), zone: string = UTC, caps: CapState[] = []): Entitlements {
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
    resets_at: isoInZone(w[window].end, zone),
  }));
  // Allowed again once every exhausted window has ended and every reached budget cap started again.
  const blockedUntil = Math.max(
    0,
    ...windows.filter((x) => x.remaining === 0).map((x) => Date.parse(x.resets_at)),
    ...accountWideReached(caps).map((c) => c.resetsAt),
  );
  const allowed = blockedUntil === 0;
  return {
    plan,
    unlimited: !free,
    allowed,
    retry_after_seconds: allowed ? null : Math.max(1, Math.ceil((blockedUntil - now) / 1000)),
    allowed_at: allowed ? null : isoInZone(blockedUntil, zone),
    time_zone: zone,
    windows,
    caps: caps.map((c) => capEntitlement(c, zone)),
  };
}
