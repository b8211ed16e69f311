// Every rule read from the subscription statuses (the schema's enum, drizzle/subscription-statuses.ts).
// The admin form, the debug tab, the Stripe sync, checkout and the views all read them here, so no
// two places can spell a set differently. No server-only imports: the debug tab renders the list.
import type { SUBSCRIPTION_STATUSES } from "~drizzle/subscription-statuses";
import type { Stripe } from "./stripe.server";

type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** What an admin may set by hand (the spec's debug tab): the states a support case calls for. */
export const ADMIN_STATUSES = ["active", "trial", "past_due", "canceled", "unpaid", "incomplete"] as const satisfies readonly SubscriptionStatus[];

/**
 * Statuses of a subscription that still bills, or will once paid: an account has at most one, and
 * a late event about an ended subscription never replaces one of these.
 */
const LIVE: ReadonlySet<string> = new Set<SubscriptionStatus>(["trial", "active", "past_due", "unpaid", "incomplete", "paused"]);

export function fromStripeStatus(status: Stripe.Subscription.Status): SubscriptionStatus {
  // A status Stripe adds later is stored as Stripe spells it: neither live nor paid, so it unlocks nothing.
  return (status === "trialing" ? "trial" : status) as SubscriptionStatus;
}

export function isLive(status: string): boolean {
  return LIVE.has(status);
}

export type SubscriptionLike = {
  status: string;
  currentPeriodEnd: number | null;
  trialEnd: number | null;
};

/** Plan from subscription: trial or active is the paid plan, anything else free. */
export function isPaid(sub: Pick<SubscriptionLike, "status"> | null | undefined): boolean {
  return sub?.status === "trial" || sub?.status === "active";
}

/** Access: a paid status with time left, or active without an end (a complimentary grant). */
export function countsAsActive(sub: SubscriptionLike | null | undefined, now = Date.now()): boolean {
  if (!sub) return false;
  if (sub.status === "trial") return sub.trialEnd !== null && sub.trialEnd > now;
  if (sub.status === "active") return sub.currentPeriodEnd === null || sub.currentPeriodEnd > now;
  return false;
}

/** The overview card's label: Active, Trial, the capitalised other status, or Inactive. */
export function statusLabel(sub: Pick<SubscriptionLike, "status"> | null | undefined): string {
  if (!sub?.status) return "Inactive";
  if (sub.status === "trial") return "Trial";
  return sub.status
    .split("_")
    .map((w, i) => (i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w))
    .join(" ");
}

/**
 * What this site knows about an account's trials: the stored subscription's trial start, and what
 * Stripe said about all of the customer's subscriptions when last asked (null: never asked). The
 * stored row alone is not enough: it holds only the latest subscription, and a later one without
 * a trial overwrites the start of an earlier trial.
 */
export type TrialHistory = { trialStart: number | null; trialUsed: boolean | null };

/** Spec: one free trial (PLAN.trialDays days) per account, whichever source saw it. */
export function trialAvailable(history: TrialHistory): boolean {
  return history.trialStart === null && history.trialUsed !== true;
}

/** Stripe is asked only when it may know of a trial that the local history does not: once. */
export function trialNeedsStripe(history: TrialHistory, stripeCustomerId: string | null): boolean {
  return trialAvailable(history) && history.trialUsed === null && stripeCustomerId !== null;
}
