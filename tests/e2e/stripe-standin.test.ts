// The Stripe stand-in (tools/stripe-standin), driven with the real `stripe` SDK: the objects it
// answers, the hosted checkout and portal pages, signed webhooks in order, and the control endpoints.
// Needs no built site: it starts the stand-in and a small webhook receiver on free ports.
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
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

before(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/stripe`;
  standin = await startStripeStandin({ port: 0, webhookUrl: hookUrl, webhookSecret: SECRET });
  base = standin.url;
  stripe = new Stripe("sk_test_x", { host: "localhost", port: standin.port, protocol: "http", httpClient: Stripe.createFetchHttpClient() });
});

after(async () => {
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
const isStripeError = (type: typeof Stripe.errors.StripeError, statusCode: number) => (err: unknown) => {
  assert.ok(err instanceof type, `expected ${type.name}, got ${String(err)}`);
  assert.equal((err as InstanceType<typeof Stripe.errors.StripeError>).statusCode, statusCode);
  return true;
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
  assert.deepEqual(await health.json(), { ok: true });

  const noKey = await fetch(`${base}/v1/customers/cus_x`);
  assert.equal(noKey.status, 401);
  assert.deepEqual(await noKey.json(), { error: { type: "invalid_request_error", message: "Invalid API Key provided" } });

  await assert.rejects(stripe.customers.retrieve("cus_missing"), (err: any) => {
    isStripeError(Stripe.errors.StripeInvalidRequestError, 404)(err);
    assert.equal(err.code, "resource_missing");
    assert.equal(err.message, "No such customer: 'cus_missing'");
    return true;
  });
  await assert.rejects(stripe.subscriptions.retrieve("sub_missing"), isStripeError(Stripe.errors.StripeInvalidRequestError, 404));
  await assert.rejects(stripe.events.retrieve("evt_missing"), isStripeError(Stripe.errors.StripeInvalidRequestError, 404));

  const customer = await stripe.customers.create({ email: "x@example.com" });
  await assert.rejects(
    stripe.checkout.sessions.create({ mode: "subscription", customer: customer.id, success_url: "http://a", cancel_url: "http://b" }),
    (err: any) => err.statusCode === 400 && err.message === "Missing required param: line_items.",
  );
  await assert.rejects(
    stripe.checkout.sessions.create({ mode: "subscription", customer: customer.id, line_items: [{ price: "price_nope", quantity: 1 }], success_url: "http://a", cancel_url: "http://b" }),
    (err: any) => err.statusCode === 400 && err.message === "No such price: 'price_nope'",
  );

  // Malformed input is answered, never fatal.
  const auth = { Authorization: "Bearer sk_test_x", "Content-Type": "application/x-www-form-urlencoded" };
  for (const body of ["a[__proto__][x]=1", "email=1&email[x]=2", "metadata[a][b]=c", "email=a@b.c&expand[0]=nope"]) {
    const response = await fetch(`${base}/v1/customers`, { method: "POST", headers: auth, body });
    assert.equal(response.status, 400, body);
    assert.equal((await response.json()).error.type, "invalid_request_error");
  }
  const bad = await fetch(`${base}/__control/emit`, { method: "POST", body: "{not json" });
  assert.equal(bad.status, 400);
  assert.equal((await fetch(`${base}/v1/nothing`, { headers: auth })).status, 404);

  const price = await stripe.prices.retrieve("price_modelify_pro");
  assert.equal(price.unit_amount, 499);
  assert.equal(price.recurring?.interval, "month");
});

test("checkout with a trial: page, declined card, payment, webhooks, objects", async () => {
  const customer = await stripe.customers.create({ email: "ada@example.com", name: "Ada", metadata: { user_id: "user_1" } });
  assert.match(customer.id, /^cus_[A-Za-z0-9]{24}$/);
  const fetched = await stripe.customers.retrieve(customer.id);
  assert.equal(fetched.deleted, undefined);
  assert.equal((fetched as Stripe.Customer).email, "ada@example.com");
  assert.deepEqual((fetched as Stripe.Customer).metadata, { user_id: "user_1" });

  const session = await checkout(customer.id, 7);
  assert.match(session.id, /^cs_test_[A-Za-z0-9]{24}$/);
  assert.equal(session.status, "open");
  assert.equal(session.payment_status, "unpaid");
  assert.equal(session.url, `${base}/checkout/${session.id}`);
  assert.equal(session.amount_total, 499);
  assert.equal(session.subscription, null);
  assert.ok(session.expires_at > Date.now() / 1000 + 80_000);
  assert.equal((await stripe.checkout.sessions.retrieve(session.id)).client_reference_id, "user_1");

  const html = await (await fetch(session.url!)).text();
  for (const text of ["Modelify Pro", "$4.99 / month", "7 days free, then $4.99 per month", "ada@example.com", "Card number", "Expiry (MM/YY)", "CVC", "Name on card", "Start trial", "Test card: 4242 4242 4242 4242, any future date, any CVC", 'href="http://app.test/billing"']) {
    assert.ok(html.includes(text), `checkout page shows ${text}`);
  }

  const declined = await pay(session.url!, { cardNumber: "4000 0000 0000 0002" });
  assert.equal(declined.status, 402);
  assert.ok((await declined.text()).includes("Your card was declined."));
  const invalid = await pay(session.url!, { cardNumber: "1234 5678 9012 3456" });
  assert.equal(invalid.status, 400);
  assert.ok((await invalid.text()).includes("Your card number is invalid."));
  const expired = await pay(session.url!, { cardNumber: "4242 4242 4242 4242", expiry: "01/20" });
  assert.equal(expired.status, 400);
  assert.equal(received.length, 0, "no webhooks for failed payments");
  assert.equal((await stripe.subscriptions.list({ customer: customer.id, status: "all" })).data.length, 0);
  assert.equal((await stripe.checkout.sessions.retrieve(session.id)).status, "open");

  const paid = await pay(session.url!, { cardNumber: "4242 4242 4242 4242" });
  assert.equal(paid.status, 303);
  assert.equal(paid.headers.get("location"), `http://app.test/billing/success?session_id=${session.id}`);

  // Webhooks were delivered (and verified) before the redirect was answered.
  const events = verified(received.splice(0));
  assert.deepEqual(events.map((e) => e.type), ["checkout.session.completed", "customer.subscription.created", "invoice.paid"]);
  for (const e of events) {
    assert.equal(e.api_version, "2026-10-28.endive");
    assert.equal(e.livemode, false);
  }
  const completed = events[0].data.object as Stripe.Checkout.Session;
  assert.equal(completed.status, "complete");
  assert.equal(completed.payment_status, "no_payment_required");

  const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ["subscription"] });
  const sub = done.subscription as Stripe.Subscription;
  assert.equal(sub.object, "subscription");
  assert.equal(completed.subscription, sub.id);
  assert.deepEqual(sub.metadata, { user_id: "user_1" });

  const retrieved = await stripe.subscriptions.retrieve(sub.id, { expand: ["default_payment_method", "latest_invoice"] });
  assert.equal(retrieved.status, "trialing");
  assert.ok(retrieved.trial_end! - retrieved.trial_start! === 7 * 86400);
  assert.equal(retrieved.items.data[0].current_period_end, retrieved.trial_end);
  assert.equal(retrieved.items.data[0].price.id, "price_modelify_pro");
  assert.equal("current_period_end" in retrieved, false);
  const pm = retrieved.default_payment_method as Stripe.PaymentMethod;
  assert.equal(pm.card?.last4, "4242");
  assert.equal(pm.card?.exp_year, 2034);
  assert.equal((retrieved.latest_invoice as Stripe.Invoice).total, 0);

  const withPm = (await stripe.customers.retrieve(customer.id, { expand: ["invoice_settings.default_payment_method"] })) as Stripe.Customer;
  assert.equal((withPm.invoice_settings.default_payment_method as Stripe.PaymentMethod).id, pm.id);
  assert.equal((await stripe.customers.listPaymentMethods(customer.id, { type: "card" })).data[0].id, pm.id);
  assert.equal((await stripe.paymentMethods.retrieve(pm.id)).customer, customer.id);

  const invoices = await stripe.invoices.list({ customer: customer.id, limit: 5 });
  assert.equal(invoices.object, "list");
  assert.equal(invoices.data.length, 1);
  const invoice = invoices.data[0];
  assert.equal(invoice.status, "paid");
  assert.equal(invoice.number, "MDLFY-0001");
  assert.equal(invoice.parent?.subscription_details?.subscription, sub.id);
  assert.equal((await stripe.invoices.list({ subscription: sub.id })).data.length, 1);
  assert.equal((await stripe.invoices.retrieve(invoice.id!)).id, invoice.id);
  assert.ok((await (await fetch(invoice.hosted_invoice_url!)).text()).includes("MDLFY-0001"));
  const pdf = await fetch(invoice.invoice_pdf!);
  assert.equal(pdf.headers.get("content-type"), "application/pdf");
  assert.ok((await pdf.text()).startsWith("%PDF-"));

  const event = await stripe.events.retrieve(events[1].id);
  assert.equal(event.type, "customer.subscription.created");
  const listed = await stripe.events.list({ type: "invoice.paid", limit: 1 });
  assert.equal(listed.data[0].id, events[2].id);

  // The session can no longer be paid.
  const again = await fetch(session.url!);
  assert.equal(again.status, 410);
  assert.ok((await again.text()).includes("This checkout session is no longer available."));
});

