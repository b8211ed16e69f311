import type { StripeConfig } from "../config";
import type { SessionUser } from "../auth/session.server";
import type { Db } from "../db.server";
import { activationOf } from "../early-access/activation.server";
import { subscriptionOf } from "../subscriptions.server";
import { getStripe, isPaymentConfigured } from "./stripe.server";
import { mayStartTrialGiven } from "./trial.server";

export type PricingState = {
  signedIn: boolean;
  paymentConfigured: boolean;
  subscribed: boolean;
  /** Subscribed or an early-access member (ADR 0012): what unlocks downloads. */
  activated: boolean;
  trialAvailable: boolean;
};

/**
 * What the pricing section needs: who is looking, and whether checkout can run for them. The
 * profile's fields come with the session (SessionUser.profile), so a signed-in view reads one row
 * more: the subscription.
 */
export async function pricingState(db: Db, env: StripeConfig, user: SessionUser | null): Promise<PricingState> {
  const paymentConfigured = isPaymentConfigured(env);
  if (!user) return { signedIn: false, paymentConfigured, subscribed: false, activated: false, trialAvailable: true };
  const subscription = await subscriptionOf(db, user);
  const trialAvailable = await mayStartTrialGiven({ db, stripe: getStripe(env) }, user.id, { subscription, profile: user.profile }, "answer-locally");
  const activation = activationOf(subscription, user.profile);
  return { signedIn: true, paymentConfigured, subscribed: activation.subscription, activated: activation.activated, trialAvailable };
}
