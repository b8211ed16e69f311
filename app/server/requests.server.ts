// Reading requests defensively: bodies size-capped (a malformed body is a 4xx, never a 500), a
// body a route did not read drained before the answer, a query parameter, the client's country.
import { REQUEST_BODY } from "~/lib/constants";
import { COUNTRY_CODE } from "~/lib/country";

const FORM_MAX_BYTES = REQUEST_BODY.formMaxBytes;
const JSON_MAX_BYTES = REQUEST_BODY.jsonMaxBytes;

class BadRequest extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

async function readCapped(request: Request, maxBytes: number): Promise<ArrayBuffer> {
  const declared = Number(request.headers.get("Content-Length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) throw new BadRequest(413, "Request body is too large.");
  if (!request.body) return new ArrayBuffer(0);
  // A declared length is the body's length (HTTP frames the body by it): read it whole.
  if (Number.isFinite(declared)) return request.arrayBuffer();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new BadRequest(413, "Request body is too large.");
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out.buffer;
}

export type FormRead = { ok: true; formData: FormData } | { ok: false; status: 400 | 413 | 415; message: string };

/** Form posts from our pages: urlencoded or multipart, at most maxBytes. */
export async function readForm(request: Request, maxBytes = FORM_MAX_BYTES): Promise<FormRead> {
  try {
    const type = request.headers.get("Content-Type") ?? "";
    if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data")) {
      throw new BadRequest(415, "Please submit the form from the page.");
    }
    const body = await readCapped(request, maxBytes);
    return { ok: true, formData: await new Response(body, { headers: { "Content-Type": type } }).formData() };
  } catch (error) {
    if (error instanceof BadRequest) return { ok: false, status: error.status, message: error.message };
    return { ok: false, status: 400, message: "The form could not be read. Please try again." };
  }
}

/** A form field sent exactly once; a repeated field is a malformed form, not a choice of values. */
export function singleValue(form: FormData, name: string): FormDataEntryValue | undefined {
  const values = form.getAll(name);
  return values.length === 1 ? values[0] : undefined;
}

/** JSON bodies of the API: { "error": "…" } answers for anything malformed. */
export async function readJson(request: Request, maxBytes = JSON_MAX_BYTES): Promise<unknown> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.toLowerCase().startsWith("application/json")) {
    throw Response.json({ error: "Content-Type must be application/json" }, { status: 415 });
  }
  let body: ArrayBuffer;
  try {
    body = await readCapped(request, maxBytes);
  } catch (error) {
    if (error instanceof BadRequest) throw Response.json({ error: error.message }, { status: error.status });
    throw Response.json({ error: "Request body could not be read" }, { status: 400 });
  }
  try {
    return JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw Response.json({ error: "Request body is not valid JSON" }, { status: 400 });
  }
}

/**
 * A POST of the API that takes no body (e.g. the entitlement claim): nothing, or `{}` (many HTTP
 * clients send an empty JSON object with every POST). Anything else is refused with a 4xx, so a
 * client that believes it sends parameters learns that they are not read.
 */
export async function readEmptyBody(request: Request, maxBytes: number): Promise<void> {
  let body: ArrayBuffer;
  try {
    body = await readCapped(request, maxBytes);
  } catch (error) {
    if (error instanceof BadRequest) throw Response.json({ error: "This request takes no body" }, { status: error.status });
    throw Response.json({ error: "Request body could not be read" }, { status: 400 });
  }
  const text = new TextDecoder().decode(body).trim();
  if (text === "") return;
  const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
  if (!type.startsWith("application/json")) throw Response.json({ error: "This request takes no body (or an empty JSON object)" }, { status: 415 });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw Response.json({ error: "Request body is not valid JSON" }, { status: 400 });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value) || Object.keys(value).length > 0)
    throw Response.json({ error: "This request takes no body (or an empty JSON object)" }, { status: 400 });
}

