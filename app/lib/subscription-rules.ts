// One rule decides whether a subscription counts as active.
import { PLAN } from "./constants";

export type SubscriptionLike = {
  status: string;
  currentPeriodEnd: number | null;
  trialEnd: number | null;
};

export function countsAsActive(sub: SubscriptionLike | null | undefined, now = Date.now()): boolean {
  if (!sub) return false;
  if (sub.status === "trial") return sub.trialEnd !== null && sub.trialEnd > now;
  if (sub.status === "active") return sub.currentPeriodEnd === null || sub.currentPeriodEnd > now;
  return false;
}

/** Plan from subscription: trial or active gives the paid plan, anything else free. */
export function planFor(sub: SubscriptionLike | null | undefined) {
  const paid = sub?.status === "trial" || sub?.status === "active";
  return paid ? { planName: "paid" as const, planPrice: PLAN.priceUsd } : { planName: "free" as const, planPrice: 0 };
}

/** The overview card's label: Active, Trial, the capitalised other status, or Inactive. */
export function statusLabel(sub: SubscriptionLike | null | undefined): string {
  if (!sub?.status) return "Inactive";
  if (sub.status === "trial") return "Trial";
  return sub.status
    .split("_")
    .map((w, i) => (i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w))
    .join(" ");
}
