// Quantities and proration: a subscription item's quantity changed mid-period (a team's seats), and
// what Stripe bills for it. Stripe charges (or credits) the difference for the rest of the period:
//
//   unit_amount × (new quantity − old quantity) × (period end − proration date) / (period end − period start)
//
// rounded to the cent. `proration_behavior`: create_prorations (the default) leaves it as a pending
// invoice item for the next invoice; always_invoice bills it (and any other pending item of the
// subscription) at once on an invoice of its own; none bills nothing. A trial bills nothing either.
import { int, missingParam, noSuch, str, StripeError } from "./http.mjs";
import { clone, DAY, invoiceItemObject, invoiceObject, lineOfItem, listObject, money, newId, now } from "./stripe-objects.mjs";

const BEHAVIORS = ["create_prorations", "none", "always_invoice"];
export const MAX_QUANTITY = 10_000;

/** The cents a quantity change costs (negative: a credit) when made at `at`. */
function prorationAmount({ unitAmount, from, to, start, end, at }) {
  if (end <= start) return 0;
  const remaining = Math.min(Math.max(end - at, 0), end - start);
  return Math.round((unitAmount * (to - from) * remaining) / (end - start));
}

/** The parameters of a quantity change, checked in Stripe's words; null when the call changes no quantity. */
function quantityChange(p, itemId) {
  const behavior = str(p.proration_behavior, "proration_behavior");
  if (behavior !== undefined && !BEHAVIORS.includes(behavior)) {
    throw new StripeError(400, `Invalid proration_behavior: must be one of ${BEHAVIORS.join(", ")}`, { param: "proration_behavior" });
  }
  const prorationDate = int(p.proration_date, "proration_date", 0, 4102444800);
  const quantity = int(p.quantity, "quantity", 0, MAX_QUANTITY);
  if (quantity === undefined) return null;
  return { itemId, quantity, behavior: behavior ?? "create_prorations", prorationDate };
}

/** `items[0][id]` and `items[0][quantity]` of POST /v1/subscriptions/:id, as a quantity change. */
export function itemsChange(p) {
  if (p.items === undefined) return quantityChange(p, undefined);
  const item = Array.isArray(p.items) ? p.items[0] : undefined;
  if (!item || typeof item !== "object" || p.items.length !== 1)
    throw new StripeError(400, "The stand-in updates exactly one item (items[0]).", { param: "items" });
  if (!str(item.id, "items[0][id]")) throw missingParam("items[0][id]");
  return quantityChange({ ...p, quantity: item.quantity }, item.id);
}

/**
 * Sets the item's new quantity on `sub` and returns what to emit after the subscription's own
 * update event: the proration's invoice item and, with always_invoice, the invoice that bills it.
 */
export function applyQuantityChange(state, publicUrl, sub, change) {
  const item = change.itemId ? sub.items.data.find((i) => i.id === change.itemId) : sub.items.data[0];
  if (!item) throw noSuch("subscription item", change.itemId, { status: 400, param: "items[0][id]" });
  const from = item.quantity;
  item.quantity = change.quantity;
  const at = change.prorationDate ?? now();
  const { current_period_start: start, current_period_end: end } = item;
  if (from === change.quantity || change.behavior === "none" || sub.status !== "active") return () => {};
  const amount = prorationAmount({ unitAmount: item.price.unit_amount, from, to: change.quantity, start, end, at });
  const invoiceItem = invoiceItemObject({
    customer: sub.customer,
    amount,
    description: `${amount < 0 ? "Unused time" : "Remaining time"} on ${Math.abs(change.quantity - from)} × ${item.price.nickname} (${from} → ${change.quantity}, at ${money(item.price.unit_amount)} / month)`,
    quantity: Math.abs(change.quantity - from),
    price: item.price,
    subscription: sub.id,
    subscriptionItem: item.id,
    start: Math.min(Math.max(at, start), end),
    end,
  });
  state.invoiceItems.set(invoiceItem.id, invoiceItem);
  return (outbox) => {
    state.emit(outbox, "invoiceitem.created", invoiceItem);
    if (change.behavior === "always_invoice") invoicePending(state, publicUrl, sub, outbox);
  };
}

