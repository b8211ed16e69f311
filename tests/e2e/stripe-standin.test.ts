// The Stripe stand-in (tools/stripe-standin), driven with the real `stripe` SDK: the objects it
// answers, the hosted checkout and portal pages, signed webhooks in order, and the control endpoints.
// Needs no built site: it starts the stand-in and a small webhook receiver on free ports.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import Stripe from "stripe";
import { startStripeStandin } from "../../tools/stripe-standin/server.mjs";

const SECRET = "whsec_test_standin_secret";

type Received = { raw: string; signature: string; event: Stripe.Event };
const received: Received[] = [];
let receiverStatus = 200;
let receiverHits = 0;
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    receiverHits++;
    if (receiverStatus === 200) {
      const raw = Buffer.concat(chunks).toString("utf8");
      received.push({ raw, signature: String(req.headers["stripe-signature"]), event: JSON.parse(raw) });
    }
    res.writeHead(receiverStatus).end();
  });
});

let standin: Awaited<ReturnType<typeof startStripeStandin>>;
let stripe: Stripe;
let base: string;

// The tests share one stand-in and the webhooks it has delivered: they run in order.
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/stripe`;
  standin = await startStripeStandin({ port: 0, webhookUrl: hookUrl, webhookSecret: SECRET });
  base = standin.url;
  stripe = new Stripe("sk_test_x", { host: "localhost", port: standin.port, protocol: "http", httpClient: Stripe.createFetchHttpClient() });
});

test.afterAll(async () => {
  await standin.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

const control = async (path: string, body: unknown = {}) => {
  const response = await fetch(`${base}/__control/${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, json: await response.json() };
};
const pay = (url: string, card: Record<string, string>) =>
  fetch(url, { method: "POST", redirect: "manual", body: new URLSearchParams({ expiry: "12/34", cvc: "123", cardholder: "Ada Lovelace", ...card }) });
/** Verifies every received payload with the SDK, as the app's webhook route does, and returns the events. */
const verified = (items: Received[]) => items.map((r) => stripe.webhooks.constructEvent(r.raw, r.signature, SECRET));
/** The error a call fails with; a call that succeeds fails the test. */
async function stripeError(call: Promise<unknown>): Promise<InstanceType<typeof Stripe.errors.StripeError>> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, "the call should have failed").toBeInstanceOf(Stripe.errors.StripeError);
  return err as InstanceType<typeof Stripe.errors.StripeError>;
}
const expectStripeError = async (call: Promise<unknown>, type: typeof Stripe.errors.StripeError, statusCode: number) => {
  const err = await stripeError(call);
  expect(err).toBeInstanceOf(type);
  expect(err.statusCode).toBe(statusCode);
  return err;
};

async function checkout(customer: string, trialDays?: number) {
  return stripe.checkout.sessions.create({
    mode: "subscription",
    customer,
    client_reference_id: "user_1",
    line_items: [{ price: "price_modelify_pro", quantity: 1 }],
    success_url: "http://app.test/billing/success?session_id={CHECKOUT_SESSION_ID}",
    cancel_url: "http://app.test/billing",
    metadata: { user_id: "user_1" },
    subscription_data: { ...(trialDays && { trial_period_days: trialDays }), metadata: { user_id: "user_1" } },
  });
}

