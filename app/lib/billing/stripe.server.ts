// The Stripe client. Real Stripe in production; in local development and tests the same SDK
// talks to the stand-in (tools/stripe-standin) through STRIPE_API_BASE.
import Stripe from "stripe";
import type { StripeConfig } from "../config";

export type { Stripe };

const clients = new Map<string, Stripe>();

export function getStripe(env: StripeConfig): Stripe | null {
  if (!env.STRIPE_SECRET_KEY) return null;
  const cacheKey = `${env.STRIPE_SECRET_KEY}|${env.STRIPE_API_BASE ?? ""}`;
  let client = clients.get(cacheKey);
  if (!client) {
    const base = env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : null;
    client = new Stripe(env.STRIPE_SECRET_KEY, {
      httpClient: Stripe.createFetchHttpClient(),
      maxNetworkRetries: 2,
      timeout: 10_000,
      ...(base
        ? { host: base.hostname, port: Number(base.port || (base.protocol === "https:" ? 443 : 80)), protocol: base.protocol === "https:" ? "https" : "http" }
        : {}),
    });
    clients.set(cacheKey, client);
  }
  return client;
}

/** Spec: configured means the publishable key has Stripe's pk_ prefix (and the server can charge). */
export function isPaymentConfigured(env: StripeConfig): boolean {
  return Boolean(env.STRIPE_PUBLISHABLE_KEY?.startsWith("pk_") && env.STRIPE_SECRET_KEY && env.STRIPE_PRICE_ID && env.STRIPE_WEBHOOK_SECRET);
}

const WEBHOOK_TOLERANCE_S = 300;

/**
 * Webhook signature check used by the webhook route (raw body, 300 s tolerance). The SDK only
 * bounds how old a signed timestamp may be; one from the future (a clock far off, or a
 * signature made to be replayed later) is refused here too.
 */
export async function verifyWebhook(env: StripeConfig, rawBody: string, signature: string, now = Date.now()): Promise<Stripe.Event> {
  const stripe = getStripe(env);
  if (!stripe || !env.STRIPE_WEBHOOK_SECRET) throw new Error("Stripe is not configured");
  const timestamp = Number(/(?:^|,)t=(\d{1,12})(?:,|$)/.exec(signature)?.[1]);
  if (Number.isFinite(timestamp) && timestamp > now / 1000 + WEBHOOK_TOLERANCE_S) throw new Error("Timestamp is in the future");
  return stripe.webhooks.constructEventAsync(rawBody, signature, env.STRIPE_WEBHOOK_SECRET, WEBHOOK_TOLERANCE_S);
}
