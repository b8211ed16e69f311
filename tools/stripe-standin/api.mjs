// The /v1/* REST API: the endpoints Modelify's server code calls, answering as Stripe does (form-encoded
// requests, JSON answers, `expand`, idempotency keys, Stripe's error bodies).
import { bool, int, metadataParam, mergeMetadata, missingParam, noSuch, parseStripeForm, readBody, send, str, StripeError } from "./http.mjs";
import { itemsChange, MAX_QUANTITY, prorationRoutes } from "./proration.mjs";
import { API_VERSION, checkoutSessionObject, clone, customerObject, DAY, listObject, newId, now, portalSessionObject, priceById } from "./stripe-objects.mjs";

/** A list answer with the request's `limit` (10 unless asked, as Stripe's default). */
const list = (url, items, params) => listObject(url, items, int(params.limit, "limit", 1, 100) ?? 10);

/** Replaces id fields with full objects. Intermediate ids on a dotted path are expanded too, as Stripe does. */
function expand(state, object, paths) {
  const out = clone(object);
  for (const path of [].concat(paths ?? [])) {
    const keys = String(path).split(".");
    let parent = out;
    keys.forEach((key, i) => {
      if (!parent || typeof parent !== "object") return;
      if (typeof parent[key] === "string") {
        const found = state.lookup(parent[key]);
        if (!found) throw new StripeError(400, `This property cannot be expanded (${path}).`, { param: "expand" });
        parent[key] = clone(found);
      } else if (parent[key] === undefined) throw new StripeError(400, `This property cannot be expanded (${path}).`, { param: "expand" });
      parent = i < keys.length - 1 ? parent[key] : null;
    });
  }
  return out;
}

/** The answer's body with the request's `expand[]` applied. On a list, `data.x` expands x on every item. */
function expandedBody(state, result, params) {
  const paths = [].concat(params.expand ?? []).map(String);
  if (result.object !== "list") return expand(state, result, paths);
  const itemPaths = paths.filter((x) => x.startsWith("data.")).map((x) => x.slice(5));
  return { ...result, data: result.data.map((o) => expand(state, o, itemPaths)) };
}

// Each route is [method, path, handler(params, match, outbox)]; the handler returns the object to
// answer (expanded by the caller).

/** Customers, their payment methods, and the one price. */
function customerRoutes(state) {
  return [
    [
      "POST",
      /^\/v1\/customers$/,
      (p) => {
        const customer = customerObject({
          email: str(p.email, "email") || null,
          name: str(p.name, "name") || null,
          description: str(p.description, "description") || null,
          metadata: metadataParam(p.metadata),
        });
        state.customers.set(customer.id, customer);
        return customer;
      },
    ],
    [
      "GET",
      /^\/v1\/customers$/,
      (p) =>
        list(
          "/v1/customers",
          state.newest("customers").filter((c) => !p.email || c.email === p.email),
          p,
        ),
    ],
    ["GET", /^\/v1\/customers\/([^/]+)$/, (_p, [, id]) => state.get("customers", "customer", id)],
    [
      "POST",
      /^\/v1\/customers\/([^/]+)$/,
      (p, [, id]) => {
        const customer = state.get("customers", "customer", id);
        for (const k of ["email", "name", "description"]) if (p[k] !== undefined) customer[k] = str(p[k], k) || null;
        mergeMetadata(customer.metadata, p.metadata);
        return customer;
      },
    ],
    [
      "GET",
      /^\/v1\/customers\/([^/]+)\/payment_methods$/,
      (p, [, id]) => {
        state.get("customers", "customer", id);
        const methods = state.newest("paymentMethods").filter((pm) => pm.customer === id && (!p.type || pm.type === p.type));
        return list(`/v1/customers/${id}/payment_methods`, methods, p);
      },
    ],
    ["GET", /^\/v1\/payment_methods\/([^/]+)$/, (_p, [, id]) => state.get("paymentMethods", "PaymentMethod", id)],
    [
      "GET",
      /^\/v1\/prices\/([^/]+)$/,
      (_p, [, id]) => {
        const price = priceById(id);
        if (!price) throw noSuch("price", id);
        return price;
      },
    ],
  ];
}

