// "May this account start a trial" has one answer: the pricing card, the billing tab and checkout
// give the same one even when the stored row and Stripe disagree (issue 28).
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "~/lib/db.server";
import { handlers as worker } from "../worker";
import { type Browser, createConfirmedUser, db, queueSettled } from "./helpers";
import { measured } from "./log-lines";
import { deliver, eventsFor, payCheckout, standin, waitProcessed } from "./stripe-helpers";

async function userIdOf(email: string) {
  return (await db.query.users.findFirst({ where: eq(schema.users.email, email), columns: { id: true } }))!.id;
}

async function profileOf(userId: string) {
  return (await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, userId), columns: { stripeCustomerId: true, trialUsed: true } }))!;
}

async function deliverAll(customerId: string) {
  const events = await eventsFor(customerId);
  for (const event of events) await deliver(event);
  for (const event of events) await waitProcessed(event.id);
  await queueSettled();
}

/** What each of the three places offers this account, read from the pages a person sees. */
async function trialOffers(browser: Browser) {
  const pricing = await (await browser.get("/pricing")).text();
  const billing = await (await browser.get("/dashboard/billing")).text();
  const checkout = await browser.post("/billing/checkout", {});
  expect(checkout.status).toBe(302);
  const hosted = await (await fetch(checkout.headers.get("Location")!)).text();
  return {
    pricing: pricing.includes('data-testid="pricing-trial-badge"') && !pricing.includes("Your free trial has been used"),
    billingTab: billing.includes("-day free trial") && !billing.includes("Your free trial has been used"),
    checkout: hosted.includes("Start trial"),
  };
}

/** An account whose Stripe customer exists, as after an earlier checkout. */
async function withCustomer() {
  const account = await createConfirmedUser();
  const userId = await userIdOf(account.email);
  const customer = await standin<{ id: string }>("/v1/customers", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: account.email, "metadata[user_id]": userId }).toString(),
  });
  await db.update(schema.userProfiles).set({ stripeCustomerId: customer.id }).where(eq(schema.userProfiles.userId, userId));
  return { ...account, userId, customerId: customer.id };
}

/** The pricing page as a Worker whose Stripe cannot be reached would render it. */
async function pricingWithoutStripe(browser: Browser) {
  const ctx = createExecutionContext();
  const request = new Request("http://localhost/pricing", { headers: { Cookie: browser.cookieHeader() } });
  const response = await worker.fetch(
    request as unknown as Request<unknown, IncomingRequestCfProperties>,
    { ...env, STRIPE_API_BASE: "http://127.0.0.1:9" } as unknown as Env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response.text();
}

describe("one trial decision for pricing, the billing tab and checkout", () => {
  it("says no trial everywhere when the stored row forgot a trial that Stripe remembers, asking Stripe once", async () => {
    const { browser, email } = await createConfirmedUser();
    const userId = await userIdOf(email);
    const opened = await browser.post("/billing/checkout", {});
    expect((await payCheckout(opened.headers.get("Location")!)).status).toBe(303);
    const { stripeCustomerId } = await profileOf(userId);
    await deliverAll(stripeCustomerId!);
    const trialing = (await db.query.subscriptions.findFirst({ where: eq(schema.subscriptions.userId, userId) }))!;
    expect(trialing.status).toBe("trial");
    expect((await profileOf(userId)).trialUsed).toBe(true);
    await standin(`/v1/subscriptions/${trialing.stripeSubscriptionId}`, { method: "DELETE" });
    await deliverAll(stripeCustomerId!);

    // The row as an account stored before trial_used existed, whose trial start a later
    // subscription without a trial overwrote: locally nothing says a trial was used.
    await db.update(schema.subscriptions).set({ trialStart: null, trialEnd: null }).where(eq(schema.subscriptions.userId, userId));
    await db.update(schema.userProfiles).set({ trialUsed: null }).where(eq(schema.userProfiles.userId, userId));

    expect(await trialOffers(browser)).toEqual({ pricing: false, billingTab: false, checkout: false });
    // Stripe's answer is kept, so later views decide without Stripe: here it cannot be reached.
    expect((await profileOf(userId)).trialUsed).toBe(true);
    const offline = await pricingWithoutStripe(browser);
    expect(offline).toContain("Your free trial has been used");
    expect(offline).not.toContain('data-testid="pricing-trial-badge"');
  });

  it("says no trial everywhere when the stored row has a trial that Stripe does not list", async () => {
    const { browser, userId } = await withCustomer();
    const now = Date.now();
    await db.insert(schema.subscriptions).values({
      id: crypto.randomUUID(),
      userId,
      status: "canceled",
      trialStart: now - 30 * 86400_000,
      trialEnd: now - 23 * 86400_000,
      endedAt: now - 23 * 86400_000,
    });
    expect(await trialOffers(browser)).toEqual({ pricing: false, billingTab: false, checkout: false });
  });

  it("offers the trial everywhere when neither the row nor Stripe has seen one, and records Stripe's answer", async () => {
    const { browser, userId } = await withCustomer();
    expect((await profileOf(userId)).trialUsed).toBeNull();
    expect(await trialOffers(browser)).toEqual({ pricing: true, billingTab: true, checkout: true });
    expect((await profileOf(userId)).trialUsed).toBe(false);
  });
});

describe("the pricing card's reads", () => {
  it("come with the session: a signed-in landing or pricing page makes one statement, the session's (with the profile and the subscription)", async () => {
    const { browser } = await withCustomer();
    // The first view may ask Stripe and record its answer, and the landing page's first read the
    // builds (remembered by the isolate since); the next ones decide from the rows.
    await browser.get("/pricing");
    await browser.get("/");
    for (const path of ["/pricing", "/"]) {
      const { response: page, d1Statements } = await measured(() => browser.get(path));
      expect(page.status, path).toBe(200);
      expect(d1Statements, path).toBe(1);
    }
  });
});
