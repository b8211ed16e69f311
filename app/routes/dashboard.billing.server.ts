import type { SessionUser } from "~/lib/auth/session.server";
import { billingSnapshot, type BillingDeps } from "~/lib/billing/billing.server";
import { isPaymentConfigured } from "~/lib/billing/stripe.server";
import { PLAN } from "~/lib/constants";
import { countsAsActive } from "~/lib/subscription-rules";
import type { SubscriptionRow } from "~/lib/subscriptions.server";

export const BILLING_VIEWS = ["overview", "payment-methods", "invoices"] as const;
export type BillingView = (typeof BILLING_VIEWS)[number];

export function parseBillingView(value: string | null): BillingView {
  return BILLING_VIEWS.find((v) => v === value) ?? "overview";
}

export async function loadBilling(deps: BillingDeps, user: SessionUser, view: BillingView, subscriptionRead: Promise<SubscriptionRow | undefined>, now = Date.now()) {
  const [subscription, snapshot] = await Promise.all([subscriptionRead, billingSnapshot(deps, user.id, { invoices: view === "invoices" })]);
  const active = countsAsActive(subscription, now);
  const paid = subscription?.status === "active" || subscription?.status === "trial";
  // The real period end (or trial end) from Stripe, never a guess of "30 days from now".
  let nextBilling: { label: string; date: number | null };
  if (!paid) nextBilling = { label: "No upcoming payment", date: null };
  else if (subscription?.cancelAt) nextBilling = { label: "Subscription ends; no further charges", date: subscription.cancelAt };
  else if (subscription?.status === "trial") nextBilling = { label: "First charge when the trial ends", date: subscription.trialEnd ?? subscription.currentPeriodEnd };
  else nextBilling = { label: subscription?.currentPeriodEnd ? "Renews automatically" : "No end date", date: subscription?.currentPeriodEnd ?? null };
  const defaultMethod = snapshot.paymentMethods.find((m) => m.isDefault) ?? snapshot.paymentMethods[0] ?? null;
  return {
    view,
    paymentConfigured: isPaymentConfigured(deps.env),
    plan: paid ? { id: "premium-plan", name: `${PLAN.name} Plan`, price: `$${PLAN.priceUsd}/month`, status: subscription!.status === "trial" ? "Trial" : "Active" } : { id: "free-tier", name: "Free Plan", price: "$0/month", status: active ? "Active" : "Free" },
    subscribed: active,
    nextBilling,
    paymentMethod: defaultMethod,
    snapshot,
  };
}

export type BillingData = Awaited<ReturnType<typeof loadBilling>>;
