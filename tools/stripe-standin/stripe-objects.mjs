// The shapes of the Stripe objects the stand-in answers with (API version below). Field order follows
// Stripe's own JSON so that answers and webhook payloads read like the real ones.
import { randomInt } from "node:crypto";

export const API_VERSION = "2026-10-28.endive";
export const DAY = 86400;
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

// The prices Modelify sells: the Pro plan, and the Team plan's seat (a subscription's quantity is
// its seats). The nickname is the plan's name on pages and invoice lines. Prices are fixed configuration in Stripe, so they are not part of the resettable state.
const monthly = (id, product, nickname, unitAmount) => ({
  id,
  object: "price",
  active: true,
  currency: "usd",
  nickname,
  unit_amount: unitAmount,
  recurring: { interval: "month", interval_count: 1, usage_type: "licensed" },
  product,
  type: "recurring",
  livemode: false,
});
const PRICES = {
  price_modelify_pro: monthly("price_modelify_pro", "prod_modelify_pro", "Modelify Pro", 499),
  price_modelify_team: monthly("price_modelify_team", "prod_modelify_team", "Modelify Team", 499),
};
// Object.hasOwn keeps ids such as "toString" or "__proto__" from resolving to inherited properties.
export const priceById = (id) => (typeof id === "string" && Object.hasOwn(PRICES, id) ? PRICES[id] : undefined);

export const now = () => Math.floor(Date.now() / 1000);
export const newId = (prefix) => prefix + Array.from({ length: 24 }, () => ALNUM[randomInt(ALNUM.length)]).join("");
// Answers and events carry copies, so later changes to the stored object never leak into what was already sent.
export const clone = (value) => structuredClone(value);
export const money = (cents) => `$${(cents / 100).toFixed(2)}`;

export const listObject = (url, items, limit) => ({ object: "list", data: items.slice(0, limit), has_more: items.length > limit, url });

export const customerObject = ({ email, name, description, metadata }) => ({
  id: newId("cus_"),
  object: "customer",
  email,
  name,
  description,
  metadata,
  created: now(),
  invoice_settings: { default_payment_method: null },
  livemode: false,
});

export const checkoutSessionObject = ({ id, customer, clientReferenceId, url, successUrl, cancelUrl, expiresAt, created, metadata, amount }) => ({
  id,
  object: "checkout.session",
  mode: "subscription",
  status: "open",
  payment_status: "unpaid",
  customer,
  customer_email: null,
  client_reference_id: clientReferenceId,
  subscription: null,
  url,
  success_url: successUrl,
  cancel_url: cancelUrl,
  expires_at: expiresAt,
  created,
  metadata,
  amount_subtotal: amount,
  amount_total: amount,
  currency: "usd",
  livemode: false,
});

export const paymentMethodObject = ({ customer, card, created }) => ({
  id: newId("pm_"),
  object: "payment_method",
  type: "card",
  customer: customer.id,
  billing_details: { name: card.name || null, email: customer.email },
  card: { brand: "visa", last4: card.number.slice(-4), exp_month: card.expMonth, exp_year: card.expYear, funding: "credit", country: "US" },
  created,
  livemode: false,
});

/** Since API 2025-03-31 the billing period lives on the subscription item, not on the subscription. */
export const subscriptionObject = ({ id, customer, created, trialEnd, periodEnd, paymentMethod, latestInvoice, metadata, price, quantity }) => ({
  id,
  object: "subscription",
  customer,
  status: trialEnd ? "trialing" : "active",
  created,
  start_date: created,
  billing_cycle_anchor: periodEnd,
  collection_method: "charge_automatically",
  currency: "usd",
  trial_start: trialEnd ? created : null,
  trial_end: trialEnd,
  cancel_at: null,
  cancel_at_period_end: false,
  canceled_at: null,
  ended_at: null,
  default_payment_method: paymentMethod,
  latest_invoice: latestInvoice,
  metadata,
  items: {
    object: "list",
    has_more: false,
    url: `/v1/subscription_items?subscription=${id}`,
    data: [
      {
        id: newId("si_"),
        object: "subscription_item",
        subscription: id,
        price: clone(price),
        quantity,
        created,
        current_period_start: created,
        current_period_end: periodEnd,
        metadata: {},
      },
    ],
  },
  livemode: false,
});

