// One subscription, one set of answers: every tab that shows the plan, its status, the next
// billing date or the card on file reads them from here, so no two places can disagree.
import { PLAN } from "../constants";
import { PLAN_PRICE } from "./plan-comparison";
import { countsAsActive, isPaid, statusLabel, type SubscriptionLike } from "./statuses";

export type SubscriptionFacts = SubscriptionLike & { cancelAt: number | null };

export type NextBilling =
  | { kind: "none"; date: null; label: "No upcoming payment" }
  | { kind: "trial-ends"; date: number | null; label: "First charge when the trial ends" }
  | { kind: "renews"; date: number | null; label: "Renews automatically" }
  | { kind: "lifetime"; date: null; label: "No end date" }
  | { kind: "ends"; date: number; label: "Subscription ends; no further charges" };

export type Card = { last4: string; brand?: string; expires?: string };

export type SubscriptionView = {
  /** Spec: Active, Trial, the capitalised other status, or Inactive. */
  status: string;
  /** Access rule: trial or active with time left (or active without an end). */
  active: boolean;
  /** Plan from subscription: trial or active is the paid plan, anything else free. */
  paid: boolean;
  plan: { id: "premium-plan" | "free-tier"; name: string; price: string; summary: string };
  nextBilling: NextBilling;
  /** What the overview's "Card on file" and billing's "Payment Method" say. */
  card: { text: string; detail: string | null };
};

function nextBillingOf(sub: SubscriptionFacts | null | undefined, paid: boolean): NextBilling {
  if (!sub || !paid) return { kind: "none", date: null, label: "No upcoming payment" };
  if (sub.cancelAt) return { kind: "ends", date: sub.cancelAt, label: "Subscription ends; no further charges" };
  if (sub.status === "trial") return { kind: "trial-ends", date: sub.trialEnd ?? sub.currentPeriodEnd, label: "First charge when the trial ends" };
  if (sub.currentPeriodEnd === null) return { kind: "lifetime", date: null, label: "No end date" };
  return { kind: "renews", date: sub.currentPeriodEnd, label: "Renews automatically" };
}

/**
 * @param liveCard the customer's default card as Stripe reports it now, when the caller has it;
 *   otherwise the last four digits stored from the subscription's last sync.
 */
export function subscriptionView(
  sub: SubscriptionFacts | null | undefined,
  billing: { storedLast4: string | null; hasCustomer: boolean; liveCard?: Card | null },
  now = Date.now(),
): SubscriptionView {
  const paid = isPaid(sub);
  const card = billing.liveCard ?? (billing.storedLast4 ? { last4: billing.storedLast4 } : null);
  return {
    status: statusLabel(sub),
    active: countsAsActive(sub, now),
    paid,
    plan: paid
      ? { id: "premium-plan", name: `${PLAN.name} Plan`, price: `${PLAN_PRICE}/month`, summary: `${PLAN.name} - ${PLAN_PRICE}/month` }
      : { id: "free-tier", name: "Free Plan", price: "$0/month", summary: "No active subscription" },
    nextBilling: nextBillingOf(sub, paid),
    card: card
      ? { text: `${card.brand ? `${card.brand} ` : ""}•••• ${card.last4}`, detail: card.expires ? `Expires ${card.expires}` : null }
      : { text: billing.hasCustomer && paid ? "Payment method on file" : "No payment method", detail: null },
  };
}