test("auth, health and error shapes", async () => {
  const health = await fetch(`${base}/__control/health`);
  expect(await health.json()).toEqual({ ok: true });

  const noKey = await fetch(`${base}/v1/customers/cus_x`);
  expect(noKey.status).toBe(401);
  expect(await noKey.json()).toEqual({ error: { type: "invalid_request_error", message: "Invalid API Key provided" } });

  const missing = await expectStripeError(stripe.customers.retrieve("cus_missing"), Stripe.errors.StripeInvalidRequestError, 404);
  expect(missing.code).toBe("resource_missing");
  expect(missing.message).toBe("No such customer: 'cus_missing'");
  await expectStripeError(stripe.subscriptions.retrieve("sub_missing"), Stripe.errors.StripeInvalidRequestError, 404);
  await expectStripeError(stripe.events.retrieve("evt_missing"), Stripe.errors.StripeInvalidRequestError, 404);

  const customer = await stripe.customers.create({ email: "x@example.com" });
  const noLines = await stripeError(
    stripe.checkout.sessions.create({ mode: "subscription", customer: customer.id, success_url: "http://a", cancel_url: "http://b" }),
  );
  expect([noLines.statusCode, noLines.message]).toEqual([400, "Missing required param: line_items."]);
  const noPrice = await stripeError(
    stripe.checkout.sessions.create({
      mode: "subscription",
      customer: customer.id,
      line_items: [{ price: "price_nope", quantity: 1 }],
      success_url: "http://a",
      cancel_url: "http://b",
    }),
  );
  expect([noPrice.statusCode, noPrice.message]).toEqual([400, "No such price: 'price_nope'"]);

  // Malformed input is answered, never fatal.
  const auth = { Authorization: "Bearer sk_test_x", "Content-Type": "application/x-www-form-urlencoded" };
  for (const body of ["a[__proto__][x]=1", "email=1&email[x]=2", "metadata[a][b]=c", "email=a@b.c&expand[0]=nope"]) {
    const response = await fetch(`${base}/v1/customers`, { method: "POST", headers: auth, body });
    expect(response.status, body).toBe(400);
    expect((await response.json()).error.type).toBe("invalid_request_error");
  }
  const bad = await fetch(`${base}/__control/emit`, { method: "POST", body: "{not json" });
  expect(bad.status).toBe(400);
  expect((await fetch(`${base}/v1/nothing`, { headers: auth })).status).toBe(404);

  const price = await stripe.prices.retrieve("price_modelify_pro");
  expect(price.unit_amount).toBe(499);
  expect(price.recurring?.interval).toBe("month");
});

