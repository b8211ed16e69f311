import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { handlers as worker } from "../worker";
import { BILLING_MESSAGES as B } from "~/lib/billing/messages";
import { hashSecret } from "~/lib/auth/password";
import { PLAN } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { SITE_FORMATS } from "~/lib/format";
import { Browser, createConfirmedUser, db, insertUser, queueSettled, signedInAs, STRONG_PASSWORD, uniqueEmail } from "./helpers";
import { control, deliver, eventsFor, payCheckout, processedCount, signedWebhook, STANDIN, standin, waitProcessed } from "./stripe-helpers";

async function userIdOf(email: string) {
  return (await db.query.users.findFirst({ where: eq(schema.users.email, email) }))!.id;
}

async function subscriptionOf(email: string) {
  return db.query.subscriptions.findFirst({ where: eq(schema.subscriptions.userId, await userIdOf(email)) });
}

/** Signs up, starts checkout, pays on the stand-in's page and delivers Stripe's events. */
async function subscribe(existing?: { browser: Browser; email: string }) {
  const account = existing ?? (await createConfirmedUser());
  const checkout = await account.browser.post("/billing/checkout", {});
  expect(checkout.status).toBe(302);
  const url = checkout.headers.get("Location")!;
  expect(url.startsWith(`${STANDIN}/checkout/cs_`)).toBe(true);
  const paid = await payCheckout(url);
  expect(paid.status).toBe(303);
  const success = paid.headers.get("Location")!;
  const sessionId = new URL(success).searchParams.get("session_id")!;
  const profile = await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, await userIdOf(account.email)) });
  const events = await eventsFor(profile!.stripeCustomerId!);
  for (const event of events) await deliver(event);
  for (const event of events) await waitProcessed(event.id);
  return { ...account, sessionId, customerId: profile!.stripeCustomerId!, events, successPath: `${new URL(success).pathname}${new URL(success).search}` };
}

function withEnv(overrides: Record<string, unknown>) {
  return { ...env, ...overrides } as unknown as Env;
}