/**
 * A POST of the API whose JSON body is optional (e.g. the entitlement claim): nothing reads as
 * undefined; anything else must be JSON, within `maxBytes`.
 */
export async function readOptionalJson(request: Request, maxBytes: number): Promise<unknown> {
  let body: ArrayBuffer;
  try {
    body = await readCapped(request, maxBytes);
  } catch (error) {
    if (error instanceof BadRequest) throw Response.json({ error: error.message }, { status: error.status });
    throw Response.json({ error: "Request body could not be read" }, { status: 400 });
  }
  const text = new TextDecoder().decode(body).trim();
  if (text === "") return undefined;
  if (!(request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("application/json")) {
    throw Response.json({ error: "Content-Type must be application/json" }, { status: 415 });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw Response.json({ error: "Request body is not valid JSON" }, { status: 400 });
  }
}

/**
 * A query parameter with "+" read as a plus, not as a space: a phone number in E.164 (or an
 * address such as a+b@example.com) typed into a URL unencoded must arrive as it was written.
 */
export function queryParamKeepingPlus(url: URL, name: string): string | null {
  return new URLSearchParams(url.search.replace(/\+/g, "%2B")).get(name);
}

// Bytes of an unread request body read and dropped before answering (see drainUnreadBody).
const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Reads what is left of a request body the route did not need (a 401 before the body, a GET
 * with a body) before the answer goes out. The local runtime (wrangler dev's entry worker)
 * otherwise fails such exchanges with its own 500 once the client's upload is cut off, and a
 * body that breaks HTTP framing gets a 400 here instead of a 500 there.
 */
export async function drainUnreadBody(request: Request, response: Response): Promise<Response> {
  if (!request.body || request.bodyUsed) return response;
  const reader = request.body.getReader();
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return response;
      read += value.byteLength;
      if (read > DRAIN_MAX_BYTES) {
        await reader.cancel();
        return response;
      }
    }
  } catch {
    return new Response("Malformed request body", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
}

/** The client's country as Cloudflare saw it (two letters; XX unknown, T1 Tor), or null. */
export function requestCountry(request: Request): string | null {
  const country = (request as Request & { cf?: { country?: unknown } }).cf?.country;
  return typeof country === "string" && COUNTRY_CODE.test(country) && country !== "XX" ? country : null;
}

const OAUTH_BODY_TYPES = "Content-Type must be application/x-www-form-urlencoded or application/json";

/**
 * An OAuth endpoint's body: RFC 6749 clients send application/x-www-form-urlencoded; the desktop
 * app's older versions send JSON. A repeated form field is malformed (RFC 6749 3.1).
 */
export async function readOAuthBody(request: Request): Promise<Record<string, unknown>> {
  const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
  // Both encodings are read, so a 415 names both (readJson's own would name JSON only).
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("application/json")) {
    throw Response.json({ error: "invalid_request", error_description: OAUTH_BODY_TYPES }, { status: 415 });
  }
  if (type.startsWith("application/x-www-form-urlencoded")) {
    const read = await readForm(request);
    if (!read.ok) throw Response.json({ error: "invalid_request", error_description: read.message }, { status: read.status });
    const fields: Record<string, unknown> = {};
    for (const key of new Set(read.formData.keys())) {
      const value = singleValue(read.formData, key);
      if (typeof value !== "string") throw Response.json({ error: "invalid_request", error_description: `${key} is repeated` }, { status: 400 });
      fields[key] = value;
    }
    return fields;
  }
  let body: unknown;
  try {
    body = await readJson(request);
  } catch (error) {
    // readJson's answers ({ error: "…" }) in RFC 6749's shape, with the same status.
    if (!(error instanceof Response)) throw error;
    const { error: description } = await error.json<{ error: string }>();
    throw Response.json({ error: "invalid_request", error_description: description }, { status: error.status });
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw Response.json({ error: "invalid_request", error_description: "The body must be a JSON object" }, { status: 400 });
  return body as Record<string, unknown>;
}
