import type { StripeConfig } from "../config";
import type { Db } from "../db.server";
import { activationOf } from "../early-access/activation.server";
import { earlyAccessColumns } from "../early-access/keys.server";
import { schema } from "../db.server";
import { getSubscription } from "../subscriptions.server";
import { eq } from "drizzle-orm";
import { getStripe, isPaymentConfigured } from "./stripe.server";
import { mayStartTrial } from "./trial.server";

export type PricingState = {
  signedIn: boolean;
  paymentConfigured: boolean;
  subscribed: boolean;
  /** Subscribed or an early-access member (ADR 0012): what unlocks downloads. */
  activated: boolean;
  trialAvailable: boolean;
};

/** What the pricing section needs: who is looking, and whether checkout can run for them. */
export async function pricingState(db: Db, env: StripeConfig, userId: string | null): Promise<PricingState> {
  const paymentConfigured = isPaymentConfigured(env);
  if (!userId) return { signedIn: false, paymentConfigured, subscribed: false, activated: false, trialAvailable: true };
  const [subscription, profile, trialAvailable] = await Promise.all([
    getSubscription(db, userId),
    db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, userId), columns: earlyAccessColumns }),
    mayStartTrial({ db, stripe: getStripe(env) }, userId, "answer-locally"),
  ]);
  const activation = activationOf(subscription, profile);
  return { signedIn: true, paymentConfigured, subscribed: activation.subscription, activated: activation.activated, trialAvailable };
}