test("checkout with a trial: page, declined card, payment, webhooks, objects", async () => {
  const customer = await stripe.customers.create({ email: "ada@example.com", name: "Ada", metadata: { user_id: "user_1" } });
  expect(customer.id).toMatch(/^cus_[A-Za-z0-9]{24}$/);
  const fetched = await stripe.customers.retrieve(customer.id);
  expect(fetched.deleted).toBe(undefined);
  expect((fetched as Stripe.Customer).email).toBe("ada@example.com");
  expect((fetched as Stripe.Customer).metadata).toEqual({ user_id: "user_1" });

  const session = await checkout(customer.id, 7);
  expect(session.id).toMatch(/^cs_test_[A-Za-z0-9]{24}$/);
  expect(session.status).toBe("open");
  expect(session.payment_status).toBe("unpaid");
  expect(session.url).toBe(`${base}/checkout/${session.id}`);
  expect(session.amount_total).toBe(499);
  expect(session.subscription).toBe(null);
  expect(session.expires_at).toBeGreaterThan(Date.now() / 1000 + 80_000);
  expect((await stripe.checkout.sessions.retrieve(session.id)).client_reference_id).toBe("user_1");

  const html = await (await fetch(session.url!)).text();
  for (const text of [
    "Modelify Pro",
    "$4.99 / month",
    "7 days free, then $4.99 per month",
    "ada@example.com",
    "Card number",
    "Expiry (MM/YY)",
    "CVC",
    "Name on card",
    "Start trial",
    "Test card: 4242 4242 4242 4242, any future date, any CVC",
    'href="http://app.test/billing"',
  ]) {
    expect(html, `checkout page shows ${text}`).toContain(text);
  }

  const declined = await pay(session.url!, { cardNumber: "4000 0000 0000 0002" });
  expect(declined.status).toBe(402);
  expect(await declined.text()).toContain("Your card was declined.");
  const invalid = await pay(session.url!, { cardNumber: "1234 5678 9012 3456" });
  expect(invalid.status).toBe(400);
  expect(await invalid.text()).toContain("Your card number is invalid.");
  const expired = await pay(session.url!, { cardNumber: "4242 4242 4242 4242", expiry: "01/20" });
  expect(expired.status).toBe(400);
  expect(received.length, "no webhooks for failed payments").toBe(0);
  expect((await stripe.subscriptions.list({ customer: customer.id, status: "all" })).data.length).toBe(0);
  expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe("open");

  const paid = await pay(session.url!, { cardNumber: "4242 4242 4242 4242" });
  expect(paid.status).toBe(303);
  expect(paid.headers.get("location")).toBe(`http://app.test/billing/success?session_id=${session.id}`);

  // Webhooks were delivered (and verified) before the redirect was answered.
  const events = verified(received.splice(0));
  expect(events.map((e) => e.type)).toEqual(["checkout.session.completed", "customer.subscription.created", "invoice.paid"]);
  for (const e of events) {
    expect(e.api_version).toBe("2026-10-28.endive");
    expect(e.livemode).toBe(false);
  }
  const completed = events[0].data.object as Stripe.Checkout.Session;
  expect(completed.status).toBe("complete");
  expect(completed.payment_status).toBe("no_payment_required");

  const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ["subscription"] });
  const sub = done.subscription as Stripe.Subscription;
  expect(sub.object).toBe("subscription");
  expect(completed.subscription).toBe(sub.id);
  expect(sub.metadata).toEqual({ user_id: "user_1" });

  const retrieved = await stripe.subscriptions.retrieve(sub.id, { expand: ["default_payment_method", "latest_invoice"] });
  expect(retrieved.status).toBe("trialing");
  expect(retrieved.trial_end! - retrieved.trial_start!).toBe(7 * 86400);
  expect(retrieved.items.data[0].current_period_end).toBe(retrieved.trial_end);
  expect(retrieved.items.data[0].price.id).toBe("price_modelify_pro");
  expect("current_period_end" in retrieved).toBe(false);
  const pm = retrieved.default_payment_method as Stripe.PaymentMethod;
  expect(pm.card?.last4).toBe("4242");
  expect(pm.card?.exp_year).toBe(2034);
  expect((retrieved.latest_invoice as Stripe.Invoice).total).toBe(0);

  const withPm = (await stripe.customers.retrieve(customer.id, { expand: ["invoice_settings.default_payment_method"] })) as Stripe.Customer;
  expect((withPm.invoice_settings.default_payment_method as Stripe.PaymentMethod).id).toBe(pm.id);
  expect((await stripe.customers.listPaymentMethods(customer.id, { type: "card" })).data[0].id).toBe(pm.id);
  expect((await stripe.paymentMethods.retrieve(pm.id)).customer).toBe(customer.id);

  const invoices = await stripe.invoices.list({ customer: customer.id, limit: 5 });
  expect(invoices.object).toBe("list");
  expect(invoices.data.length).toBe(1);
  const invoice = invoices.data[0];
  expect(invoice.status).toBe("paid");
  expect(invoice.number).toBe("MDLFY-0001");
  expect(invoice.parent?.subscription_details?.subscription).toBe(sub.id);
  expect((await stripe.invoices.list({ subscription: sub.id })).data.length).toBe(1);
  expect((await stripe.invoices.retrieve(invoice.id!)).id).toBe(invoice.id);
  expect((await (await fetch(invoice.hosted_invoice_url!)).text()).includes("MDLFY-0001")).toBeTruthy();
  const pdf = await fetch(invoice.invoice_pdf!);
  expect(pdf.headers.get("content-type")).toBe("application/pdf");
  expect((await pdf.text()).startsWith("%PDF-")).toBeTruthy();

  const event = await stripe.events.retrieve(events[1].id);
  expect(event.type).toBe("customer.subscription.created");
  const listed = await stripe.events.list({ type: "invoice.paid", limit: 1 });
  expect(listed.data[0].id).toBe(events[2].id);

  // The session can no longer be paid.
  const again = await fetch(session.url!);
  expect(again.status).toBe(410);
  expect(await again.text()).toContain("This checkout session is no longer available.");
});

