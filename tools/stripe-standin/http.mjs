// HTTP plumbing shared by the API, control and page handlers: Stripe's error shape, its form encoding,
// parameter coercion, and small response helpers.

const MAX_BODY = 1024 * 1024;
// Keys that would let a form body reach Object.prototype through the bracket parser.
const FORBIDDEN_KEYS = new Set(["__proto__", "prototype", "constructor"]);

/** An error answered as Stripe's `{ error: {...} }` body. */
export class StripeError extends Error {
  constructor(status, message, { type = "invalid_request_error", code, param } = {}) {
    super(message);
    Object.assign(this, { status, type, code, param });
  }
  get body() {
    return { error: { type: this.type, ...(this.code && { code: this.code }), message: this.message, ...(this.param && { param: this.param }) } };
  }
}
export const noSuch = (kind, id, { status = 404, param = "id" } = {}) =>
  new StripeError(status, `No such ${kind}: '${id}'`, { code: "resource_missing", param });
export const missingParam = (param) => new StripeError(400, `Missing required param: ${param}.`, { code: "parameter_missing", param });

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

// Form values arrive as strings; these coerce them, answering a 400 in Stripe's words when they cannot.
export const bool = (value, param) => {
  if (value === undefined || value === true || value === false) return value;
  if (value === "true" || value === "false") return value === "true";
  throw new StripeError(400, `Invalid boolean: ${value}`, { param });
};
export const str = (value, param) => {
  if (value === undefined || typeof value === "string") return value;
  throw new StripeError(400, `Invalid string: expected a string for ${param}`, { param });
};
export const int = (value, param, min, max) => {
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new StripeError(400, `Invalid integer: ${value}`, { param });
  return n;
};
export const metadataParam = (value, param = "metadata") => {
  if (value === undefined || value === "") return {};
  const bad = typeof value !== "object" || Array.isArray(value) || Object.values(value).some((v) => typeof v !== "string");
  if (bad) throw new StripeError(400, "Invalid object: metadata takes string values (metadata[key]=value).", { param });
  return { ...value };
};
/** Stripe merges metadata on update; an empty string deletes the key. */
export const mergeMetadata = (target, update) => {
  for (const [k, v] of Object.entries(metadataParam(update))) {
    if (v === "") delete target[k];
    else target[k] = String(v);
  }
};

export const readBody = (req) =>
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

export const send = (res, status, body, type = "application/json", headers = {}) => {
  const payload = typeof body === "string" || Buffer.isBuffer(body) ? body : JSON.stringify(body, null, 2);
  res.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store", ...headers });
  res.end(payload);
};
export const html = (res, status, body) => send(res, status, body, "text/html; charset=utf-8");
export const redirect = (res, location) => send(res, 303, "", "text/plain", { Location: location });

/** Answers any error thrown by a handler; only unexpected ones are logged, as they point at a stand-in bug. */
export const sendError = (req, res, err) => {
  // A URIError comes from decodeURIComponent on a malformed path: the client's fault, not ours.
  const known = err instanceof StripeError || err instanceof URIError;
  if (!known) console.error(`[stripe-standin] ${req.method} ${req.url}:`, err);
  const error =
    err instanceof StripeError
      ? err
      : new StripeError(known ? 400 : 500, known ? "Malformed request." : "Internal stand-in error.", { type: known ? "invalid_request_error" : "api_error" });
  if (res.headersSent) res.end();
  else send(res, error.status, error.body);
};
