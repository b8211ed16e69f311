// Stripe stand-in: a local HTTP server imitating the subset of Stripe's API (2026-10-28) that Modelify uses,
// with hosted checkout / customer portal / invoice pages and signed webhooks. A dev/test tool only: it is never
// part of the production bundle (nothing under app/ or workers/ imports it). All state lives in memory.
//
//   node tools/stripe-standin/server.mjs   (env: STRIPE_STANDIN_PORT, STRIPE_WEBHOOK_URL, STRIPE_WEBHOOK_SECRET)
//   import { startStripeStandin } from "./tools/stripe-standin/server.mjs"
import http from "node:http";
import { randomInt } from "node:crypto";
import { pathToFileURL } from "node:url";
import Stripe from "stripe";

const API_VERSION = "2026-10-28.endive";
const DAY = 86400;
const MAX_BODY = 1024 * 1024;
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const PRICES = {
  price_modelify_pro: {
    id: "price_modelify_pro", object: "price", active: true, currency: "usd", unit_amount: 499,
    recurring: { interval: "month", interval_count: 1 }, product: "prod_modelify_pro", type: "recurring", livemode: false,
  },
};
const priceById = (id) => (typeof id === "string" && Object.hasOwn(PRICES, id) ? PRICES[id] : undefined);
const CARD_OK = "4242424242424242";
const CARD_DECLINED = "4000000000000002";
// Keys that would let a form body reach Object.prototype through the bracket parser.
const FORBIDDEN_KEYS = new Set(["__proto__", "prototype", "constructor"]);

const now = () => Math.floor(Date.now() / 1000);
const newId = (prefix) => prefix + Array.from({ length: 24 }, () => ALNUM[randomInt(ALNUM.length)]).join("");
const clone = (value) => structuredClone(value);
const money = (cents) => `$${(cents / 100).toFixed(2)}`;
const longDate = (sec) =>
  new Date(sec * 1000).toLocaleDateString("en-US", { month: "long", day: "numeric", year: "numeric", timeZone: "UTC" });
const esc = (s) =>
  String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

/** An error answered as Stripe's `{ error: {...} }` body. */
class StripeError extends Error {
  constructor(status, message, { type = "invalid_request_error", code, param } = {}) {
    super(message);
    Object.assign(this, { status, type, code, param });
  }
  get body() {
    return { error: { type: this.type, ...(this.code && { code: this.code }), message: this.message, ...(this.param && { param: this.param }) } };
  }
}
const noSuch = (kind, id, { status = 404, param = "id" } = {}) =>
  new StripeError(status, `No such ${kind}: '${id}'`, { code: "resource_missing", param });
const missingParam = (param) => new StripeError(400, `Missing required param: ${param}.`, { code: "parameter_missing", param });

/**
 * Parses Stripe's bracket notation (`a[b][0][c]=1`, `expand[]=x`) into nested objects and arrays.
 * Containers are built as objects first, then objects whose keys are all indices become arrays
 * (except under `metadata`, whose keys are free-form).
 */
export function parseStripeForm(text) {
  const root = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
    if (!m) throw new StripeError(400, `Invalid parameter name: ${name}`, { param: name });
    const keys = [m[1], ...Array.from(m[2].matchAll(/\[([^[\]]*)\]/g), (x) => x[1])];
    let node = root;
    keys.forEach((raw, i) => {
      if (FORBIDDEN_KEYS.has(raw)) throw new StripeError(400, `Invalid parameter name: ${name}`, { param: name });
      const key = raw === "" ? String(Object.keys(node).length) : raw;
      if (i === keys.length - 1) {
        if (typeof node[key] === "object") throw new StripeError(400, `Invalid value for ${name}`, { param: name });
        node[key] = value;
        return;
      }
      node[key] ??= {};
      if (typeof node[key] !== "object") throw new StripeError(400, `Invalid value for ${name}`, { param: name });
      node = node[key];
    });
  }
  const arrayify = (value, parentKey) => {
    if (typeof value !== "object") return value;
    for (const k of Object.keys(value)) value[k] = arrayify(value[k], k);
    const keys = Object.keys(value);
    if (parentKey === "metadata" || keys.length === 0 || !keys.every((k) => /^\d+$/.test(k))) return value;
    return keys.sort((a, b) => a - b).map((k) => value[k]);
  };
  return arrayify(root, null);
}

const bool = (value, param) => {
  if (value === undefined || value === true || value === false) return value;
  if (value === "true" || value === "false") return value === "true";
  throw new StripeError(400, `Invalid boolean: ${value}`, { param });
};
const str = (value, param) => {
  if (value === undefined || typeof value === "string") return value;
  throw new StripeError(400, `Invalid string: expected a string for ${param}`, { param });
};
const int = (value, param, min, max) => {
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new StripeError(400, `Invalid integer: ${value}`, { param });
  return n;
};
const metadataParam = (value, param = "metadata") => {
  if (value === undefined || value === "") return {};
  const bad = typeof value !== "object" || Array.isArray(value) || Object.values(value).some((v) => typeof v !== "string");
  if (bad) throw new StripeError(400, "Invalid object: metadata takes string values (metadata[key]=value).", { param });
  return { ...value };
};
/** Stripe merges metadata on update; an empty string deletes the key. */
const mergeMetadata = (target, update) => {
  for (const [k, v] of Object.entries(metadataParam(update))) if (v === "") delete target[k];
  else target[k] = String(v);
};