test("subscribe without trial, portal, update and cancel", async () => {
  const customer = await stripe.customers.create({ email: "bob@example.com" });
  const session = await checkout(customer.id);
  const html = await (await fetch(session.url!)).text();
  expect(html.includes(">Subscribe</button>") && !html.includes("days free")).toBeTruthy();
  expect((await pay(session.url!, { cardNumber: "4242424242424242" })).status).toBe(303);
  received.splice(0);

  const [sub] = (await stripe.subscriptions.list({ customer: customer.id })).data;
  expect(sub.status).toBe("active");
  expect(sub.trial_end).toBe(null);
  expect(Math.abs(sub.items.data[0].current_period_end - (sub.created + 30 * 86400))).toBeLessThanOrEqual(1);
  const [invoice] = (await stripe.invoices.list({ customer: customer.id })).data;
  expect(invoice.total).toBe(499);
  expect(invoice.amount_paid).toBe(499);
  expect((await stripe.checkout.sessions.retrieve(session.id)).payment_status).toBe("paid");

  // Customer portal: cancel, then renew through the page.
  const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: "http://app.test/billing" });
  expect(portal.url).toBe(`${base}/portal/${portal.id}`);
  let portalHtml = await (await fetch(portal.url)).text();
  for (const text of ["Modelify Pro", "Renews on", "Visa •••• 4242", "Cancel plan", "Return to Modelify", 'href="http://app.test/billing"']) {
    expect(portalHtml, `portal shows ${text}`).toContain(text);
  }
  const cancel = await fetch(`${portal.url}/cancel`, { method: "POST", redirect: "manual", body: new URLSearchParams({ subscription: sub.id }) });
  expect(cancel.status).toBe(303);
  expect(cancel.headers.get("location")).toBe(`/portal/${portal.id}`);
  expect((await stripe.subscriptions.retrieve(sub.id)).cancel_at_period_end).toBe(true);
  portalHtml = await (await fetch(portal.url)).text();
  expect(portalHtml.includes("Cancels on") && portalHtml.includes("Renew plan")).toBeTruthy();
  await fetch(`${portal.url}/renew`, { method: "POST", redirect: "manual" });
  expect((await stripe.subscriptions.retrieve(sub.id)).cancel_at_period_end).toBe(false);
  expect(verified(received.splice(0)).map((e) => e.type)).toEqual(["customer.subscription.updated", "customer.subscription.updated"]);
  expect((await stripeError(stripe.billingPortal.sessions.create({ customer: "cus_nope" }))).statusCode).toBe(400);

  // API update: cancel at period end, then undo; metadata merges.
  const scheduled = await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true, metadata: { plan: "pro" } });
  expect(scheduled.cancel_at_period_end).toBe(true);
  expect(scheduled.cancel_at).toBe(sub.items.data[0].current_period_end);
  expect(scheduled.canceled_at).toBeGreaterThan(0);
  expect(scheduled.metadata).toEqual({ user_id: "user_1", plan: "pro" });
  const [updated] = verified(received.splice(0));
  expect(updated.type).toBe("customer.subscription.updated");
  expect((updated.data.previous_attributes as { cancel_at_period_end?: boolean }).cancel_at_period_end).toBe(false);
  const resumed = await stripe.subscriptions.update(sub.id, { cancel_at_period_end: false });
  expect(resumed.cancel_at).toBe(null);
  expect(resumed.canceled_at).toBe(null);
  received.splice(0);

  // Immediate cancel.
  const canceled = await stripe.subscriptions.cancel(sub.id);
  expect(canceled.status).toBe("canceled");
  expect(canceled.ended_at && canceled.canceled_at === canceled.ended_at).toBeTruthy();
  const [deleted] = verified(received.splice(0));
  expect(deleted.type).toBe("customer.subscription.deleted");
  expect((deleted.data.object as Stripe.Subscription).status).toBe("canceled");
  expect((await stripe.subscriptions.list({ customer: customer.id })).data.length).toBe(0);
  expect((await stripe.subscriptions.list({ customer: customer.id, status: "all" })).data.length).toBe(1);
  expect((await stripe.subscriptions.list({ customer: customer.id, status: "canceled" })).data.length).toBe(1);
});