async function fetchWith(envOverride: Env, path: string, browser?: Browser, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const request = new Request(`http://localhost${path}`, {
    redirect: "manual",
    ...init,
    headers: { Cookie: browser?.cookieHeader() ?? "", Origin: "http://localhost", ...(init.headers as Record<string, string>) },
  }) as unknown as Request<unknown, IncomingRequestCfProperties>;
  const response = await worker.fetch(request, envOverride, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

describe("pricing section", () => {
  it("shows the right call to action for each visitor", async () => {
    const visitor = await (await SELF.fetch("http://localhost/pricing")).text();
    expect(visitor).toContain("Sign Up to Start");
    expect(visitor).toContain('href="/auth?mode=signup&amp;from=pricing&amp;subscribe=true"');
    expect(visitor).toContain("Sign In to Subscribe");
    expect(visitor).toContain("Full Disclosure &amp; Terms");

    const { browser } = await createConfirmedUser();
    expect(await (await browser.get("/pricing")).text()).toContain("Start Free Trial");
    const modal = await (await browser.get("/pricing?checkout=open")).text();
    expect(modal).toContain("Continue to Checkout");
    expect(modal).toContain('action="/billing/checkout"');
    const terms = await (await browser.get("/pricing?terms=open")).text();
    expect(terms).toContain("I Understand");

    const notConfigured = await fetchWith(withEnv({ STRIPE_PUBLISHABLE_KEY: "not-a-key" }), "/pricing", browser);
    expect(await notConfigured.text()).toContain("Payment System Not Configured");
    const refused = await fetchWith(withEnv({ STRIPE_PUBLISHABLE_KEY: "" }), "/billing/checkout", browser, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(refused.status).toBe(503);
    expect(await refused.text()).toContain(B.notConfigured);
  });
});

describe("checkout, webhook, queue and consumer", () => {
  it("creates one customer, a trial checkout, and stores the trial Stripe reports", async () => {
    const { browser, email, sessionId, customerId } = await subscribe();
    const profile = await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, await userIdOf(email)) });
    expect(profile).toMatchObject({ stripeCustomerId: customerId, paymentMethodLast4: "4242" });

    const session = await standin<{ client_reference_id: string; success_url: string; cancel_url: string; customer: string }>(
      `/v1/checkout/sessions/${sessionId}`,
    );
    expect(session.client_reference_id).toBe(await userIdOf(email));
    expect(session.success_url).toBe("http://localhost/auth/success?session_id={CHECKOUT_SESSION_ID}");
    expect(session.cancel_url).toBe("http://localhost/pricing");

    const sub = await subscriptionOf(email);
    const stripeSub = await standin<{ trial_end: number; items: { data: Array<{ current_period_end: number; price: { id: string } }> } }>(
      `/v1/subscriptions/${sub!.stripeSubscriptionId}`,
    );
    expect(sub).toMatchObject({
      status: "trial",
      stripeCustomerId: customerId,
      stripePriceId: "price_modelify_pro",
      trialEnd: stripeSub.trial_end * 1000,
      currentPeriodEnd: stripeSub.items.data[0]!.current_period_end * 1000,
    });
    expect(sub!.trialEnd! - sub!.trialStart!).toBe(7 * 86400_000);

    const dashboard = await (await browser.get("/dashboard")).text();
    expect(dashboard).toContain("Pro - $4.99/month");
    expect(dashboard).toContain(">Trial<");
    expect(dashboard).toContain(
      new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" }).format(new Date(sub!.trialEnd!)),
    );
    expect(dashboard).toContain("•••• 4242");

    // A second checkout is refused while the subscription is active.
    const again = await browser.post("/billing/checkout", {});
    expect(again.status).toBe(409);
  });

  it("shows checkout details on /auth/success only to the session's owner", async () => {
    const { browser, successPath } = await subscribe();
    const page = await (await browser.get(successPath)).text();
    expect(page).toContain('data-testid="subscription-details"');
    expect(page).toContain("$4.99/month");
    expect(page).toContain(">Trial<");
    const other = await createConfirmedUser();
    const foreign = await (await other.browser.get(successPath)).text();
    expect(foreign).not.toContain('data-testid="subscription-details"');
    expect(foreign).toContain("belongs to another account");
    const bogus = await (await browser.get("/auth/success?session_id=cs_test_doesnotexist")).text();
    expect(bogus).toContain("does not exist");
    expect((await new Browser().get(successPath)).headers.get("Location")).toBe("/auth?mode=signin");
  });

  it("says a trial charged nothing and names its first charge on Stripe's trial end; a payment keeps the spec's words", async () => {
    const first = await subscribe();
    const stripeSub = await standin<{ id: string; trial_end: number }>(`/v1/subscriptions/${(await subscriptionOf(first.email))!.stripeSubscriptionId}`);
    const firstCharge = `${SITE_FORMATS.usd(PLAN.priceUsd)} USD on ${SITE_FORMATS.date(stripeSub.trial_end * 1000)}`;
    const trial = (await (await first.browser.get(first.successPath)).text()).replaceAll("<!-- -->", "");
    expect(trial).toContain(`Your ${PLAN.trialDays}-day free trial has started`);
    expect(trial).toContain(`Nothing was charged today. Your first charge is ${firstCharge}, when the trial ends.`);
    expect(trial).toContain(`Nothing was charged today. First charge: ${firstCharge}.`);
    expect(trial).toContain("Free trial started");
    expect(trial).not.toContain("Payment Successful!");
    const trialInvoices = (await (await first.browser.get("/dashboard/billing?view=invoices")).text()).replaceAll("<!-- -->", "");
    expect(trialInvoices).toContain(`Free trial until ${SITE_FORMATS.date(stripeSub.trial_end * 1000)}: nothing charged`);
    expect(trialInvoices).toMatch(/bg-brand-50[^"]*">Free trial</);
    expect(trialInvoices).not.toMatch(/">paid</);

    // The trial was used: a second subscription is paid at once, and says so in the spec's words.
    await standin(`/v1/subscriptions/${stripeSub.id}`, { method: "DELETE" });
    for (const e of await eventsFor(first.customerId)) await deliver(e);
    await queueSettled();
    const paid = await subscribe({ browser: first.browser, email: first.email });
    const page = (await (await first.browser.get(paid.successPath)).text()).replaceAll("<!-- -->", "");
    expect(page).toContain("Payment Successful!");
    expect(page).not.toContain("Nothing was charged");
    expect(page).not.toContain("free trial has started");
    const invoices = (await (await first.browser.get("/dashboard/billing?view=invoices")).text()).replaceAll("<!-- -->", "");
    expect(invoices.match(/">Free trial</g)).toHaveLength(1);
    expect(invoices).toMatch(/bg-emerald-50 text-emerald-700[^"]*">paid</);
    expect(invoices).toContain(SITE_FORMATS.usd(PLAN.priceUsd));
  });

  it("applies the same event delivered 5 times once", async () => {
    const { email, events } = await subscribe();
    const before = await subscriptionOf(email);
    const created = events.find((e) => e.type === "customer.subscription.created")!;
    for (let i = 0; i < 5; i++) await deliver(created);
    await queueSettled();
    expect(await processedCount(created.id)).toBe(1);
    expect(await subscriptionOf(email)).toEqual(before);
  });

  it("ends in the state Stripe reports whatever order events arrive in", async () => {
    const { email, customerId } = await subscribe();
    const sub = await subscriptionOf(email);
    const subId = sub!.stripeSubscriptionId!;

    // updated (cancel at period end) arrives before created, then created arrives late.
    await standin(`/v1/subscriptions/${subId}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "cancel_at_period_end=true",
    });
    const all = await eventsFor(customerId);
    const updated = all.filter((e) => e.type === "customer.subscription.updated").at(-1)!;
    const created = all.find((e) => e.type === "customer.subscription.created")!;
    await deliver(updated);
    await waitProcessed(updated.id);
    await deliver(created); // already processed once: skipped
    const stripeSub = await standin<{ cancel_at: number }>(`/v1/subscriptions/${subId}`);
    expect(await subscriptionOf(email)).toMatchObject({ status: "trial", cancelAt: stripeSub.cancel_at * 1000 });

    // deleted arrives before a stale updated.
    await standin(`/v1/subscriptions/${subId}`, { method: "DELETE" });
    await control("emit", { type: "customer.subscription.updated", objectId: subId });
    const later = await eventsFor(customerId);
    const deleted = later.find((e) => e.type === "customer.subscription.deleted")!;
    const staleUpdate = later.filter((e) => e.type === "customer.subscription.updated").at(-1)!;
    await deliver(deleted);
    await waitProcessed(deleted.id);
    await deliver(staleUpdate);
    await waitProcessed(staleUpdate.id);
    const final = await subscriptionOf(email);
    expect(final).toMatchObject({ status: "canceled" });
    expect(final!.endedAt).not.toBeNull();
  });

  it("has the overview and the billing tab say the same after a cancellation at period end", async () => {
    const { email, customerId, browser } = await subscribe();
    const subId = (await subscriptionOf(email))!.stripeSubscriptionId!;
    await standin(`/v1/subscriptions/${subId}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "cancel_at_period_end=true",
    });
    const updated = (await eventsFor(customerId)).filter((e) => e.type === "customer.subscription.updated").at(-1)!;
    await deliver(updated);
    await waitProcessed(updated.id);

    const testIdText = (html: string, id: string) => {
      const match = new RegExp(`data-testid="${id}"[^>]*>([\\s\\S]*?)</(?:dd|p)>`).exec(html);
      return match
        ? match[1]!
            .replace(/<[^>]+>/g, " ")
            .replace(/\s+/g, " ")
            .trim()
        : null;
    };
    const overview = testIdText(await (await browser.get("/dashboard")).text(), "overview-next-billing");
    const billing = await (await browser.get("/dashboard/billing")).text();
    const billingDate = testIdText(billing, "next-billing");
    expect(billingDate).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    expect(billing).toContain("Subscription ends; no further charges");
    // Same date and the same "no further charges" in both places, never "Renews" on one of them.
    expect(overview).toBe(`${billingDate} Subscription ends; no further charges`);
  });

  it("gives no second trial to an account that had one", async () => {
    const first = await subscribe();
    const sub = await subscriptionOf(first.email);
    await standin(`/v1/subscriptions/${sub!.stripeSubscriptionId}`, { method: "DELETE" });
    for (const e of await eventsFor(first.customerId)) await deliver(e);
    await queueSettled();
    expect((await subscriptionOf(first.email))!.status).toBe("canceled");
    const pricing = await (await first.browser.get("/pricing?checkout=open")).text();
    // The dialog and the card say the same: no trial for this account, and the button says Subscribe.
    expect(pricing).toContain("Already used");
    expect(pricing).not.toContain('data-testid="pricing-trial-badge"');
    expect(pricing).not.toContain("Start Free Trial");
    expect(pricing).toMatch(/data-testid="pricing-terms"[^>]*>Your free trial has been used, so billing starts the day you subscribe/);
    expect(pricing).toMatch(/>Subscribe<\/a>/);
    // The billing tab and its plan picker say the same.
    const billingTab = await (await first.browser.get("/dashboard/billing?plans=open")).text();
    expect(billingTab).not.toContain("-day free trial");
    expect(billingTab.match(/Your free trial has been used, so billing starts the day you subscribe/g)).toHaveLength(2);
    // A new account is still offered the trial.
    const fresh = await (await (await createConfirmedUser()).browser.get("/pricing")).text();
    expect(fresh).toContain("Start Free Trial");
    expect(fresh).toContain('data-testid="pricing-trial-badge"');

    const second = await subscribe({ browser: first.browser, email: first.email });
    const stripeSession = await standin<{ subscription: string }>(`/v1/checkout/sessions/${second.sessionId}`);
    const stripeSub = await standin<{ status: string; trial_end: number | null }>(`/v1/subscriptions/${stripeSession.subscription}`);
    expect(stripeSub).toMatchObject({ status: "active", trial_end: null });
    expect(second.customerId).toBe(first.customerId);
    expect(await subscriptionOf(first.email)).toMatchObject({ status: "active", trialEnd: null });
  });
});

describe("one account, one subscription", () => {
  it("hands racing checkout clicks one session, and the same one again later", async () => {
    const { browser, email } = await createConfirmedUser();
    const racing = await Promise.all(Array.from({ length: 6 }, () => browser.post("/billing/checkout", {})));
    const urls = new Set(racing.map((r) => r.headers.get("Location")));
    expect(racing.map((r) => r.status)).toEqual(Array(6).fill(302));
    expect(urls.size).toBe(1);
    const later = await browser.post("/billing/checkout", {});
    expect(later.headers.get("Location")).toBe([...urls][0]);
    const rows = await db
      .select()
      .from(schema.checkoutSessions)
      .where(eq(schema.checkoutSessions.userId, await userIdOf(email)));
    expect(rows).toHaveLength(1);
    const customer = (await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, await userIdOf(email)) }))!.stripeCustomerId!;
    const events = await eventsFor(customer);
    expect(events.filter((e) => e.type === "checkout.session.completed")).toHaveLength(0);
  });

  it("opens a new session once the previous one was paid and its subscription ended", async () => {
    const first = await subscribe();
    const sub = await subscriptionOf(first.email);
    await standin(`/v1/subscriptions/${sub!.stripeSubscriptionId}`, { method: "DELETE" });
    for (const e of await eventsFor(first.customerId)) await deliver(e);
    await queueSettled();
    const again = await first.browser.post("/billing/checkout", {});
    expect(again.status).toBe(302);
    expect(again.headers.get("Location")).not.toContain(first.sessionId);
  });

  it("cancels a second live subscription paid side by side, keeps the first, and audits it", async () => {
    const { browser, email } = await createConfirmedUser();
    const opened = await browser.post("/billing/checkout", {});
    const userId = await userIdOf(email);
    const customerId = (await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, userId) }))!.stripeCustomerId!;
    // A second session opened behind our back (an old tab, a session from before the reuse rule).
    const form = new URLSearchParams({
      mode: "subscription",
      customer: customerId,
      client_reference_id: userId,
      "line_items[0][price]": "price_modelify_pro",
      "line_items[0][quantity]": "1",
      success_url: "http://localhost/auth/success?session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "http://localhost/pricing",
      "subscription_data[trial_period_days]": "7",
      "subscription_data[metadata][user_id]": userId,
    });
    const second = await standin<{ url: string }>("/v1/checkout/sessions", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    expect((await payCheckout(opened.headers.get("Location")!)).status).toBe(303);
    expect((await payCheckout(second.url)).status).toBe(303);

    const events = await eventsFor(customerId);
    // Deliver the newer subscription's events first: the order must not matter.
    for (const event of [...events].reverse()) await deliver(event);
    for (const event of events) await waitProcessed(event.id);
    const subs = await standin<{ data: Array<{ id: string; status: string; created: number }> }>(`/v1/subscriptions?customer=${customerId}&status=all`);
    const live = subs.data.filter((s) => s.status !== "canceled");
    expect(live).toHaveLength(1);
    expect(subs.data.filter((s) => s.status === "canceled")).toHaveLength(1);
    const oldest = [...subs.data].sort((a, b) => a.created - b.created || a.id.localeCompare(b.id))[0]!;
    expect(live[0]!.id).toBe(oldest.id);
    // Let the cancellation's own events through too: the stored state stays on the kept one.
    for (const event of (await eventsFor(customerId)).slice(events.length)) await deliver(event);
    await queueSettled();
    expect(await subscriptionOf(email)).toMatchObject({ status: "trial", stripeSubscriptionId: live[0]!.id });
    const audit = await db.select().from(schema.auditLog).where(eq(schema.auditLog.targetUserId, userId));
    expect(audit.filter((a) => a.action === "subscription.cancel_duplicate")).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorUserId: null, details: { kept: live[0]!.id, customer: customerId } });
  });

  it("stores a subscription under the user Stripe's fresh data names, not the event's stale hint", async () => {
    const { email, events } = await subscribe();
    const other = await createConfirmedUser();
    const otherId = await userIdOf(other.email);
    const created = events.find((e) => e.type === "customer.subscription.created")!;
    const forged = { ...created, id: `evt_hint_${Date.now()}`, data: { object: { ...created.data.object, metadata: { user_id: otherId } } } };
    await deliver(forged);
    await waitProcessed(forged.id);
    expect(await subscriptionOf(other.email)).toBeUndefined();
    expect((await subscriptionOf(email))!.stripeSubscriptionId).toBe(created.data.object.id);
    const dead = await db.select().from(schema.deadLetters);
    expect(dead.some((d) => d.body.includes(forged.id))).toBe(false);
  });
});

