// The Stripe stand-in's quantities and proration (tools/stripe-standin/proration.mjs), driven with
// the real `stripe` SDK as the app drives it: a Team subscription bought with a quantity at
// checkout, seats changed with each proration_behavior, and the invoices and webhooks that follow.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import Stripe from "stripe";
import { startStripeStandin } from "../../tools/stripe-standin/server.mjs";

const SECRET = "whsec_test_standin_proration";
const received: Stripe.Event[] = [];
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const raw = Buffer.concat(chunks).toString("utf8");
    received.push(Stripe.webhooks.constructEvent(raw, String(req.headers["stripe-signature"]), SECRET));
    res.writeHead(200).end();
  });
});

let standin: Awaited<ReturnType<typeof startStripeStandin>>;
let stripe: Stripe;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/stripe`;
  standin = await startStripeStandin({ port: 0, webhookUrl: hookUrl, webhookSecret: SECRET });
  stripe = new Stripe("sk_test_x", { host: "localhost", port: standin.port, protocol: "http", httpClient: Stripe.createFetchHttpClient() });
});

test.afterAll(async () => {
  await standin.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

/** A paid (no trial) Team subscription of `seats` seats. */
async function teamSubscription(seats: number, trialDays?: number) {
  const customer = await stripe.customers.create({ email: "team@example.com", metadata: { team_id: "team_1" } });
  const session = await stripe.checkout.sessions.create({
    mode: "subscription",
    customer: customer.id,
    line_items: [{ price: "price_modelify_team", quantity: seats }],
    success_url: "http://app.test/ok?session_id={CHECKOUT_SESSION_ID}",
    cancel_url: "http://app.test/no",
    subscription_data: { metadata: { team_id: "team_1" }, ...(trialDays && { trial_period_days: trialDays }) },
  });
  expect(session.amount_total).toBe(499 * seats);
  const page = await (await fetch(session.url!)).text();
  expect(page).toContain("Modelify Team");
  if (seats > 1) expect(page).toContain(`Quantity: ${seats}`);
  const paid = await fetch(session.url!, {
    method: "POST",
    redirect: "manual",
    body: new URLSearchParams({ cardNumber: "4242424242424242", expiry: "12/34", cvc: "123", cardholder: "Ada" }),
  });
  expect(paid.status).toBe(303);
  const [sub] = (await stripe.subscriptions.list({ customer: customer.id })).data;
  received.splice(0);
  return { customer, sub: sub! };
}

/** Stripe's proration of a quantity change made at `at`, in cents. */
function expected(sub: Stripe.Subscription, from: number, to: number, at: number) {
  const item = sub.items.data[0]!;
  const { current_period_start: start, current_period_end: end } = item;
  return Math.round((499 * (to - from) * (end - at)) / (end - start));
}

test("checkout with a quantity: one invoice for every seat", async () => {
  const { customer, sub } = await teamSubscription(4);
  expect(sub.items.data[0]!.quantity).toBe(4);
  expect(sub.items.data[0]!.price.id).toBe("price_modelify_team");
  const [invoice] = (await stripe.invoices.list({ subscription: sub.id })).data;
  expect(invoice!.total).toBe(4 * 499);
  expect(invoice!.lines.data[0]!.description).toBe("4 × Modelify Team (at $4.99 / month)");
  expect((await stripe.invoices.createPreview({ subscription: sub.id, customer: customer.id })).total).toBe(4 * 499);
});

test("create_prorations: a pending invoice item on the upcoming invoice, and the update's webhooks", async () => {
  const { customer, sub } = await teamSubscription(3);
  const item = sub.items.data[0]!;
  const at = item.current_period_start + 10 * 86400; // a third of the 30-day period has gone
  const updated = await stripe.subscriptions.update(sub.id, {
    items: [{ id: item.id, quantity: 5 }],
    proration_behavior: "create_prorations",
    proration_date: at,
  });
  expect(updated.items.data[0]!.quantity).toBe(5);
  const amount = expected(sub, 3, 5, at);
  expect(amount).toBe(665); // 4.99 × 2 seats × 20/30 days
  expect(received.map((e) => e.type)).toEqual(["customer.subscription.updated", "invoiceitem.created"]);
  const previous = received[0]!.data.previous_attributes as { items: Stripe.ApiList<Stripe.SubscriptionItem> };
  expect(previous.items.data[0]!.quantity).toBe(3);
  received.splice(0);

  const pending = await stripe.invoiceItems.list({ customer: customer.id, pending: true });
  expect(pending.data.map((i) => [i.amount, i.proration, i.quantity, i.period.start])).toEqual([[amount, true, 2, at]]);
  const upcoming = await stripe.invoices.createPreview({ subscription: sub.id });
  expect(upcoming.lines.data.map((l) => l.amount)).toEqual([amount, 5 * 499]);
  expect(upcoming.total).toBe(amount + 5 * 499);
  // Only the checkout's invoice is billed so far.
  expect((await stripe.invoices.list({ subscription: sub.id })).data.length).toBe(1);

  // Removing seats credits the rest of the period; the same item answers through /v1/subscription_items.
  const fewer = await stripe.subscriptionItems.update(item.id, { quantity: 2, proration_behavior: "create_prorations", proration_date: at });
  expect(fewer.quantity).toBe(2);
  const credit = expected(sub, 5, 2, at);
  expect(credit).toBe(-998);
  expect((await stripe.invoices.createPreview({ subscription: sub.id })).total).toBe(amount + credit + 2 * 499);
  received.splice(0);
});

test("always_invoice bills the proration at once; none and a trial bill nothing", async () => {
  const { sub } = await teamSubscription(2);
  const item = sub.items.data[0]!;
  const at = item.current_period_start + 15 * 86400;
  await stripe.subscriptions.update(sub.id, { items: [{ id: item.id, quantity: 3 }], proration_behavior: "always_invoice", proration_date: at });
  expect(received.map((e) => e.type)).toEqual(["customer.subscription.updated", "invoiceitem.created", "invoice.created", "invoice.finalized", "invoice.paid"]);
  const paid = received.at(-1)!.data.object as Stripe.Invoice;
  expect(paid.billing_reason).toBe("subscription_update");
  expect(paid.amount_paid).toBe(expected(sub, 2, 3, at));
  expect(paid.amount_paid).toBe(250); // 4.99 × 1 seat × 15/30 days, rounded to the cent
  expect((await stripe.invoices.list({ subscription: sub.id })).data[0]!.id).toBe(paid.id);
  expect((await stripe.subscriptions.retrieve(sub.id)).latest_invoice).toBe(paid.id);
  received.splice(0);

  await stripe.subscriptions.update(sub.id, { items: [{ id: item.id, quantity: 6 }], proration_behavior: "none" });
  expect(received.map((e) => e.type)).toEqual(["customer.subscription.updated"]);
  expect((await stripe.invoices.createPreview({ subscription: sub.id })).total).toBe(6 * 499);
  received.splice(0);

  const trial = await teamSubscription(2, 7);
  expect(trial.sub.status).toBe("trialing");
  await stripe.subscriptions.update(trial.sub.id, { items: [{ id: trial.sub.items.data[0]!.id, quantity: 4 }] });
  expect(received.map((e) => e.type)).toEqual(["customer.subscription.updated"]);
  expect((await stripe.invoices.createPreview({ subscription: trial.sub.id })).total).toBe(4 * 499);
  received.splice(0);
});

test("bad quantity changes are refused in Stripe's words", async () => {
  const { sub } = await teamSubscription(1);
  const item = sub.items.data[0]!;
  const call = (params: Stripe.SubscriptionUpdateParams) =>
    stripe.subscriptions.update(sub.id, params).then(
      () => null,
      (e: InstanceType<typeof Stripe.errors.StripeError>) => [e.statusCode, e.param],
    );
  expect(await call({ items: [{ id: item.id, quantity: -1 }] })).toEqual([400, "quantity"]);
  expect(await call({ items: [{ id: "si_nope", quantity: 2 }] })).toEqual([400, "items[0][id]"]);
  expect(await call({ items: [{ id: item.id, quantity: 2 }], proration_behavior: "sometimes" as "none" })).toEqual([400, "proration_behavior"]);
  await stripe.subscriptions.cancel(sub.id);
  expect((await call({ items: [{ id: item.id, quantity: 2 }] }))?.[0]).toBe(400);
  received.splice(0);
});