/** Bills the subscription's pending invoice items now, on one paid invoice (a credit when negative). */
function invoicePending(state, publicUrl, sub, outbox) {
  const pending = [...state.invoiceItems.values()].filter((i) => i.invoice === null && i.parent.subscription_details.subscription === sub.id);
  if (pending.length === 0) return;
  const t = now();
  const id = newId("in_");
  const amount = pending.reduce((sum, i) => sum + i.amount, 0);
  state.invoiceCounter += 1;
  const invoice = invoiceObject({
    id,
    number: `MDLFY-${String(state.invoiceCounter).padStart(4, "0")}`,
    customer: state.customers.get(sub.customer),
    amount,
    created: t,
    periodEnd: t,
    subscription: sub.id,
    publicUrl: publicUrl(),
    billingReason: "subscription_update",
    lines: pending.map(lineOfItem),
  });
  for (const item of pending) item.invoice = id;
  state.invoices.set(id, invoice);
  sub.latest_invoice = id;
  state.emit(outbox, "invoice.created", invoice);
  state.emit(outbox, "invoice.finalized", invoice);
  state.emit(outbox, "invoice.paid", invoice);
}

/**
 * POST /v1/invoices/create_preview: the subscription's next invoice. Its pending prorations, and the
 * next period at the current quantity unless the subscription ends first.
 */
function upcomingInvoice(state, p) {
  if (!str(p.subscription, "subscription")) throw missingParam("subscription");
  const sub = state.get("subscriptions", "subscription", p.subscription);
  if (p.customer !== undefined && p.customer !== sub.customer)
    throw new StripeError(400, "The subscription does not belong to this customer.", { param: "customer" });
  const lines = [...state.invoiceItems.values()]
    .filter((i) => i.invoice === null && i.parent.subscription_details.subscription === sub.id)
    .reverse()
    .map(lineOfItem);
  const item = sub.items.data[0];
  const renews = sub.status !== "canceled" && !sub.cancel_at_period_end;
  if (renews) {
    const start = item.current_period_end;
    const amount = item.price.unit_amount * item.quantity;
    lines.push({
      id: newId("il_"),
      object: "line_item",
      amount,
      currency: "usd",
      description: `${item.quantity} × ${item.price.nickname} (at ${money(item.price.unit_amount)} / month)`,
      quantity: item.quantity,
      period: { start, end: start + 30 * DAY },
      proration: false,
    });
  }
  const total = lines.reduce((sum, l) => sum + l.amount, 0);
  return {
    id: `upcoming_${sub.id}`,
    object: "invoice",
    customer: sub.customer,
    status: "draft",
    billing_reason: "upcoming",
    amount_due: Math.max(0, total),
    amount_paid: 0,
    amount_remaining: Math.max(0, total),
    subtotal: total,
    total,
    currency: "usd",
    created: now(),
    next_payment_attempt: renews ? item.current_period_end : null,
    period_start: item.current_period_start,
    period_end: item.current_period_end,
    parent: { type: "subscription_details", subscription_details: { subscription: sub.id, metadata: clone(sub.metadata) } },
    lines: { object: "list", has_more: false, url: "/v1/invoices/upcoming/lines", data: lines },
    livemode: false,
  };
}

/** The subscription a subscription item belongs to. */
function subscriptionOfItem(state, itemId) {
  for (const sub of state.subscriptions.values()) {
    const item = sub.items.data.find((i) => i.id === itemId);
    if (item) return { sub, item };
  }
  throw noSuch("subscription_item", itemId);
}

/** The routes of quantities and proration, in api.mjs's route format. */
export function prorationRoutes(state) {
  return [
    ["GET", /^\/v1\/subscription_items\/([^/]+)$/, (_p, [, id]) => subscriptionOfItem(state, id).item],
    [
      "POST",
      /^\/v1\/subscription_items\/([^/]+)$/,
      (p, [, id], outbox) => {
        const { sub, item } = subscriptionOfItem(state, id);
        state.updateSubscription(sub, { seats: quantityChange(p, id) ?? undefined }, outbox);
        return item;
      },
    ],
    [
      "GET",
      /^\/v1\/invoiceitems$/,
      (p) => {
        const pending = p.pending === undefined ? undefined : p.pending === "true";
        const items = [...state.invoiceItems.values()]
          .reverse()
          .filter(
            (i) =>
              (!p.customer || i.customer === p.customer) &&
              (!p.invoice || i.invoice === p.invoice) &&
              (pending === undefined || (i.invoice === null) === pending),
          );
        return listObject("/v1/invoiceitems", items, int(p.limit, "limit", 1, 100) ?? 10);
      },
    ],
    ["GET", /^\/v1\/invoiceitems\/([^/]+)$/, (_p, [, id]) => state.get("invoiceItems", "invoiceitem", id)],
    ["POST", /^\/v1\/invoices\/create_preview$/, (p) => upcomingInvoice(state, p)],
  ];
}
