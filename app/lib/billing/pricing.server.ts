import type { RouterContextProvider } from "react-router";
import { cloudflareContext } from "~/context";
import { getAuth } from "../auth/request.server";
import { getDb } from "../db.server";
import { parseEnv } from "../env.server";
import { countsAsActive } from "../subscription-rules";
import { getSubscription } from "../subscriptions.server";
import { isPaymentConfigured } from "./stripe.server";

export type PricingState = { signedIn: boolean; paymentConfigured: boolean; subscribed: boolean; trialAvailable: boolean };

/** What the pricing section needs: who is looking, and whether checkout can run for them. */
export async function pricingState(context: Readonly<RouterContextProvider>): Promise<PricingState> {
  const { env } = context.get(cloudflareContext);
  const paymentConfigured = isPaymentConfigured(parseEnv(env));
  const { user } = getAuth(context);
  if (!user) return { signedIn: false, paymentConfigured, subscribed: false, trialAvailable: true };
  const subscription = await getSubscription(getDb(env.DB), user.id);
  return { signedIn: true, paymentConfigured, subscribed: countsAsActive(subscription), trialAvailable: !subscription?.trialStart };
}