test("subscribe without trial, portal, update and cancel", async () => {
  const customer = await stripe.customers.create({ email: "bob@example.com" });
  const session = await checkout(customer.id);
  const html = await (await fetch(session.url!)).text();
  assert.ok(html.includes(">Subscribe</button>") && !html.includes("days free"));
  assert.equal((await pay(session.url!, { cardNumber: "4242424242424242" })).status, 303);
  received.splice(0);

  const [sub] = (await stripe.subscriptions.list({ customer: customer.id })).data;
  assert.equal(sub.status, "active");
  assert.equal(sub.trial_end, null);
  assert.ok(Math.abs(sub.items.data[0].current_period_end - (sub.created + 30 * 86400)) <= 1);
  const [invoice] = (await stripe.invoices.list({ customer: customer.id })).data;
  assert.equal(invoice.total, 499);
  assert.equal(invoice.amount_paid, 499);
  assert.equal((await stripe.checkout.sessions.retrieve(session.id)).payment_status, "paid");

  // Customer portal: cancel, then renew through the page.
  const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: "http://app.test/billing" });
  assert.equal(portal.url, `${base}/portal/${portal.id}`);
  let portalHtml = await (await fetch(portal.url)).text();
  for (const text of ["Modelify Pro", "Renews on", "Visa •••• 4242", "Cancel plan", "Return to Modelify", 'href="http://app.test/billing"']) {
    assert.ok(portalHtml.includes(text), `portal shows ${text}`);
  }
  const cancel = await fetch(`${portal.url}/cancel`, { method: "POST", redirect: "manual", body: new URLSearchParams({ subscription: sub.id }) });
  assert.equal(cancel.status, 303);
  assert.equal(cancel.headers.get("location"), `/portal/${portal.id}`);
  assert.equal((await stripe.subscriptions.retrieve(sub.id)).cancel_at_period_end, true);
  portalHtml = await (await fetch(portal.url)).text();
  assert.ok(portalHtml.includes("Cancels on") && portalHtml.includes("Renew plan"));
  await fetch(`${portal.url}/renew`, { method: "POST", redirect: "manual" });
  assert.equal((await stripe.subscriptions.retrieve(sub.id)).cancel_at_period_end, false);
  assert.deepEqual(verified(received.splice(0)).map((e) => e.type), ["customer.subscription.updated", "customer.subscription.updated"]);
  await assert.rejects(stripe.billingPortal.sessions.create({ customer: "cus_nope" }), (err: any) => err.statusCode === 400);

  // API update: cancel at period end, then undo; metadata merges.
  const scheduled = await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true, metadata: { plan: "pro" } });
  assert.equal(scheduled.cancel_at_period_end, true);
  assert.equal(scheduled.cancel_at, sub.items.data[0].current_period_end);
  assert.ok(scheduled.canceled_at);
  assert.deepEqual(scheduled.metadata, { user_id: "user_1", plan: "pro" });
  const [updated] = verified(received.splice(0));
  assert.equal(updated.type, "customer.subscription.updated");
  assert.equal((updated.data.previous_attributes as any).cancel_at_period_end, false);
  const resumed = await stripe.subscriptions.update(sub.id, { cancel_at_period_end: false });
  assert.equal(resumed.cancel_at, null);
  assert.equal(resumed.canceled_at, null);
  received.splice(0);

  // Immediate cancel.
  const canceled = await stripe.subscriptions.cancel(sub.id);
  assert.equal(canceled.status, "canceled");
  assert.ok(canceled.ended_at && canceled.canceled_at === canceled.ended_at);
  const [deleted] = verified(received.splice(0));
  assert.equal(deleted.type, "customer.subscription.deleted");
  assert.equal((deleted.data.object as Stripe.Subscription).status, "canceled");
  assert.equal((await stripe.subscriptions.list({ customer: customer.id })).data.length, 0);
  assert.equal((await stripe.subscriptions.list({ customer: customer.id, status: "all" })).data.length, 1);
  assert.equal((await stripe.subscriptions.list({ customer: customer.id, status: "canceled" })).data.length, 1);
});

