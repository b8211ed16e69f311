import type { StripeConfig } from "../config";
import type { Db } from "../db.server";
import { countsAsActive } from "../subscription-rules";
import { getSubscription } from "../subscriptions.server";
import { isPaymentConfigured } from "./stripe.server";

export type PricingState = { signedIn: boolean; paymentConfigured: boolean; subscribed: boolean; trialAvailable: boolean };

/** What the pricing section needs: who is looking, and whether checkout can run for them. */
export async function pricingState(db: Db, env: StripeConfig, userId: string | null): Promise<PricingState> {
  const paymentConfigured = isPaymentConfigured(env);
  if (!userId) return { signedIn: false, paymentConfigured, subscribed: false, trialAvailable: true };
  const subscription = await getSubscription(db, userId);
  return { signedIn: true, paymentConfigured, subscribed: countsAsActive(subscription), trialAvailable: !subscription?.trialStart };
}