/**
 * A paid invoice; its hosted page and PDF are served by pages.mjs under `publicUrl`. `lines`, when
 * given, replaces the one line made of `amount`, `description` and `quantity` (a proration
 * invoice's lines are its invoice items). A negative total is a credit: nothing is due or paid.
 */
export const invoiceObject = ({
  id,
  number,
  customer,
  amount,
  created,
  periodEnd,
  description,
  quantity,
  subscription,
  publicUrl,
  billingReason = "subscription_create",
  lines,
}) => ({
  id,
  object: "invoice",
  number,
  customer: customer.id,
  customer_email: customer.email,
  status: "paid",
  amount_due: Math.max(0, amount),
  amount_paid: Math.max(0, amount),
  amount_remaining: 0,
  subtotal: amount,
  total: amount,
  currency: "usd",
  created,
  period_start: created,
  period_end: created,
  due_date: null,
  description: null,
  billing_reason: billingReason,
  hosted_invoice_url: `${publicUrl}/invoices/${id}`,
  invoice_pdf: `${publicUrl}/invoices/${id}.pdf`,
  status_transitions: { finalized_at: created, paid_at: created },
  parent: { type: "subscription_details", subscription_details: { subscription, metadata: {} } },
  lines: {
    object: "list",
    has_more: false,
    url: `/v1/invoices/${id}/lines`,
    data: lines ?? [{ id: newId("il_"), object: "line_item", amount, currency: "usd", description, quantity, period: { start: created, end: periodEnd } }],
  },
  livemode: false,
});

/**
 * A proration: the difference a quantity change makes to the rest of the period, as Stripe's
 * pending invoice item (API 2025-03-31 and later: `parent.subscription_details`, `proration`).
 */
export const invoiceItemObject = ({ customer, amount, description, quantity, price, subscription, subscriptionItem, start, end }) => ({
  id: newId("ii_"),
  object: "invoiceitem",
  amount,
  currency: "usd",
  customer,
  date: start,
  description,
  discountable: false,
  invoice: null,
  livemode: false,
  metadata: {},
  parent: { type: "subscription_details", subscription_details: { subscription, subscription_item: subscriptionItem } },
  period: { start, end },
  pricing: { type: "price_details", price_details: { price: price.id, product: price.product }, unit_amount_decimal: String(price.unit_amount) },
  proration: true,
  quantity,
});

/** An invoice item as a line of an invoice (a real invoice's or the upcoming one's). */
export const lineOfItem = (item) => ({
  id: newId("il_"),
  object: "line_item",
  amount: item.amount,
  currency: item.currency,
  description: item.description,
  quantity: item.quantity,
  period: clone(item.period),
  proration: item.proration,
  parent: { type: "invoice_item_details", invoice_item_details: { invoice_item: item.id, proration: item.proration } },
});

export const portalSessionObject = ({ id, customer, returnUrl, url }) => ({
  id,
  object: "billing_portal.session",
  customer,
  return_url: returnUrl,
  url,
  created: now(),
  livemode: false,
});

export const eventObject = (type, object, previous) => ({
  id: newId("evt_"),
  object: "event",
  api_version: API_VERSION,
  created: now(),
  type,
  livemode: false,
  pending_webhooks: 1,
  request: { id: null, idempotency_key: null },
  data: { object: clone(object), ...(previous && { previous_attributes: previous }) },
});

/** Stripe's `previous_attributes`: the old values of the fields an update changed. */
export const changedFields = (before, after) =>
  Object.fromEntries(
    Object.keys(after)
      .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
      .map((k) => [k, before[k]]),
  );