/** A minimal but valid one-page PDF (ASCII text only) with correct xref offsets. */
function minimalPdf(lines) {
  const text = lines
    .map((l, i) => `BT /F1 ${i === 0 ? 18 : 12} Tf 72 ${720 - i * 22} Td (${l.replace(/[^\x20-\x7e]/g, "").replace(/[\\()]/g, "\\$&")}) Tj ET`)
    .join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
  ];
  let out = "%PDF-1.4\n";
  const offsets = objects.map((body, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

const CSS = `*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;background:#f6f8fa;color:#1a1f36}
main{max-width:880px;margin:48px auto;padding:0 20px}.card{background:#fff;border-radius:12px;box-shadow:0 2px 12px rgba(26,31,54,.08);padding:32px}
.split{display:grid;grid-template-columns:1fr 1fr;gap:32px}@media(max-width:700px){.split{grid-template-columns:1fr}}
.muted{color:#697386}.brand{font-weight:600;color:#635bff;margin:0 0 24px}h1{font-size:22px;margin:0 0 4px}.price{font-size:32px;font-weight:700;margin:8px 0}
.trial{background:#ecfdf3;color:#05603a;border-radius:8px;padding:8px 12px;display:inline-block}label{display:block;font-weight:500;margin:14px 0 4px}
input{width:100%;padding:10px 12px;border:1px solid #d5dbe1;border-radius:8px;font:inherit}input:focus{outline:2px solid #635bff;border-color:transparent}
.row{display:grid;grid-template-columns:1fr 1fr;gap:12px}button{width:100%;margin-top:20px;padding:12px;border:0;border-radius:8px;background:#635bff;color:#fff;font:600 16px system-ui;cursor:pointer}
button.secondary{background:#fff;color:#df1b41;border:1px solid #df1b41;width:auto;padding:8px 16px;margin-top:12px;font-size:14px}button.renew{color:#635bff;border-color:#635bff}
.error{background:#fff1f2;color:#df1b41;border-radius:8px;padding:10px 12px;margin:12px 0 0}.hint{font-size:13px;color:#697386;margin-top:16px}
a{color:#635bff}.sub{border:1px solid #e3e8ee;border-radius:10px;padding:16px 20px;margin:16px 0}.badge{font-size:12px;font-weight:600;background:#eef0ff;color:#3d35c9;border-radius:999px;padding:2px 10px;margin-left:8px}
table{width:100%;border-collapse:collapse}td{padding:8px 0;border-bottom:1px solid #eef0f3}td:last-child{text-align:right}`;
const page = (title, body) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><style>${CSS}</style></head><body><main>${body}</main></body></html>`;

/**
 * Starts the stand-in. `publicUrl` (default: `url`) is the origin used in hosted page links.
 * @param {{ port?: number, host?: string, webhookUrl?: string | null, webhookSecret?: string, publicUrl?: string }} [options]
 * @returns {Promise<{ url: string, port: number, close(): Promise<void>, setWebhookUrl(url: string | null): void }>}
 */
export async function startStripeStandin({ port = 0, host = "127.0.0.1", webhookUrl = null, webhookSecret = "whsec_local_modelify_standin", publicUrl } = {}) {
  const signer = new Stripe("sk_test_standin"); // only used for .webhooks.generateTestHeaderString
  let state;
  const reset = () => {
    state = {
      customers: new Map(), paymentMethods: new Map(), sessions: new Map(), subscriptions: new Map(), invoices: new Map(),
      events: new Map(), portalSessions: new Map(),
      sessionExtras: new Map(), // per checkout session: { trialDays, subscriptionMetadata, price, quantity } (not part of the API shape)
      invoiceCounter: 0, failRules: [], expireNextSession: false,
      idempotency: new Map(), // Idempotency-Key → { request, status, body } (Stripe keeps keys 24 h)
    };
  };
  reset();
  let closed = false;

  const stores = [["cus_", "customers"], ["cs_", "sessions"], ["sub_", "subscriptions"], ["pm_", "paymentMethods"], ["in_", "invoices"], ["evt_", "events"], ["bps_", "portalSessions"]];
  const lookup = (id) => {
    if (typeof id !== "string") return undefined;
    if (priceById(id)) return priceById(id);
    const entry = stores.find(([prefix]) => id.startsWith(prefix));
    return entry ? state[entry[1]].get(id) : undefined;
  };
  const get = (store, kind, id) => state[store].get(id) ?? (() => { throw noSuch(kind, id); })();

  /** Replaces id fields with full objects. Intermediate ids on a dotted path are expanded too, as Stripe does. */
  const expand = (object, paths) => {
    const out = clone(object);
    for (const path of [].concat(paths ?? [])) {
      const keys = String(path).split(".");
      let parent = out;
      keys.forEach((key, i) => {
        if (!parent || typeof parent !== "object") return;
        if (typeof parent[key] === "string") {
          const found = lookup(parent[key]);
          if (!found) throw new StripeError(400, `This property cannot be expanded (${path}).`, { param: "expand" });
          parent[key] = clone(found);
        } else if (parent[key] === undefined) throw new StripeError(400, `This property cannot be expanded (${path}).`, { param: "expand" });
        parent = i < keys.length - 1 ? parent[key] : null;
      });
    }
    return out;
  };

  const list = (url, items, params) => {
    const limit = int(params.limit, "limit", 1, 100) ?? 10;
    return { object: "list", data: items.slice(0, limit), has_more: items.length > limit, url };
  };
  const newest = (store) => [...state[store].values()].reverse();

  // ---- events and webhook delivery ----
  // Events are recorded at once but delivered after the handler finishes, sequentially in emit order, before the
  // HTTP answer. Each request delivers its own outbox (no global queue), so a webhook handler that calls back
  // into this API, and causes events itself, cannot deadlock against the delivery that is waiting on it.
  const emit = (outbox, type, object, previous) => {
    const event = {
      id: newId("evt_"), object: "event", api_version: API_VERSION, created: now(), type, livemode: false, pending_webhooks: 1,
      request: { id: null, idempotency_key: null }, data: { object: clone(object), ...(previous && { previous_attributes: previous }) },
    };
    state.events.set(event.id, event);
    outbox.push(event);
    return event;
  };
  const changedFields = (before, after) =>
    Object.fromEntries(Object.keys(after).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).map((k) => [k, before[k]]));

  const deliver = async (event) => {
    if (!webhookUrl) return false;
    const payload = JSON.stringify(event, null, 2);
    const target = webhookUrl;
    let problem = "";
    for (let attempt = 1; attempt <= 3 && !closed; attempt++) {
      try {
        const signature = signer.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
        const response = await fetch(target, {
          method: "POST", body: payload, signal: AbortSignal.timeout(10_000),
          headers: { "Content-Type": "application/json", "Stripe-Signature": signature, "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)" },
        });
        await response.arrayBuffer().catch(() => {});
        if (response.ok) return true;
        problem = `HTTP ${response.status}`;
      } catch (err) {
        problem = err?.cause?.code ?? err?.message ?? String(err);
      }
      if (attempt < 3) await new Promise((r) => setTimeout(r, 300));
    }
    if (!closed) console.warn(`[stripe-standin] webhook ${event.type} (${event.id}) to ${target} failed after 3 attempts: ${problem}`);
    return false;
  };
  const flush = async (outbox) => {
    for (const event of outbox) await deliver(event);
  };

  // ---- domain operations ----
  /** Shared by POST /v1/subscriptions/:id and the portal's cancel/renew buttons; emits one updated event. */
  const updateSubscription = (sub, { cancelAtPeriodEnd, metadata }, outbox) => {
    if (cancelAtPeriodEnd !== undefined && sub.status === "canceled") {
      throw new StripeError(400, "A canceled subscription can only update its cancellation_details and metadata.");
    }
    const before = clone(sub);
    if (cancelAtPeriodEnd === true) Object.assign(sub, { cancel_at_period_end: true, cancel_at: sub.items.data[0].current_period_end, canceled_at: now() });
    if (cancelAtPeriodEnd === false) Object.assign(sub, { cancel_at_period_end: false, cancel_at: null, canceled_at: null });
    mergeMetadata(sub.metadata, metadata);
    emit(outbox, "customer.subscription.updated", sub, changedFields(before, sub));
  };

  const completeCheckout = (session, card, outbox) => {
    const t = now();
    const extras = state.sessionExtras.get(session.id);
    const customer = state.customers.get(session.customer);
    const pm = {
      id: newId("pm_"), object: "payment_method", type: "card", customer: customer.id, billing_details: { name: card.name || null, email: customer.email },
      card: { brand: "visa", last4: card.number.slice(-4), exp_month: card.expMonth, exp_year: card.expYear, funding: "credit", country: "US" }, created: t, livemode: false,
    };
    state.paymentMethods.set(pm.id, pm);
    customer.invoice_settings.default_payment_method = pm.id;

    const trialEnd = extras.trialDays ? t + extras.trialDays * DAY : null;
    const periodEnd = trialEnd ?? t + 30 * DAY;
    const subId = newId("sub_");
    const invoiceId = newId("in_");
    const sub = {
      id: subId, object: "subscription", customer: customer.id, status: trialEnd ? "trialing" : "active", created: t, start_date: t,
      billing_cycle_anchor: periodEnd, collection_method: "charge_automatically", currency: "usd",
      trial_start: trialEnd ? t : null, trial_end: trialEnd, cancel_at: null, cancel_at_period_end: false, canceled_at: null, ended_at: null,
      default_payment_method: pm.id, latest_invoice: invoiceId, metadata: { ...extras.subscriptionMetadata },
      items: {
        object: "list", has_more: false, url: `/v1/subscription_items?subscription=${subId}`,
        data: [{ id: newId("si_"), object: "subscription_item", subscription: subId, price: clone(extras.price), quantity: extras.quantity, created: t, current_period_start: t, current_period_end: periodEnd, metadata: {} }],
      },
      livemode: false,
    };
    state.subscriptions.set(sub.id, sub);

    const amount = trialEnd ? 0 : extras.price.unit_amount * extras.quantity;
    const number = `MDLFY-${String(++state.invoiceCounter).padStart(4, "0")}`;
    const description = trialEnd ? "Trial period for Modelify Pro" : `${extras.quantity} × Modelify Pro (at ${money(extras.price.unit_amount)} / month)`;
    const invoice = {
      id: invoiceId, object: "invoice", number, customer: customer.id, customer_email: customer.email, status: "paid",
      amount_due: amount, amount_paid: amount, amount_remaining: 0, subtotal: amount, total: amount, currency: "usd", created: t,
      period_start: t, period_end: t, due_date: null, description: null, billing_reason: "subscription_create",
      hosted_invoice_url: `${publicUrl}/invoices/${invoiceId}`, invoice_pdf: `${publicUrl}/invoices/${invoiceId}.pdf`,
      status_transitions: { finalized_at: t, paid_at: t },
      parent: { type: "subscription_details", subscription_details: { subscription: sub.id, metadata: {} } },
      lines: {
        object: "list", has_more: false, url: `/v1/invoices/${invoiceId}/lines`,
        data: [{ id: newId("il_"), object: "line_item", amount, currency: "usd", description, quantity: extras.quantity, period: { start: t, end: periodEnd } }],
      },
      livemode: false,
    };
    state.invoices.set(invoice.id, invoice);

    Object.assign(session, { status: "complete", payment_status: trialEnd ? "no_payment_required" : "paid", subscription: sub.id, customer_details: { email: customer.email, name: card.name || null } });
    emit(outbox, "checkout.session.completed", session);
    emit(outbox, "customer.subscription.created", sub);
    emit(outbox, "invoice.paid", invoice);
  };

  /** A session past expires_at is reported as expired, as Stripe does once it expires. */
  const sessionStatus = (session) => {
    if (session.status === "open" && session.expires_at <= now()) session.status = "expired";
    return session.status;
  };

  // ---- API routes: handler(params, match, outbox) returns the object to answer (expanded by the caller) ----
  const api = [
    ["POST", /^\/v1\/customers$/, (p) => {
      const customer = {
        id: newId("cus_"), object: "customer", email: str(p.email, "email") || null, name: str(p.name, "name") || null, description: str(p.description, "description") || null,
        metadata: metadataParam(p.metadata), created: now(), invoice_settings: { default_payment_method: null }, livemode: false,
      };
      state.customers.set(customer.id, customer);
      return customer;
    }],
    ["GET", /^\/v1\/customers$/, (p) => list("/v1/customers", newest("customers").filter((c) => !p.email || c.email === p.email), p)],
    ["GET", /^\/v1\/customers\/([^/]+)$/, (p, [, id]) => get("customers", "customer", id)],
    ["POST", /^\/v1\/customers\/([^/]+)$/, (p, [, id]) => {
      const customer = get("customers", "customer", id);
      for (const k of ["email", "name", "description"]) if (p[k] !== undefined) customer[k] = str(p[k], k) || null;
      mergeMetadata(customer.metadata, p.metadata);
      return customer;
    }],
    ["GET", /^\/v1\/customers\/([^/]+)\/payment_methods$/, (p, [, id]) => {
      get("customers", "customer", id);
      return list(`/v1/customers/${id}/payment_methods`, newest("paymentMethods").filter((pm) => pm.customer === id && (!p.type || pm.type === p.type)), p);
    }],
    ["GET", /^\/v1\/payment_methods\/([^/]+)$/, (p, [, id]) => get("paymentMethods", "PaymentMethod", id)],
    ["GET", /^\/v1\/prices\/([^/]+)$/, (p, [, id]) => priceById(id) ?? (() => { throw noSuch("price", id); })()],

    ["POST", /^\/v1\/checkout\/sessions$/, (p) => {
      for (const k of ["mode", "customer", "client_reference_id", "success_url", "cancel_url"]) str(p[k], k);
      if (!p.mode) throw missingParam("mode");
      if (p.mode !== "subscription") throw new StripeError(400, `The stand-in only supports mode=subscription (got '${p.mode}').`, { param: "mode" });
      if (!p.customer) throw missingParam("customer");
      const customer = state.customers.get(p.customer);
      if (!customer) throw noSuch("customer", p.customer, { status: 400, param: "customer" });
      const item = Array.isArray(p.line_items) ? p.line_items[0] : undefined;
      if (!item || typeof item !== "object") throw missingParam("line_items");
      if (!str(item.price, "line_items[0][price]")) throw missingParam("line_items[0][price]");
      const price = priceById(item.price);
      if (!price) throw noSuch("price", item.price, { status: 400, param: "line_items[0][price]" });
      const quantity = int(item.quantity, "line_items[0][quantity]", 1, 999) ?? 1;
      if (!p.success_url) throw missingParam("success_url");
      if (!p.cancel_url) throw missingParam("cancel_url");
      const sub = p.subscription_data ?? {};
      const trialDays = int(sub.trial_period_days, "subscription_data[trial_period_days]", 1, 730) ?? 0;
      const t = now();
      const id = newId("cs_test_");
      const session = {
        id, object: "checkout.session", mode: "subscription", status: "open", payment_status: "unpaid", customer: customer.id,
        customer_email: null, client_reference_id: p.client_reference_id || null, subscription: null, url: `${publicUrl}/checkout/${id}`,
        success_url: p.success_url, cancel_url: p.cancel_url, expires_at: state.expireNextSession ? t - 60 : t + DAY, created: t,
        metadata: metadataParam(p.metadata), amount_subtotal: price.unit_amount * quantity, amount_total: price.unit_amount * quantity, currency: "usd", livemode: false,
      };
      state.expireNextSession = false;
      state.sessions.set(id, session);
      state.sessionExtras.set(id, { trialDays, subscriptionMetadata: metadataParam(sub.metadata, "subscription_data[metadata]"), price, quantity });
      return session;
    }],
    ["GET", /^\/v1\/checkout\/sessions\/([^/]+)$/, (p, [, id]) => {
      const session = get("sessions", "checkout.session", id);
      sessionStatus(session);
      return session;
    }],
    ["POST", /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/, (p, [, id], outbox) => {
      const session = get("sessions", "checkout.session", id);
      if (sessionStatus(session) !== "open") {
        throw new StripeError(400, `Only Checkout Sessions with a status of 'open' can be expired. This Checkout Session has a status of '${session.status}'.`);
      }
      Object.assign(session, { status: "expired", url: null });
      emit(outbox, "checkout.session.expired", session);
      return session;
    }],

    ["GET", /^\/v1\/subscriptions$/, (p) => {
      const status = p.status ?? "";
      const subs = newest("subscriptions").filter((s) => (!p.customer || s.customer === p.customer) && (status === "all" || (status ? s.status === status : s.status !== "canceled")));
      return list("/v1/subscriptions", subs, p);
    }],
    ["GET", /^\/v1\/subscriptions\/([^/]+)$/, (p, [, id]) => get("subscriptions", "subscription", id)],
    ["POST", /^\/v1\/subscriptions\/([^/]+)$/, (p, [, id], outbox) => {
      const sub = get("subscriptions", "subscription", id);
      updateSubscription(sub, { cancelAtPeriodEnd: bool(p.cancel_at_period_end, "cancel_at_period_end"), metadata: p.metadata }, outbox);
      return sub;
    }],
    ["DELETE", /^\/v1\/subscriptions\/([^/]+)$/, (p, [, id], outbox) => {
      const sub = get("subscriptions", "subscription", id);
      bool(p.prorate, "prorate");
      bool(p.invoice_now, "invoice_now");
      if (sub.status === "canceled") throw new StripeError(400, `This subscription is already canceled: '${id}'`);
      const t = now();
      Object.assign(sub, { status: "canceled", canceled_at: t, ended_at: t, cancel_at: null });
      emit(outbox, "customer.subscription.deleted", sub);
      return sub;
    }],

    ["GET", /^\/v1\/invoices$/, (p) => {
      const invoices = newest("invoices").filter((i) => (!p.customer || i.customer === p.customer) && (!p.subscription || i.parent?.subscription_details?.subscription === p.subscription) && (!p.status || i.status === p.status));
      return list("/v1/invoices", invoices, p);
    }],
    ["GET", /^\/v1\/invoices\/([^/]+)$/, (p, [, id]) => get("invoices", "invoice", id)],

    ["POST", /^\/v1\/billing_portal\/sessions$/, (p) => {
      if (!str(p.customer, "customer")) throw missingParam("customer");
      str(p.return_url, "return_url");
      if (!state.customers.has(p.customer)) throw noSuch("customer", p.customer, { status: 400, param: "customer" });
      const id = newId("bps_");
      const session = { id, object: "billing_portal.session", customer: p.customer, return_url: p.return_url || null, url: `${publicUrl}/portal/${id}`, created: now(), livemode: false };
      state.portalSessions.set(id, session);
      return session;
    }],

    ["GET", /^\/v1\/events$/, (p) => list("/v1/events", newest("events").filter((e) => !p.type || e.type === p.type), p)],
    ["GET", /^\/v1\/events\/([^/]+)$/, (p, [, id]) => get("events", "event", id)],
  ];

  // ---- hosted pages ----
  const checkoutPage = (session, { error = "", values = {} } = {}) => {
    const extras = state.sessionExtras.get(session.id);
    const customer = state.customers.get(session.customer);
    const perMonth = money(extras.price.unit_amount);
    const trial = extras.trialDays ? `<p class="trial">${extras.trialDays} days free, then ${perMonth} per month</p>` : "";
    const input = (name, label, attrs) => `<label for="${name}">${label}</label><input id="${name}" name="${name}" value="${esc(values[name])}" ${attrs}>`;
    return page("Modelify Pro – Checkout", `<div class="card split">
<section><p class="brand">Modelify</p><p class="muted">Subscribe to</p><h1>Modelify Pro</h1><p class="price">${perMonth} / month</p>${trial}
${extras.quantity > 1 ? `<p class="muted">Quantity: ${extras.quantity}</p>` : ""}</section>
<section><p class="muted">Paying as</p><p><strong>${esc(customer?.email ?? "")}</strong></p>
${error ? `<p class="error" role="alert">${esc(error)}</p>` : ""}
<form method="post" action="/checkout/${esc(session.id)}" novalidate>
${input("cardNumber", "Card number", 'inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234"')}
<div class="row"><div>${input("expiry", "Expiry (MM/YY)", 'autocomplete="cc-exp" placeholder="MM / YY"')}</div><div>${input("cvc", "CVC", 'inputmode="numeric" autocomplete="cc-csc" placeholder="123"')}</div></div>
${input("cardholder", "Name on card", 'autocomplete="cc-name"')}
<button type="submit">${extras.trialDays ? "Start trial" : "Subscribe"}</button></form>
<p class="hint">Test card: 4242 4242 4242 4242, any future date, any CVC</p>
<p><a href="${esc(session.cancel_url)}">Cancel</a></p></section></div>`);
  };
  const messagePage = (title, message) => page(title, `<div class="card"><p class="brand">Modelify</p><h1>${esc(message)}</h1></div>`);

  /** Validates the hosted form; returns the card or an { status, error } to re-render with. */
  const readCard = (form) => {
    const number = String(form.cardNumber ?? "").replace(/\s+/g, "");
    const invalid = { status: 400, error: "Your card number is invalid." };
    if (number !== CARD_OK && number !== CARD_DECLINED) return invalid;
    const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(String(form.expiry ?? ""));
    if (!m) return invalid;
    const expMonth = Number(m[1]);
    const expYear = m[2].length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
    const today = new Date();
    if (expMonth < 1 || expMonth > 12 || expYear * 12 + expMonth < today.getUTCFullYear() * 12 + today.getUTCMonth() + 1) return invalid;
    if (number === CARD_DECLINED) return { status: 402, error: "Your card was declined." };
    return { card: { number, expMonth, expYear, name: String(form.cardholder ?? "").trim() } };
  };

  const portalPage = (portal) => {
    const subs = newest("subscriptions").filter((s) => s.customer === portal.customer && s.status !== "canceled");
    const rows = subs.map((s) => {
      const item = s.items.data[0];
      const pm = state.paymentMethods.get(s.default_payment_method);
      const when = s.cancel_at_period_end ? `Cancels on ${longDate(s.cancel_at)}` : `Renews on ${longDate(item.current_period_end)}`;
      const action = s.cancel_at_period_end ? ["renew", "Renew plan", "secondary renew"] : ["cancel", "Cancel plan", "secondary"];
      return `<div class="sub"><h2 style="margin:0;font-size:18px">Modelify Pro<span class="badge">${esc(s.status)}</span></h2>
<p class="muted" style="margin:4px 0">${money(item.price.unit_amount)} per month · ${when}</p>
${pm ? `<p style="margin:4px 0">${esc(pm.card.brand === "visa" ? "Visa" : pm.card.brand)} •••• ${esc(pm.card.last4)}</p>` : ""}
<form method="post" action="/portal/${esc(portal.id)}/${action[0]}"><input type="hidden" name="subscription" value="${esc(s.id)}"><button type="submit" class="${action[2]}">${action[1]}</button></form></div>`;
    });
    const invoices = newest("invoices").filter((i) => i.customer === portal.customer).slice(0, 10)
      .map((i) => `<tr><td><a href="${esc(i.hosted_invoice_url)}">${esc(i.number)}</a></td><td>${longDate(i.created)}</td><td>${money(i.total)}</td></tr>`);
    return page("Modelify – Billing", `<div class="card"><p class="brand">Modelify</p><h1>Billing</h1><p class="muted">${esc(state.customers.get(portal.customer)?.email ?? "")}</p>
<h2 style="font-size:16px;margin-top:24px">Current plan</h2>${rows.join("") || '<p class="muted">No active subscriptions.</p>'}
${invoices.length ? `<h2 style="font-size:16px">Invoice history</h2><table>${invoices.join("")}</table>` : ""}
<p style="margin-top:24px"><a href="${esc(portal.return_url ?? "/")}">Return to Modelify</a></p></div>`);
  };

  const invoicePage = (inv) => page(`Receipt ${inv.number}`, `<div class="card"><p class="brand">Modelify</p><h1>Receipt from Modelify</h1>
<p class="muted">Invoice ${esc(inv.number)} · Paid ${longDate(inv.status_transitions.paid_at)}</p><p class="price">${money(inv.amount_paid)}</p>
<table>${inv.lines.data.map((l) => `<tr><td>${esc(l.description)}</td><td>${money(l.amount)}</td></tr>`).join("")}<tr><td><strong>Total</strong></td><td><strong>${money(inv.total)}</strong></td></tr></table>
<p><a href="${esc(inv.invoice_pdf)}">Download PDF</a></p></div>`);

  // ---- HTTP plumbing ----
  const readBody = (req) =>
    new Promise((resolve, reject) => {
      const chunks = [];
      let size = 0;
      req.on("data", (c) => {
        size += c.length;
        if (size > MAX_BODY) reject(new StripeError(400, "Request body too large."));
        else chunks.push(c);
      });
      req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      req.on("error", reject);
    });
  const send = (res, status, body, type = "application/json", headers = {}) => {
    const payload = typeof body === "string" || Buffer.isBuffer(body) ? body : JSON.stringify(body, null, 2);
    res.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store", ...headers });
    res.end(payload);
  };
  const html = (res, status, body) => send(res, status, body, "text/html; charset=utf-8");
  const redirect = (res, location) => send(res, 303, "", "text/plain", { Location: location });

  const handleApi = async (req, res, url) => {
    const headers = { "Request-Id": newId("req_"), "Stripe-Version": API_VERSION };
    if (!/^Bearer sk_\S+$/.test(req.headers.authorization ?? "")) {
      return send(res, 401, { error: { type: "invalid_request_error", message: "Invalid API Key provided" } }, "application/json", headers);
    }
    const raw = req.method === "GET" ? "" : await readBody(req);
    const rule = state.failRules.findIndex((r) => (!r.method || r.method === req.method) && (!r.path || r.path === url.pathname));
    if (rule !== -1) {
      const [r] = state.failRules.splice(rule, 1);
      // Stripe-Should-Retry: false keeps the SDK (which retries 5xx by default) from hiding the injected failure.
      return send(res, r.status, { error: { type: r.type, message: r.message } }, "application/json", { ...headers, "Stripe-Should-Retry": "false" });
    }
    // Stripe's idempotency: the same key with the same request replays the first answer; with a
    // different request it is an error. Requests are handled one at a time, so two racing
    // requests with one key get one object.
    const key = req.method === "POST" ? req.headers["idempotency-key"] : undefined;
    const fingerprint = `${req.method} ${url.pathname}?${url.search.slice(1)}&${raw}`;
    const replay = typeof key === "string" ? state.idempotency.get(key) : undefined;
    if (replay) {
      if (replay.request !== fingerprint) {
        throw new StripeError(400, `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`, { type: "idempotency_error" });
      }
      return send(res, replay.status, replay.body, "application/json", { ...headers, "Idempotent-Replayed": "true" });
    }
    const params = parseStripeForm(`${url.search.slice(1)}&${raw}`);
    const route = api.find(([method, re]) => method === req.method && re.test(url.pathname));
    if (!route) {
      throw new StripeError(404, `Unrecognized request URL (${req.method}: ${url.pathname}). The Stripe stand-in does not implement this endpoint.`);
    }
    const outbox = [];
    const result = route[2](params, route[1].exec(url.pathname).map(decodeURIComponent), outbox);
    const paths = [].concat(params.expand ?? []).map(String);
    const body = result.object === "list"
      ? { ...result, data: result.data.map((o) => expand(o, paths.filter((x) => x.startsWith("data.")).map((x) => x.slice(5)))) }
      : expand(result, paths);
    if (typeof key === "string") state.idempotency.set(key, { request: fingerprint, status: 200, body });
    await flush(outbox);
    send(res, 200, body, "application/json", headers);
  };

  const handleControl = async (req, res, path) => {
    const raw = req.method === "POST" ? await readBody(req) : "";
    let input = {};
    try {
      input = raw.trim() ? JSON.parse(raw) : {};
    } catch {
      throw new StripeError(400, "Control endpoints take a JSON body.");
    }
    if (typeof input !== "object" || input === null) throw new StripeError(400, "Control endpoints take a JSON object.");
    const route = `${req.method} ${path}`;
    if (route === "GET /__control/health") return send(res, 200, { ok: true });
    if (route === "POST /__control/webhook-url") {
      if (input.url !== null && typeof input.url !== "string") throw new StripeError(400, "url must be a string or null.");
      webhookUrl = input.url || null;
      return send(res, 200, { ok: true, webhookUrl });
    }
    if (route === "POST /__control/fail-next") {
      state.failRules.push({ method: input.method ? String(input.method).toUpperCase() : undefined, path: input.path, status: int(input.status, "status", 400, 599) ?? 500, message: input.message ?? "Something went wrong", type: input.type ?? "api_error" });
      return send(res, 200, { ok: true });
    }
    if (route === "POST /__control/expire-next-session") {
      state.expireNextSession = true;
      return send(res, 200, { ok: true });
    }
    if (route === "POST /__control/resend") {
      const event = get("events", "event", input.eventId);
      return send(res, 200, { ok: true, delivered: await deliver(event) });
    }
    if (route === "POST /__control/emit") {
      if (typeof input.type !== "string" || !input.type) throw missingParam("type");
      const object = ["cus_", "cs_", "sub_", "in_"].some((p) => String(input.objectId).startsWith(p)) ? lookup(input.objectId) : undefined;
      if (!object) throw noSuch("object", input.objectId, { param: "objectId" });
      const outbox = [];
      const event = emit(outbox, input.type, object);
      await flush(outbox);
      return send(res, 200, event);
    }
    if (route === "POST /__control/reset") {
      reset();
      return send(res, 200, { ok: true });
    }
    throw new StripeError(404, `Unknown control endpoint (${route}).`);
  };

  const handlePages = async (req, res, url) => {
    const path = url.pathname;
    let m;
    if ((m = /^\/checkout\/([^/]+)$/.exec(path))) {
      const session = state.sessions.get(m[1]);
      if (!session) return html(res, 404, messagePage("Not found", "Checkout session not found."));
      if (sessionStatus(session) !== "open") return html(res, 410, messagePage("Expired", "This checkout session is no longer available."));
      if (req.method === "GET") return html(res, 200, checkoutPage(session));
      if (req.method !== "POST") return html(res, 405, messagePage("Not allowed", "Method not allowed."));
      const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
      const result = readCard(form);
      if (!result.card) return html(res, result.status, checkoutPage(session, { error: result.error, values: { ...form, cvc: "" } }));
      const outbox = [];
      completeCheckout(session, result.card, outbox);
      await flush(outbox);
      return redirect(res, session.success_url.replaceAll("{CHECKOUT_SESSION_ID}", session.id));
    }
    if ((m = /^\/portal\/([^/]+?)(?:\/(cancel|renew))?$/.exec(path))) {
      const portal = state.portalSessions.get(m[1]);
      if (!portal) return html(res, 404, messagePage("Not found", "This billing session was not found."));
      if (!m[2] && req.method === "GET") return html(res, 200, portalPage(portal));
      if (!m[2] || req.method !== "POST") return html(res, 405, messagePage("Not allowed", "Method not allowed."));
      const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
      const own = newest("subscriptions").filter((s) => s.customer === portal.customer && s.status !== "canceled");
      const sub = own.find((s) => s.id === form.subscription) ?? own[0];
      if (sub) {
        const outbox = [];
        updateSubscription(sub, { cancelAtPeriodEnd: m[2] === "cancel" }, outbox);
        await flush(outbox);
      }
      return redirect(res, `/portal/${portal.id}`);
    }
    if ((m = /^\/invoices\/([^/]+?)(\.pdf)?$/.exec(path)) && req.method === "GET") {
      const inv = state.invoices.get(m[1]);
      if (!inv) return html(res, 404, messagePage("Not found", "Invoice not found."));
      if (!m[2]) return html(res, 200, invoicePage(inv));
      const pdf = minimalPdf(["Modelify receipt", `Invoice ${inv.number}`, `Paid ${longDate(inv.status_transitions.paid_at)}`, ...inv.lines.data.map((l) => `${l.description.replace("×", "x")}  ${money(l.amount)}`), `Total ${money(inv.total)}`]);
      return send(res, 200, pdf, "application/pdf", { "Content-Disposition": `inline; filename="${inv.number}.pdf"` });
    }
    if (path === "/" && req.method === "GET") return send(res, 200, "Stripe stand-in (dev/test only). API under /v1/.\n", "text/plain; charset=utf-8");
    return html(res, 404, messagePage("Not found", "Page not found."));
  };

  const server = http.createServer(async (req, res) => {
    let url;
    try {
      url = new URL(req.url ?? "/", "http://standin.invalid");
      if (url.pathname.startsWith("/v1/")) await handleApi(req, res, url);
      else if (url.pathname.startsWith("/__control/")) await handleControl(req, res, url.pathname);
      else await handlePages(req, res, url);
    } catch (err) {
      const known = err instanceof StripeError || err instanceof URIError;
      if (!known) console.error(`[stripe-standin] ${req.method} ${req.url}:`, err);
      const error = err instanceof StripeError ? err : new StripeError(known ? 400 : 500, known ? "Malformed request." : "Internal stand-in error.", { type: known ? "invalid_request_error" : "api_error" });
      if (res.headersSent) res.end();
      else send(res, error.status, error.body);
    }
  });

  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const actualPort = server.address().port;
  const url = `http://localhost:${actualPort}`;
  publicUrl = (publicUrl ?? url).replace(/\/+$/, "");
  return {
    url,
    port: actualPort,
    setWebhookUrl(next) {
      webhookUrl = next || null;
    },
    close() {
      closed = true;
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const standin = await startStripeStandin({
    port: Number(process.env.STRIPE_STANDIN_PORT ?? 12111),
    webhookUrl: process.env.STRIPE_WEBHOOK_URL || null,
    webhookSecret: process.env.STRIPE_WEBHOOK_SECRET || "whsec_local_modelify_standin",
  });
  console.log(`Stripe stand-in listening on ${standin.url} (webhooks: ${process.env.STRIPE_WEBHOOK_URL || "none"})`);
  for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => standin.close().then(() => process.exit(0)));
}
