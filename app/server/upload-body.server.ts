// Reading one uploaded file from a request: a raw body (XMLHttpRequest with upload progress) or
// a multipart form's `file` field (the form that works without JavaScript). The size cap holds
// whatever Content-Length says: a declared size over the cap is refused before reading, and the
// bytes are counted while they arrive, so a lying or missing Content-Length cannot get a bigger
// body through or make the Worker buffer it.

// The form's boundaries, part headers and file name around the file itself.
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
// After refusing a body that grew past the cap, this much more is read and dropped so the client
// gets our answer rather than a reset connection (see drainUnreadBody in ./requests); then we stop.
const DISCARD_MAX_BYTES = 16 * 1024 * 1024;

export type UploadBody =
  | { ok: true; bytes: Uint8Array<ArrayBuffer> }
  | {
      ok: false;
      /** too-large: over the cap; unsupported: neither an image/octet-stream body nor a form; no-file: a form without a file; unreadable: a broken body. */
      reason: "too-large" | "unsupported" | "no-file" | "unreadable";
    };

const isRawImageBody = (type: string) => type.startsWith("image/") || type.startsWith("application/octet-stream");

/** The uploaded file's bytes, at most `maxBytes`. The body is left unread when refused up front. */
export async function readUploadedFile(request: Request, maxBytes: number): Promise<UploadBody> {
  const type = (request.headers.get("Content-Type") ?? "").trim().toLowerCase();
  const multipart = type.startsWith("multipart/form-data");
  if (!multipart && !isRawImageBody(type)) return { ok: false, reason: "unsupported" };
  const cap = multipart ? maxBytes + MULTIPART_OVERHEAD_BYTES : maxBytes;
  const declared = request.headers.get("Content-Length");
  if (declared !== null && /^\d{1,15}$/.test(declared.trim()) && Number(declared) > cap) return { ok: false, reason: "too-large" };

  const read = await readAtMost(request.body, cap);
  if (!read.ok || !multipart) return read;
  let form: FormData;
  try {
    form = await new Response(read.bytes, { headers: { "Content-Type": request.headers.get("Content-Type")! } }).formData();
  } catch {
    return { ok: false, reason: "unreadable" };
  }
  const file = form.get("file");
  if (!(file instanceof File)) return { ok: false, reason: "no-file" };
  if (file.size > maxBytes) return { ok: false, reason: "too-large" };
  return { ok: true, bytes: new Uint8Array(await file.arrayBuffer()) };
}

async function readAtMost(body: ReadableStream<Uint8Array> | null, cap: number): Promise<UploadBody> {
  if (!body) return { ok: true, bytes: new Uint8Array(0) };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > cap) {
        chunks.length = 0;
        await discardRest(reader).catch(() => {});
        return { ok: false, reason: "too-large" };
      }
      chunks.push(value);
    }
  } catch {
    return { ok: false, reason: "unreadable" };
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}

async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let dropped = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    dropped += value.byteLength;
    if (dropped > DISCARD_MAX_BYTES) {
      await reader.cancel();
      return;
    }
  }
}
