// Talks to the Stripe stand-in (tests/global-setup.ts) and delivers its events to our webhook
// the way Stripe would: signed with the SDK's own test-header helper.
import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { schema } from "~/lib/db.server";
import { db } from "./helpers";

const testEnv = env as unknown as { STRIPE_API_BASE: string; STRIPE_WEBHOOK_SECRET: string; STRIPE_SECRET_KEY: string };
export const STANDIN = testEnv.STRIPE_API_BASE;
const signer = new Stripe("sk_test_signer", { httpClient: Stripe.createFetchHttpClient() });

export async function standin<T = Record<string, unknown>>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${STANDIN}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${testEnv.STRIPE_SECRET_KEY}`, ...(init.headers as Record<string, string>) },
  });
  return (await response.json()) as T;
}

export async function control(path: string, body: unknown = {}) {
  const response = await fetch(`${STANDIN}/__control/${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`control ${path} answered ${response.status}`);
}

/** Fills in the stand-in's hosted checkout page, as a person would. */
export async function payCheckout(url: string, card = "4242 4242 4242 4242") {
  return fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ cardNumber: card, expiry: "12/34", cvc: "123", cardholder: "Ada Lovelace" }),
  });
}

/**
 * Delivers a payload signed with the endpoint's secret, or with `secrets`: while an endpoint's
 * secret is rolled, Stripe signs each event with the old and the new one (one v1= each).
 */
export async function signedWebhook(
  payload: string,
  {
    secret = testEnv.STRIPE_WEBHOOK_SECRET,
    secrets = [secret],
    timestamp = Math.floor(Date.now() / 1000),
  }: { secret?: string; secrets?: string[]; timestamp?: number } = {},
) {
  const headers = await Promise.all(secrets.map((s) => signer.webhooks.generateTestHeaderStringAsync({ payload, secret: s, timestamp })));
  const header = `t=${timestamp},${headers.map((h) => h.split(",").find((part) => part.startsWith("v1="))).join(",")}`;
  return SELF.fetch("http://localhost/api/stripe/webhook", {
    method: "POST",
    body: payload,
    headers: { "Content-Type": "application/json", "Stripe-Signature": header },
  });
}

type StripeEvent = { id: string; type: string; created: number; data: { object: { id: string; customer?: string } } };

/** The stand-in's events about one customer, oldest first. */
export async function eventsFor(customerId: string): Promise<StripeEvent[]> {
  const list = await standin<{ data: StripeEvent[] }>("/v1/events?limit=100");
  return list.data.filter((e) => e.data.object.customer === customerId || e.data.object.id === customerId).reverse();
}

export async function deliver(event: StripeEvent) {
  const response = await signedWebhook(JSON.stringify(event));
  if (response.status !== 200) throw new Error(`webhook answered ${response.status}: ${await response.text()}`);
}

export async function processedCount(eventId: string) {
  return (await db.select().from(schema.processedMessages).where(eq(schema.processedMessages.id, eventId))).length;
}

/** Waits until the consumer has processed the event (it arrives through the real queue). */
export async function waitProcessed(eventId: string, timeoutMs = 8000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await processedCount(eventId)) > 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`event ${eventId} was not processed within ${timeoutMs} ms`);
}
