// /__control/*: test hooks that real Stripe does not have (JSON in and out, no API key). They let tests
// inject failures, expire sessions, re-send or forge events, redirect webhooks and start over.
import { int, missingParam, noSuch, readBody, send, StripeError } from "./http.mjs";

/** A rule's optional narrowing: a text the call's parameters must hold (tests share one stand-in). */
function matchingOf(input) {
  if (input.matching === undefined || input.matching === null) return undefined;
  if (typeof input.matching !== "string" || !input.matching) throw new StripeError(400, "matching must be a non-empty string.");
  return input.matching;
}

/**
 * @param {{ state: ReturnType<typeof import("./state.mjs").createState>, webhooks: ReturnType<typeof import("./webhooks.mjs").createWebhooks> }} deps
 */
export function createControl({ state, webhooks }) {
  return async function handleControl(req, res, path) {
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
      webhooks.setUrl(input.url);
      return send(res, 200, { ok: true, webhookUrl: webhooks.url });
    }
    if (route === "POST /__control/fail-next") {
      state.failRules.push({
        method: input.method ? String(input.method).toUpperCase() : undefined,
        path: input.path,
        matching: matchingOf(input),
        status: int(input.status, "status", 400, 599) ?? 500,
        message: input.message ?? "Something went wrong",
        type: input.type ?? "api_error",
      });
      return send(res, 200, { ok: true });
    }
    // The next matching call waits, unanswered, until release: a test sees the app while a call to
    // Stripe is in flight (e.g. a data export being prepared).
    if (route === "POST /__control/hold-next") {
      let release = () => {};
      const released = new Promise((resolve) => {
        release = resolve;
      });
      state.holdRules.push({
        method: input.method ? String(input.method).toUpperCase() : undefined,
        path: input.path,
        matching: matchingOf(input),
        released,
        release,
      });
      return send(res, 200, { ok: true });
    }
    if (route === "POST /__control/release") {
      const waiting = state.held.length;
      for (const hold of [...state.holdRules, ...state.held]) hold.release();
      state.holdRules = [];
      state.held = [];
      return send(res, 200, { ok: true, released: waiting });
    }
    if (route === "POST /__control/expire-next-session") {
      state.expireNextSession = matchingOf(input) ?? true;
      return send(res, 200, { ok: true });
    }
    if (route === "POST /__control/resend") {
      const event = state.get("events", "event", input.eventId);
      return send(res, 200, { ok: true, delivered: await webhooks.deliver(event) });
    }
    if (route === "POST /__control/emit") {
      if (typeof input.type !== "string" || !input.type) throw missingParam("type");
      // Only objects that events are about; a payment method or event cannot be the subject of one here.
      const object = ["cus_", "cs_", "sub_", "in_"].some((p) => String(input.objectId).startsWith(p)) ? state.lookup(input.objectId) : undefined;
      if (!object) throw noSuch("object", input.objectId, { param: "objectId" });
      const outbox = [];
      const event = state.emit(outbox, input.type, object);
      await webhooks.flush(outbox);
      return send(res, 200, event);
    }
    if (route === "POST /__control/reset") {
      state.reset();
      return send(res, 200, { ok: true });
    }
    throw new StripeError(404, `Unknown control endpoint (${route}).`);
  };
}