/** POST /v1/checkout/sessions: a subscription checkout for one price, answered as the open session. */
function createCheckoutSession(state, publicUrl, p) {
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
  const quantity = int(item.quantity, "line_items[0][quantity]", 1, MAX_QUANTITY) ?? 1;
  if (!p.success_url) throw missingParam("success_url");
  if (!p.cancel_url) throw missingParam("cancel_url");
  const sub = p.subscription_data ?? {};
  const trialDays = int(sub.trial_period_days, "subscription_data[trial_period_days]", 1, 730) ?? 0;
  const t = now();
  // /__control/expire-next-session: the next session, or the next for a client reference it names.
  const expires = state.expireNextSession === true || (typeof state.expireNextSession === "string" && state.expireNextSession === p.client_reference_id);
  const id = newId("cs_test_");
  const session = checkoutSessionObject({
    id,
    customer: customer.id,
    clientReferenceId: p.client_reference_id || null,
    url: `${publicUrl()}/checkout/${id}`,
    successUrl: p.success_url,
    cancelUrl: p.cancel_url,
    expiresAt: expires ? t - 60 : t + DAY,
    created: t,
    metadata: metadataParam(p.metadata),
    amount: price.unit_amount * quantity,
  });
  if (expires) state.expireNextSession = false;
  state.sessions.set(id, session);
  state.sessionExtras.set(id, { trialDays, subscriptionMetadata: metadataParam(sub.metadata, "subscription_data[metadata]"), price, quantity });
  return session;
}

/** Checkout sessions: created, read and expired here, paid on the hosted page (pages.mjs). */
function checkoutRoutes(state, publicUrl) {
  return [
    ["POST", /^\/v1\/checkout\/sessions$/, (p) => createCheckoutSession(state, publicUrl, p)],
    [
      "GET",
      /^\/v1\/checkout\/sessions\/([^/]+)$/,
      (_p, [, id]) => {
        const session = state.get("sessions", "checkout.session", id);
        state.sessionStatus(session);
        return session;
      },
    ],
    [
      "POST",
      /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/,
      (_p, [, id], outbox) => {
        const session = state.get("sessions", "checkout.session", id);
        if (state.sessionStatus(session) !== "open") {
          throw new StripeError(
            400,
            `Only Checkout Sessions with a status of 'open' can be expired. This Checkout Session has a status of '${session.status}'.`,
          );
        }
        Object.assign(session, { status: "expired", url: null });
        state.emit(outbox, "checkout.session.expired", session);
        return session;
      },
    ],
  ];
}

/** Subscriptions: listed, read, updated (cancel at period end, metadata, trial end, quantity) and canceled. */
function subscriptionRoutes(state) {
  return [
    [
      "GET",
      /^\/v1\/subscriptions$/,
      (p) => {
        // Stripe leaves canceled subscriptions out unless asked for by status.
        const status = p.status ?? "";
        const subs = state
          .newest("subscriptions")
          .filter((s) => (!p.customer || s.customer === p.customer) && (status === "all" || (status ? s.status === status : s.status !== "canceled")));
        return list("/v1/subscriptions", subs, p);
      },
    ],
    ["GET", /^\/v1\/subscriptions\/([^/]+)$/, (_p, [, id]) => state.get("subscriptions", "subscription", id)],
    [
      "POST",
      /^\/v1\/subscriptions\/([^/]+)$/,
      (p, [, id], outbox) => {
        const sub = state.get("subscriptions", "subscription", id);
        if (p.trial_end !== undefined && p.trial_end !== "now") throw new StripeError(400, "This stand-in accepts only trial_end=now.", { param: "trial_end" });
        state.updateSubscription(
          sub,
          {
            cancelAtPeriodEnd: bool(p.cancel_at_period_end, "cancel_at_period_end"),
            metadata: p.metadata,
            trialEnd: p.trial_end,
            seats: itemsChange(p) ?? undefined,
          },
          outbox,
        );
        return sub;
      },
    ],
    [
      "DELETE",
      /^\/v1\/subscriptions\/([^/]+)$/,
      (p, [, id], outbox) => {
        const sub = state.get("subscriptions", "subscription", id);
        // Accepted (and validated) for the SDK's sake; there is nothing to prorate or invoice here.
        bool(p.prorate, "prorate");
        bool(p.invoice_now, "invoice_now");
        if (sub.status === "canceled") throw new StripeError(400, `This subscription is already canceled: '${id}'`);
        const t = now();
        Object.assign(sub, { status: "canceled", canceled_at: t, ended_at: t, cancel_at: null });
        state.emit(outbox, "customer.subscription.deleted", sub);
        return sub;
      },
    ],
  ];
}

/** Invoices, the customer portal's sessions and the events. */
function billingRoutes(state, publicUrl) {
  return [
    [
      "GET",
      /^\/v1\/invoices$/,
      (p) => {
        const invoices = state
          .newest("invoices")
          .filter(
            (i) =>
              (!p.customer || i.customer === p.customer) &&
              (!p.subscription || i.parent?.subscription_details?.subscription === p.subscription) &&
              (!p.status || i.status === p.status),
          );
        return list("/v1/invoices", invoices, p);
      },
    ],
    ["GET", /^\/v1\/invoices\/([^/]+)$/, (_p, [, id]) => state.get("invoices", "invoice", id)],
    [
      "POST",
      /^\/v1\/billing_portal\/sessions$/,
      (p) => {
        if (!str(p.customer, "customer")) throw missingParam("customer");
        str(p.return_url, "return_url");
        if (!state.customers.has(p.customer)) throw noSuch("customer", p.customer, { status: 400, param: "customer" });
        const id = newId("bps_");
        const session = portalSessionObject({ id, customer: p.customer, returnUrl: p.return_url || null, url: `${publicUrl()}/portal/${id}` });
        state.portalSessions.set(id, session);
        return session;
      },
    ],
    [
      "GET",
      /^\/v1\/events$/,
      (p) =>
        list(
          "/v1/events",
          state.newest("events").filter((e) => !p.type || e.type === p.type),
          p,
        ),
    ],
    ["GET", /^\/v1\/events\/([^/]+)$/, (_p, [, id]) => state.get("events", "event", id)],
  ];
}

