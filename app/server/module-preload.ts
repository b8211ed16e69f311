// React Router's <Scripts> preloads every module of the page with <link rel="modulepreload">,
// which Chromium fetches at High priority, and React hoists those links above the stylesheet. On
// a slow connection the hydration code then shares the bandwidth with the CSS and the font the
// first paint waits for. The page is complete HTML without them (every form works before
// hydration), so they are marked fetchpriority="low", as React itself marks the modules it
// bootstraps. <Scripts> takes no attributes for these links, hence the rewrite of the <head>.
const encoder = new TextEncoder();
const PRELOAD = encoder.encode('<link rel="modulepreload" ');
const LOW = encoder.encode('fetchpriority="low" ');
const HEAD_END = encoder.encode("</head>");
const LT = 0x3c;

// Byte-wise, so a character cut in two by a chunk boundary stays intact: the patterns are ASCII,
// and no byte of a multi-byte UTF-8 character is.
function indexOf(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  outer: for (let i = from; i <= haystack.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

const startsWith = (whole: Uint8Array, part: Uint8Array) => part.length <= whole.length && part.every((byte, i) => whole[i] === byte);

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function lowered(bytes: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  let from = 0;
  for (let at = indexOf(bytes, PRELOAD); at >= 0; at = indexOf(bytes, PRELOAD, from)) {
    parts.push(bytes.subarray(from, at + PRELOAD.length), LOW);
    from = at + PRELOAD.length;
  }
  if (from === 0) return bytes;
  parts.push(bytes.subarray(from));
  return concat(parts);
}

/** Marks the module preloads of the document's <head> low priority; the rest of the stream passes through untouched. */
export function lowPriorityModulePreloads(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  let held: Uint8Array = new Uint8Array(0);
  let inHead = true;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (!inHead) {
          controller.enqueue(chunk);
          return;
        }
        const bytes = held.length ? concat([held, chunk]) : chunk;
        const end = indexOf(bytes, HEAD_END);
        if (end >= 0) {
          inHead = false;
          held = new Uint8Array(0);
          controller.enqueue(concat([lowered(bytes.subarray(0, end)), bytes.subarray(end)]));
          return;
        }
        // Hold back a tag cut in two by the chunk boundary (only a "<" can start one).
        const last = bytes.lastIndexOf(LT);
        const tail = last >= 0 ? bytes.subarray(last) : null;
        const cut = tail && (startsWith(PRELOAD, tail) || startsWith(HEAD_END, tail)) ? last : bytes.length;
        if (cut > 0) controller.enqueue(lowered(bytes.subarray(0, cut)));
        held = bytes.slice(cut);
      },
      flush(controller) {
        if (held.length) controller.enqueue(held);
      },
    }),
  );
}
