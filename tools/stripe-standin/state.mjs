// The stand-in's in-memory store, and the changes that span several of its collections (a paid checkout,
// a subscription update). The API and the hosted pages both go through these, so each emits the same events.
import { mergeMetadata, noSuch, StripeError } from "./http.mjs";
import { applyQuantityChange } from "./proration.mjs";
import {
  changedFields,
  clone,
  DAY,
  eventObject,
  invoiceObject,
  money,
  newId,
  now,
  paymentMethodObject,
  priceById,
  subscriptionObject,
} from "./stripe-objects.mjs";

const emptyCollections = () => ({
  customers: new Map(),
  paymentMethods: new Map(),
  sessions: new Map(),
  subscriptions: new Map(),
  invoices: new Map(),
  // Prorations (proration.mjs): pending until an invoice bills them (`invoice` set).
  invoiceItems: new Map(),
  events: new Map(),
  portalSessions: new Map(),
  // Per checkout session: what the subscription will be made of. Stripe keeps this too, but a session does not show it.
  sessionExtras: new Map(),
  invoiceCounter: 0,
  failRules: [],
  // hold-next: calls that wait, unanswered, until /__control/release (each { method?, path?, release }).
  holdRules: [],
  held: [],
  expireNextSession: false,
  // Idempotency-Key → { request, status, body } (Stripe keeps keys 24 h; the stand-in until reset).
  idempotency: new Map(),
});

// Which collection an id belongs to, by Stripe's id prefix (expansion only has the id to go on).
const STORES = [
  ["cus_", "customers"],
  ["cs_", "sessions"],
  ["sub_", "subscriptions"],
  ["pm_", "paymentMethods"],
  ["in_", "invoices"],
  ["ii_", "invoiceItems"],
  ["evt_", "events"],
  ["bps_", "portalSessions"],
];

/**
 * Shared by POST /v1/subscriptions/:id, POST /v1/subscription_items/:id and the portal's cancel/renew
 * buttons; emits one updated event, then a quantity change's proration events (`seats`, proration.mjs).
 */
function updateSubscription(state, publicUrl, sub, { cancelAtPeriodEnd, metadata, trialEnd, seats }, outbox) {
  if ((cancelAtPeriodEnd !== undefined || trialEnd !== undefined || seats !== undefined) && sub.status === "canceled") {
    throw new StripeError(400, "A canceled subscription can only update its cancellation_details and metadata.");
  }
  const before = clone(sub);
  // trial_end=now ends a trial at once: the first period starts and is paid (no decline here).
  if (trialEnd === "now" && sub.status === "trialing") {
    const t = now();
    const item = sub.items.data[0];
    Object.assign(sub, { status: "active", trial_end: t, billing_cycle_anchor: t });
    Object.assign(item, { current_period_start: t, current_period_end: t + 30 * DAY });
  }
  if (cancelAtPeriodEnd === true) Object.assign(sub, { cancel_at_period_end: true, cancel_at: sub.items.data[0].current_period_end, canceled_at: now() });
  if (cancelAtPeriodEnd === false) Object.assign(sub, { cancel_at_period_end: false, cancel_at: null, canceled_at: null });
  mergeMetadata(sub.metadata, metadata);
  const billProration = seats ? applyQuantityChange(state, publicUrl, sub, seats) : () => {};
  state.emit(outbox, "customer.subscription.updated", sub, changedFields(before, sub));
  billProration(outbox);
}

/** A card was accepted on the hosted page: what Stripe creates for a subscription checkout, and its three events. */
function completeCheckout(state, publicUrl, session, card, outbox) {
  const t = now();
  const extras = state.sessionExtras.get(session.id);
  const customer = state.customers.get(session.customer);
  const pm = paymentMethodObject({ customer, card, created: t });
  state.paymentMethods.set(pm.id, pm);
  customer.invoice_settings.default_payment_method = pm.id;

  const trialEnd = extras.trialDays ? t + extras.trialDays * DAY : null;
  const periodEnd = trialEnd ?? t + 30 * DAY;
  const subId = newId("sub_");
  const invoiceId = newId("in_");
  const sub = subscriptionObject({
    id: subId,
    customer: customer.id,
    created: t,
    trialEnd,
    periodEnd,
    paymentMethod: pm.id,
    latestInvoice: invoiceId,
    metadata: { ...extras.subscriptionMetadata },
    price: extras.price,
    quantity: extras.quantity,
  });
  state.subscriptions.set(sub.id, sub);

  const amount = trialEnd ? 0 : extras.price.unit_amount * extras.quantity;
  state.invoiceCounter += 1;
  const number = `MDLFY-${String(state.invoiceCounter).padStart(4, "0")}`;
  const plan = extras.price.nickname;
  const description = trialEnd ? `Trial period for ${plan}` : `${extras.quantity} × ${plan} (at ${money(extras.price.unit_amount)} / month)`;
  const invoice = invoiceObject({
    id: invoiceId,
    number,
    customer,
    amount,
    created: t,
    periodEnd,
    description,
    quantity: extras.quantity,
    subscription: sub.id,
    publicUrl: publicUrl(),
  });
  state.invoices.set(invoice.id, invoice);

  Object.assign(session, {
    status: "complete",
    payment_status: trialEnd ? "no_payment_required" : "paid",
    subscription: sub.id,
    customer_details: { email: customer.email, name: card.name || null },
  });
  state.emit(outbox, "checkout.session.completed", session);
  state.emit(outbox, "customer.subscription.created", sub);
  state.emit(outbox, "invoice.paid", invoice);
}

/**
 * Creates an empty store. `publicUrl()` is the origin for hosted page links; a function because the
 * port, and so the origin, is only known once the server listens.
 * @param {{ publicUrl: () => string }} options
 */
export function createState({ publicUrl }) {
  const state = {
    ...emptyCollections(),
    /** Forgets everything; collections are looked up on `state` at each use, so this takes effect at once. */
    reset() {
      // Nothing stays waiting on a hold that no longer exists.
      for (const hold of [...state.holdRules, ...state.held]) hold.release();
      Object.assign(state, emptyCollections());
    },

    lookup(id) {
      if (typeof id !== "string") return undefined;
      if (priceById(id)) return priceById(id);
      const entry = STORES.find(([prefix]) => id.startsWith(prefix));
      return entry ? state[entry[1]].get(id) : undefined;
    },
    get(store, kind, id) {
      const found = state[store].get(id);
      if (found === undefined) throw noSuch(kind, id);
      return found;
    },
    /** Lists are answered newest first, as Stripe does. */
    newest(store) {
      return [...state[store].values()].reverse();
    },

    // Events are recorded at once but delivered later by the caller (see webhooks.mjs), from the outbox of the
    // request that caused them.
    emit(outbox, type, object, previous) {
      const event = eventObject(type, object, previous);
      state.events.set(event.id, event);
      outbox.push(event);
      return event;
    },

    /** A session past expires_at is reported as expired, as Stripe does once it expires. */
    sessionStatus(session) {
      if (session.status === "open" && session.expires_at <= now()) session.status = "expired";
      return session.status;
    },

    // The changes that span several collections (above).
    updateSubscription(sub, changes, outbox) {
      updateSubscription(state, publicUrl, sub, changes, outbox);
    },
    completeCheckout(session, card, outbox) {
      completeCheckout(state, publicUrl, session, card, outbox);
    },
  };
  return state;
}
