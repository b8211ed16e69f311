// The marketing events and the funnel built from them (ADR 0013). Pure: names, who may
// send which, and the week arithmetic, shared by the site, the consumer and the admin page.
import { MARKETING, MS } from "../constants";

/** The spec's pixel event names, plus the three milestones a funnel needs that it does not name. */
export const MARKETING_EVENTS = [
  "ViewContent",
  "PricingView",
  "AuthStart",
  "Lead",
  "WaitlistSubmission",
  "AuthComplete",
  "CompleteRegistration",
  "EmailConfirmed",
  "StartTrial",
  "Subscribe",
] as const;
export type MarketingEventName = (typeof MARKETING_EVENTS)[number];

/**
 * What a browser may report: page views only. Everything that changes an account (a sign-up, a
 * confirmation, a trial, a payment) is recorded by the server that did it, so nobody can forge
 * a conversion by posting an event.
 */
export const BROWSER_EVENTS = ["ViewContent", "PricingView", "AuthStart"] as const satisfies readonly MarketingEventName[];
export type BrowserEventName = (typeof BROWSER_EVENTS)[number];

/** The funnel's stages, in order, and the event that counts for each. */
export const FUNNEL_STAGES = [
  { key: "visits", label: "Visits", event: "ViewContent" },
  { key: "signUps", label: "Sign-ups", event: "CompleteRegistration" },
  { key: "confirmed", label: "Confirmed", event: "EmailConfirmed" },
  // Not a marketing event: the account's first usage report, from the usage rollup (ADR 0020).
  { key: "usedApp", label: "Used the app", event: null },
  { key: "trials", label: "Trials", event: "StartTrial" },
  { key: "paid", label: "Paid", event: "Subscribe" },
] as const satisfies ReadonlyArray<{ key: string; label: string; event: MarketingEventName | null }>;
type FunnelStageKey = (typeof FUNNEL_STAGES)[number]["key"];
export type FunnelWeek = { weekStart: number } & Record<FunnelStageKey, number>;

/** A path as recorded: no query or fragment (they can carry personal data), bounded. */
export function recordablePath(value: string): string | null {
  if (!value.startsWith("/") || value.startsWith("//")) return null;
  const path = value.split(/[?#]/, 1)[0] ?? "";
  return path.length <= MARKETING.pathMax ? path : null;
}

/** Monday 00:00 UTC of the week that holds `time`. */
export function weekStart(time: number): number {
  const day = Math.floor(time / MS.DAY);
  // 1970-01-01 was a Thursday: day 0 is 3 days after a Monday.
  return (day - ((day + 3) % 7)) * MS.DAY;
}

/** The last `weeks` weeks up to and including the one that holds `now`, oldest first, all zero. */
export function emptyFunnel(now: number, weeks: number = MARKETING.funnelWeeks): FunnelWeek[] {
  const current = weekStart(now);
  const zeros = Object.fromEntries(FUNNEL_STAGES.map((s) => [s.key, 0])) as Record<FunnelStageKey, number>;
  return Array.from({ length: weeks }, (_, i) => ({ weekStart: current - (weeks - 1 - i) * 7 * MS.DAY, ...zeros }));
}

/** A stage's share of the stage before it, in whole percent; null when the earlier stage is 0. */
export function conversion(from: number, to: number): number | null {
  return from > 0 ? Math.round((to / from) * 100) : null;
}
