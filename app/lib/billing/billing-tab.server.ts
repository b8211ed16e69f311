// What the billing tab shows: the subscription view (shared with the overview) plus the
// customer's cards and invoices as Stripe reports them now.
import { eq } from "drizzle-orm";
import { schema } from "../db.server";
import type { SessionUser } from "../auth/session.server";
import { subscriptionOf } from "../subscriptions.server";
import { billingSnapshot, type BillingDeps } from "./billing.server";
import { isPaymentConfigured } from "./stripe.server";
import { subscriptionView } from "./subscription-view";
import { mayStartTrial, mayStartTrialGiven } from "./trial.server";

const BILLING_VIEWS = ["overview", "payment-methods", "invoices"] as const;
export type BillingView = (typeof BILLING_VIEWS)[number];

export function parseBillingView(value: string | null): BillingView {
  return BILLING_VIEWS.find((v) => v === value) ?? "overview";
}

function capitalise(word: string) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

export async function billingTab(deps: BillingDeps, user: SessionUser, view: BillingView, now = Date.now()) {
  const userId = user.id;
  // On a GET the session's statement read the subscription and the profile's fields: Stripe is
  // asked beside nothing else. After an action (a POST's loaders), they are read afresh.
  const rows = user.accountRows;
  const [subscription, profile, snapshot, trialAvailable] = await Promise.all([
    subscriptionOf(deps.db, user),
    rows ? user.profile : deps.db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, userId), columns: { paymentMethodLast4: true } }),
    billingSnapshot(deps, userId, { invoices: view === "invoices" }, rows ? { id: user.profile.stripeCustomerId } : undefined),
    rows
      ? mayStartTrialGiven(deps, userId, { subscription: rows.subscription, profile: user.profile }, "answer-locally")
      : mayStartTrial(deps, userId, "answer-locally"),
  ]);
  const paymentMethod = snapshot.paymentMethods.find((m) => m.isDefault) ?? snapshot.paymentMethods[0] ?? null;
  const liveCard = paymentMethod
    ? {
        last4: paymentMethod.last4,
        brand: capitalise(paymentMethod.brand),
        expires: `${String(paymentMethod.expMonth).padStart(2, "0")}/${paymentMethod.expYear}`,
      }
    : null;
  return {
    view,
    paymentConfigured: isPaymentConfigured(deps.env),
    trialAvailable,
    subscription: subscriptionView(
      subscription,
      { storedLast4: profile?.paymentMethodLast4 ?? null, hasCustomer: snapshot.customerId !== null, liveCard },
      now,
    ),
    snapshot,
  };
}

export type BillingData = Awaited<ReturnType<typeof billingTab>>;
