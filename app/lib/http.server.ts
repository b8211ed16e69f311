// Reading request bodies defensively: size-capped, and a malformed body is a 4xx, never a 500.
export const FORM_MAX_BYTES = 32 * 1024;
export const JSON_MAX_BYTES = 32 * 1024;

export class BadRequest extends Error {
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

/** A conform SubmissionResult that carries one form-level error. */
export function formErrorResult(message: string) {
  return { status: "error" as const, error: { "": [message] } };
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

const REDIRECT_BASE = "http://modelify.invalid";

/**
 * Only same-site paths: never an open redirect. Browsers drop tabs and newlines and read a
 * backslash as a slash, so `/<TAB>/evil.example` would leave the site: such characters are
 * refused, and what is left must resolve to our own origin.
 */
export function safeRedirectPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length > 2048 || !value.startsWith("/")) return fallback;
  if (/[\p{Cc}\s\\]/u.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, REDIRECT_BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== REDIRECT_BASE) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