test("control endpoints", async () => {
  const customer = await stripe.customers.create({ email: "carol@example.com" });

  // fail-next: one failure, then back to normal (the SDK is told not to retry it).
  await control("fail-next", { method: "POST", path: "/v1/checkout/sessions", status: 500, message: "Something went wrong" });
  const failed = await expectStripeError(checkout(customer.id), Stripe.errors.StripeAPIError, 500);
  expect(failed.message).toBe("Something went wrong");
  const session = await checkout(customer.id, 7);
  expect(session.status).toBe("open");
  // A rule that names another customer is not taken by this one's call, and is by that customer's.
  const other = await stripe.customers.create({ email: "dave@example.com" });
  await control("fail-next", { method: "POST", path: "/v1/checkout/sessions", matching: other.id, status: 500, message: "Only Dave's" });
  expect((await checkout(customer.id, 7)).status).toBe("open");
  expect((await expectStripeError(checkout(other.id), Stripe.errors.StripeAPIError, 500)).message).toBe("Only Dave's");

  // expire-next-session
  await control("expire-next-session");
  const stale = await checkout(customer.id, 7);
  const gone = await fetch(stale.url!);
  expect(gone.status).toBe(410);
  expect(await gone.text()).toContain("This checkout session is no longer available.");
  expect((await stripe.checkout.sessions.retrieve(stale.id)).status).toBe("expired");
  expect((await pay(stale.url!, { cardNumber: "4242424242424242" })).status).toBe(410);

  // resend and emit
  await pay(session.url!, { cardNumber: "4242424242424242" });
  const [completed, created] = verified(received.splice(0));
  const resend = await control("resend", { eventId: completed.id });
  expect(resend.json.delivered).toBe(true);
  const [again] = verified(received.splice(0));
  expect(again.id).toBe(completed.id);
  expect(again.type).toBe("checkout.session.completed");

  const subId = (created.data.object as Stripe.Subscription).id;
  const emitted = await control("emit", { type: "customer.subscription.updated", objectId: subId });
  expect(emitted.status).toBe(200);
  const [fresh] = verified(received.splice(0));
  expect(fresh.id).toBe(emitted.json.id);
  expect(fresh.type).toBe("customer.subscription.updated");
  expect((fresh.data.object as Stripe.Subscription).id).toBe(subId);
  expect((await stripe.events.retrieve(fresh.id)).type).toBe("customer.subscription.updated");
  expect((await control("emit", { type: "x", objectId: "sub_nope" })).status).toBe(404);
  expect((await control("resend", { eventId: "evt_nope" })).status).toBe(404);

  // A failing receiver is retried 3 times, then given up on without breaking the API call.
  receiverStatus = 500;
  receiverHits = 0;
  const updated = await stripe.subscriptions.update(subId, { metadata: { tries: "1" } });
  expect(updated.metadata.tries).toBe("1");
  expect(receiverHits).toBe(3);
  receiverStatus = 200;

  // webhook-url: null stops delivery; setWebhookUrl / the endpoint restore it.
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/stripe`;
  await control("webhook-url", { url: null });
  await stripe.subscriptions.update(subId, { metadata: { tries: "2" } });
  expect(received.length).toBe(0);
  await control("webhook-url", { url: hookUrl });
  await stripe.subscriptions.update(subId, { metadata: { tries: "3" } });
  expect(verified(received.splice(0)).length).toBe(1);
  standin.setWebhookUrl(null);
  await stripe.subscriptions.update(subId, { metadata: { tries: "4" } });
  expect(received.length).toBe(0);
  standin.setWebhookUrl(hookUrl);

  // reset forgets everything.
  expect((await control("reset")).json).toEqual({ ok: true });
  await expectStripeError(stripe.customers.retrieve(customer.id), Stripe.errors.StripeInvalidRequestError, 404);
  expect((await stripe.events.list()).data.length).toBe(0);
});