/**
 * Whether a control rule applies to this call: its method, its path and, where the rule names one,
 * a text the call's parameters hold (`matching`, e.g. a customer or an account id), so a test's
 * rule is not taken by another test's call to the same path.
 */
function ruleApplies(rule, req, url, raw) {
  if (rule.method && rule.method !== req.method) return false;
  if (rule.path && rule.path !== url.pathname) return false;
  return !rule.matching || decodeURIComponent(`${url.search}&${raw}`.replaceAll("+", " ")).includes(rule.matching);
}

/** The failure /__control/fail-next injected for this call, if any: answered, and true. */
function answerInjectedFailure(state, req, res, url, headers, raw) {
  const rule = state.failRules.findIndex((r) => ruleApplies(r, req, url, raw));
  if (rule === -1) return false;
  const [r] = state.failRules.splice(rule, 1);
  // Stripe-Should-Retry: false keeps the SDK (which retries 5xx by default) from hiding the injected failure.
  send(res, r.status, { error: { type: r.type, message: r.message } }, "application/json", { ...headers, "Stripe-Should-Retry": "false" });
  return true;
}

/** Waits while /__control/hold-next holds this call (until /__control/release). */
async function waitWhileHeld(state, req, url, raw) {
  const held = state.holdRules.findIndex((r) => ruleApplies(r, req, url, raw));
  if (held === -1) return;
  const [hold] = state.holdRules.splice(held, 1);
  state.held.push(hold);
  await hold.released;
}

/**
 * Stripe's idempotency: the same key with the same request replays the first answer (returned
 * here); with a different request it is an error. Requests are handled one at a time, so two
 * racing requests with one key get one object.
 */
function idempotentReplay(state, key, fingerprint) {
  const replay = typeof key === "string" ? state.idempotency.get(key) : undefined;
  if (replay && replay.request !== fingerprint) {
    throw new StripeError(
      400,
      `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
      { type: "idempotency_error" },
    );
  }
  return replay;
}

/**
 * @param {{ state: ReturnType<typeof import("./state.mjs").createState>, webhooks: ReturnType<typeof import("./webhooks.mjs").createWebhooks>, publicUrl: () => string }} deps
 */
export function createApi({ state, webhooks, publicUrl }) {
  const routes = [
    ...customerRoutes(state),
    ...checkoutRoutes(state, publicUrl),
    ...subscriptionRoutes(state),
    ...prorationRoutes(state),
    ...billingRoutes(state, publicUrl),
  ];

  /** Handles one /v1/* request; errors are thrown and answered by the server's catch-all. */
  return async function handleApi(req, res, url) {
    const headers = { "Request-Id": newId("req_"), "Stripe-Version": API_VERSION };
    if (!/^Bearer sk_\S+$/.test(req.headers.authorization ?? "")) {
      return send(res, 401, { error: { type: "invalid_request_error", message: "Invalid API Key provided" } }, "application/json", headers);
    }
    const raw = req.method === "GET" ? "" : await readBody(req);
    if (answerInjectedFailure(state, req, res, url, headers, raw)) return;
    await waitWhileHeld(state, req, url, raw);
    const key = req.method === "POST" ? req.headers["idempotency-key"] : undefined;
    const fingerprint = `${req.method} ${url.pathname}?${url.search.slice(1)}&${raw}`;
    const replay = idempotentReplay(state, key, fingerprint);
    if (replay) return send(res, replay.status, replay.body, "application/json", { ...headers, "Idempotent-Replayed": "true" });
    const params = parseStripeForm(`${url.search.slice(1)}&${raw}`);
    const route = routes.find(([method, re]) => method === req.method && re.test(url.pathname));
    if (!route) {
      throw new StripeError(404, `Unrecognized request URL (${req.method}: ${url.pathname}). The Stripe stand-in does not implement this endpoint.`);
    }
    const outbox = [];
    const result = route[2](params, route[1].exec(url.pathname).map(decodeURIComponent), outbox);
    const body = expandedBody(state, result, params);
    if (typeof key === "string") state.idempotency.set(key, { request: fingerprint, status: 200, body });
    await webhooks.flush(outbox);
    send(res, 200, body, "application/json", headers);
  };
}