describe("webhook refuses what Stripe did not send", () => {
  async function totals() {
    const [processed, subs] = await Promise.all([
      db.select({ n: count() }).from(schema.processedMessages),
      db.select({ n: count() }).from(schema.subscriptions),
    ]);
    return { processed: processed[0]!.n, subs: subs[0]!.n };
  }
  const payload = JSON.stringify({
    id: "evt_forged_1",
    object: "event",
    type: "customer.subscription.updated",
    data: { object: { id: "sub_x", object: "subscription", customer: "cus_x" } },
  });

  it("bad signature, replay older than 300 s, malformed JSON, missing header: 4xx and nothing changes", async () => {
    const before = await totals();
    const wrongSecret = await signedWebhook(payload, { secret: "whsec_wrong" });
    expect(wrongSecret.status).toBe(400);
    const replay = await signedWebhook(payload, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(replay.status).toBe(400);
    const future = await signedWebhook(payload, { timestamp: Math.floor(Date.now() / 1000) + 3600 });
    expect(future.status).toBe(400);
    expect((await future.json<{ error: string }>()).error).toContain("future");
    expect((await replay.json<{ error: string }>()).error).toMatch(/verification failed/i);
    const malformed = await signedWebhook("{not json");
    expect(malformed.status).toBe(400);
    const notAnEvent = await signedWebhook(JSON.stringify({ hello: "world" }));
    expect(notAnEvent.status).toBe(400);
    const unsigned = await SELF.fetch("http://localhost/api/stripe/webhook", {
      method: "POST",
      body: payload,
      headers: { "Content-Type": "application/json" },
    });
    expect(unsigned.status).toBe(400);
    const huge = await signedWebhook(JSON.stringify({ pad: "x".repeat(300 * 1024) }));
    expect(huge.status).toBe(413);
    await queueSettled();
    expect(await totals()).toEqual(before);
  });

  it("accepts a fresh, correctly signed event", async () => {
    const ok = await signedWebhook(
      JSON.stringify({ id: "evt_unrelated_1", object: "event", type: "customer.created", data: { object: { id: "cus_unrelated", object: "customer" } } }),
    );
    expect(ok.status).toBe(200);
    await waitProcessed("evt_unrelated_1");
  });

  it("accepts events signed with both secrets while the endpoint's secret is rolled (docs/runbook.md), whichever one the Worker holds", async () => {
    const current = (env as unknown as { STRIPE_WEBHOOK_SECRET: string }).STRIPE_WEBHOOK_SECRET;
    const event = (id: string) => JSON.stringify({ id, object: "event", type: "customer.created", data: { object: { id: "cus_rolled", object: "customer" } } });
    // The Worker still holds the old secret (STRIPE_WEBHOOK_SECRET of the tests); Stripe signs with both.
    expect((await signedWebhook(event("evt_rolled_1"), { secrets: ["whsec_the_new_one_after_the_roll", current] })).status).toBe(200);
    // As after `wrangler secret put STRIPE_WEBHOOK_SECRET` of the new one: the old one signs too, until it expires.
    expect((await signedWebhook(event("evt_rolled_2"), { secrets: [current, "whsec_the_old_one_before_the_roll"] })).status).toBe(200);
    expect((await signedWebhook(event("evt_rolled_3"), { secrets: ["whsec_neither_one_a", "whsec_neither_one_b"] })).status).toBe(400);
    await waitProcessed("evt_rolled_2");
  });
});

describe("portal, invoices and billing errors", () => {
  it("opens the customer portal returning to the billing tab", async () => {
    const { browser, customerId } = await subscribe();
    const portal = await browser.post("/billing/portal", {});
    expect(portal.status).toBe(302);
    const url = portal.headers.get("Location")!;
    expect(url.startsWith(`${STANDIN}/portal/bps_`)).toBe(true);
    const page = await (await fetch(url)).text();
    expect(page).toContain("Return to Modelify");
    expect(page).toContain("http://localhost/dashboard/billing");
    expect(customerId).toMatch(/^cus_/);
  });

  it("lists Stripe invoices with status styling and links", async () => {
    const { browser } = await subscribe();
    const html = await (await browser.get("/dashboard/billing?view=invoices")).text();
    expect(html).toMatch(/MDLFY-\d{4}/);
    // The trial's invoice: 0.00 and not a payment (a paid one is styled as paid: the trial test above).
    expect(html).toMatch(/">Free trial</);
    expect(html).toContain(">PDF<");
    expect(html).toContain("Manage in Stripe");
    const overview = await (await browser.get("/dashboard/billing")).text();
    expect(overview).toContain("Visa •••• 4242");
    expect(overview).toContain("Pro Plan");
    expect(overview).toContain("First charge when the trial ends");
    const methods = await (await browser.get("/dashboard/billing?view=payment-methods")).text();
    expect(methods).toContain("Default");
  });

  it("leads nowhere dead: Manage with Stripe waits for a customer, Upgrade Plan leaves with the free plan", async () => {
    const { browser } = await createConfirmedUser();
    const free = await (await browser.get("/dashboard/billing")).text();
    // Disabled, with the reason next to it (before: a link to "No Stripe customer ID found").
    expect(free).toMatch(/<button type="button" disabled="" aria-describedby="portal-unavailable"[^>]*>Manage with Stripe<\/button>/);
    expect(free).toMatch(/id="portal-unavailable"[^>]*>Stripe&#x27;s customer portal opens once you have subscribed\./);
    expect(free).toContain("Upgrade Plan");
    // The confirmation cannot be opened by its URL either.
    expect(await (await browser.get("/dashboard/billing?confirm=portal")).text()).not.toContain('id="portal-title"');

    const paid = await subscribe();
    const html = await (await paid.browser.get("/dashboard/billing")).text();
    expect(html).toMatch(/<a[^>]*href="\/dashboard\/billing\?confirm=portal"[^>]*>Manage with Stripe<\/a>/);
    expect(html).not.toContain("portal-unavailable");
    // Premium is the only paid plan: nothing to upgrade to.
    expect(html).not.toContain("Upgrade Plan");
    expect(await (await paid.browser.get("/dashboard/billing?confirm=portal")).text()).toContain('id="portal-title"');
  });

  it("shows every billing error text of the spec", async () => {
    const { browser, id: userId } = await createConfirmedUser();
    // No Stripe customer yet.
    const noCustomer = await browser.post("/billing/portal", {});
    expect(noCustomer.status).toBe(400);
    expect(await noCustomer.text()).toContain(B.noCustomer);
    const methods = await (await browser.get("/dashboard/billing?view=payment-methods")).text();
    expect(methods).toContain("Setup Required");
    expect(methods).toContain("Complete your first purchase to activate payment management");
    const empty = await (await browser.get("/dashboard/billing?view=invoices")).text();
    expect(empty).toContain("No Invoices Yet");
    expect(empty).toContain("View Pricing");

    // Stripe fails while creating the checkout session: its message is shown as given.
    // Each rule names this account (tests share the stand-in): another test's call does not take it.
    await control("fail-next", { method: "POST", path: "/v1/checkout/sessions", matching: userId, status: 500, message: "Stripe is having a bad day" });
    const failed = await browser.post("/billing/checkout", {});
    expect(failed.status).toBe(502);
    expect(await failed.text()).toContain("Stripe is having a bad day");

    // An expired session is refused.
    await control("expire-next-session", { matching: userId });
    const expired = await browser.post("/billing/checkout", {});
    expect(await expired.text()).toContain(B.sessionExpired);

    const { browser: subscriber, customerId } = await subscribe();
    await control("fail-next", { method: "GET", path: "/v1/invoices", matching: customerId, status: 500, message: "boom" });
    const invoices = await (await subscriber.get("/dashboard/billing?view=invoices")).text();
    expect(invoices).toContain(B.invoicesFailed);
    await control("fail-next", { method: "POST", path: "/v1/billing_portal/sessions", matching: customerId, status: 500, message: "boom" });
    const portal = await subscriber.post("/billing/portal", {});
    expect(portal.status).toBe(502);
    expect(await portal.text()).toContain(B.portalFailed);
  });
});

describe("debug tools are for admins only", () => {
  it("answers 404 to an ordinary user by route and by form post", async () => {
    const { browser, email } = await createConfirmedUser();
    expect((await browser.get("/dashboard/admin")).status).toBe(404);
    const post = await browser.post("/dashboard/admin", { intent: "grant-year", email });
    expect(post.status).toBe(404);
    expect(await subscriptionOf(email)).toBeUndefined();
    expect((await new Browser().post("/dashboard/admin", { intent: "grant-year", email })).headers.get("Location")).toBe("/auth");
  });

  it("lets an admin grant a year only once confirmed, with an audit entry, and shows the local state beside Stripe's", async () => {
    const adminEmail = uniqueEmail("admin");
    const admin = await insertUser({ email: adminEmail, passwordHash: await hashSecret(STRONG_PASSWORD), metadata: {}, role: "admin", confirmed: true });
    const browser = new Browser();
    await browser.post("/auth?mode=signin", { intent: "signin", email: adminEmail, password: STRONG_PASSWORD });
    // The tools are pointed at an account on purpose: the field is never filled with the admin's address.
    const page = await (await browser.get("/dashboard/admin")).text();
    expect(page).toMatch(/<input[^>]*name="email"/);
    expect(page).not.toContain(`value="${adminEmail}"`);

    const { email } = await createConfirmedUser();
    const lookup = (await (await browser.post("/dashboard/admin", { intent: "lookup", email })).text()).replaceAll("<!-- -->", "");
    expect(lookup).toContain(`No subscription found for ${email}`);
    expect(lookup).toMatch(/data-testid="local-status"[^>]*>No subscription</);
    expect(lookup).toMatch(/data-testid="stripe-status"[^>]*>No Stripe customer</);

    // The first POST asks: it names the account and what the grant does, and changes nothing.
    const ask = await browser.post("/dashboard/admin", { intent: "grant-year", email });
    expect(ask.status).toBe(200);
    const asked = (await ask.text()).replaceAll("<!-- -->", "");
    expect(asked).toContain(`Grant one year to ${email}?`);
    expect(asked).toContain("Stripe is not changed: the account has no Stripe customer.");
    expect(asked).toMatch(/name="confirm" value="yes"/);
    expect(await subscriptionOf(email)).toBeUndefined();
    expect(await db.select().from(schema.auditLog).where(eq(schema.auditLog.actorUserId, admin!.id))).toEqual([]);

    // The second, confirmed, grants.
    const grant = await browser.post("/dashboard/admin", { intent: "grant-year", email, confirm: "yes" });
    expect(grant.status).toBe(200);
    const granted = (await grant.text()).replaceAll("<!-- -->", "");
    expect(granted).toContain(`Subscription fixed for ${email}`);
    expect(granted).toMatch(/data-testid="local-status"[^>]*>active \(granted\)</);
    expect(granted).toMatch(/data-testid="stripe-status"[^>]*>No Stripe customer</);
    const sub = await subscriptionOf(email);
    expect(sub).toMatchObject({ status: "active" });
    expect(sub!.currentPeriodEnd! - Date.now()).toBeGreaterThan(364 * 86400_000);
    const audit = await db.select().from(schema.auditLog).where(eq(schema.auditLog.actorUserId, admin!.id));
    expect(audit.map((a) => a.action)).toEqual(["subscription.grant_year"]);
    const bad = await browser.post("/dashboard/admin", { intent: "set-status", email, status: "lifetime" });
    expect(bad.status).toBe(400);
    const badConfirm = await browser.post("/dashboard/admin", { intent: "grant-year", email, confirm: "sure" });
    expect(badConfirm.status).toBe(400);
  });

  it("shows a subscriber's local grant beside Stripe's trial, read through the SDK", async () => {
    const admin = await signedInAs("admin");
    const { email } = await subscribe();
    const stripeId = (await subscriptionOf(email))!.stripeSubscriptionId!;
    const lookup = (await (await admin.browser.post("/dashboard/admin", { intent: "lookup", email })).text()).replaceAll("<!-- -->", "");
    expect(lookup).toMatch(/data-testid="local-status"[^>]*>trial</);
    expect(lookup).toMatch(/data-testid="stripe-status"[^>]*>trialing</);
    expect(lookup).toContain(stripeId);

    const asked = (await (await admin.browser.post("/dashboard/admin", { intent: "grant-year", email })).text()).replaceAll("<!-- -->", "");
    expect(asked).toContain("Stripe is not changed: its subscription stays trialing");
    const granted = (await (await admin.browser.post("/dashboard/admin", { intent: "grant-year", email, confirm: "yes" })).text()).replaceAll("<!-- -->", "");
    expect(granted).toMatch(/data-testid="local-status"[^>]*>active \(granted\)</);
    expect(granted).toMatch(/data-testid="stripe-status"[^>]*>trialing</);
    expect(granted).toContain("The two disagree.");
  });
});