test("control endpoints", async () => {
  const customer = await stripe.customers.create({ email: "carol@example.com" });

  // fail-next: one failure, then back to normal (the SDK is told not to retry it).
  await control("fail-next", { method: "POST", path: "/v1/checkout/sessions", status: 500, message: "Something went wrong" });
  await assert.rejects(checkout(customer.id), (err: any) => {
    isStripeError(Stripe.errors.StripeAPIError, 500)(err);
    assert.equal(err.message, "Something went wrong");
    return true;
  });
  const session = await checkout(customer.id, 7);
  assert.equal(session.status, "open");

  // expire-next-session
  await control("expire-next-session");
  const stale = await checkout(customer.id, 7);
  const gone = await fetch(stale.url!);
  assert.equal(gone.status, 410);
  assert.ok((await gone.text()).includes("This checkout session is no longer available."));
  assert.equal((await stripe.checkout.sessions.retrieve(stale.id)).status, "expired");
  assert.equal((await pay(stale.url!, { cardNumber: "4242424242424242" })).status, 410);

  // resend and emit
  await pay(session.url!, { cardNumber: "4242424242424242" });
  const [completed, created] = verified(received.splice(0));
  const resend = await control("resend", { eventId: completed.id });
  assert.equal(resend.json.delivered, true);
  const [again] = verified(received.splice(0));
  assert.equal(again.id, completed.id);
  assert.equal(again.type, "checkout.session.completed");

  const subId = (created.data.object as Stripe.Subscription).id;
  const emitted = await control("emit", { type: "customer.subscription.updated", objectId: subId });
  assert.equal(emitted.status, 200);
  const [fresh] = verified(received.splice(0));
  assert.equal(fresh.id, emitted.json.id);
  assert.equal(fresh.type, "customer.subscription.updated");
  assert.equal((fresh.data.object as Stripe.Subscription).id, subId);
  assert.equal((await stripe.events.retrieve(fresh.id)).type, "customer.subscription.updated");
  assert.equal((await control("emit", { type: "x", objectId: "sub_nope" })).status, 404);
  assert.equal((await control("resend", { eventId: "evt_nope" })).status, 404);

  // A failing receiver is retried 3 times, then given up on without breaking the API call.
  receiverStatus = 500;
  receiverHits = 0;
  const updated = await stripe.subscriptions.update(subId, { metadata: { tries: "1" } });
  assert.equal(updated.metadata.tries, "1");
  assert.equal(receiverHits, 3);
  receiverStatus = 200;

  // webhook-url: null stops delivery; setWebhookUrl / the endpoint restore it.
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/stripe`;
  await control("webhook-url", { url: null });
  await stripe.subscriptions.update(subId, { metadata: { tries: "2" } });
  assert.equal(received.length, 0);
  await control("webhook-url", { url: hookUrl });
  await stripe.subscriptions.update(subId, { metadata: { tries: "3" } });
  assert.equal(verified(received.splice(0)).length, 1);
  standin.setWebhookUrl(null);
  await stripe.subscriptions.update(subId, { metadata: { tries: "4" } });
  assert.equal(received.length, 0);
  standin.setWebhookUrl(hookUrl);

  // reset forgets everything.
  assert.deepEqual((await control("reset")).json, { ok: true });
  await assert.rejects(stripe.customers.retrieve(customer.id), isStripeError(Stripe.errors.StripeInvalidRequestError, 404));
  assert.equal((await stripe.events.list()).data.length, 0);
});
