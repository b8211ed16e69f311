// The document's hydration code is fetched after its first paint (ADR 0016).
//
// React Router's <Scripts> preloads every module of the page in the <head> and bootstraps them from
// an inline module script whose static imports the browser fetches the moment it parses it. On a
// slow connection those 16 to 20 files share the bandwidth with the stylesheet and the font the
// first paint waits for, although the page is complete HTML without them (every form works before
// hydration). This rewrite of the stream:
// - takes the module preloads out of the <head>, remembering their addresses;
// - turns the bootstrap into an inert script (a type the browser does not run);
// - adds a small script that, once the page has painted its content, adds the preloads and runs
//   the bootstrap as the module it was.
// Total bytes and the order of the modules are unchanged; the fetches start a frame after the first
// paint instead of during parsing. <Scripts> takes no options for any of this, hence the rewrite.

import { Buffer } from "node:buffer";

const PRELOAD_LINK = /<link rel="modulepreload" href="([^"]+)"[^>]*\/>/g;
export const INERT_TYPE = "modelify/after-first-paint";

/**
 * The classic script that starts the bootstrap once the browser reports the first contentful paint
 * (Paint Timing, reported after the frame is on screen). Without that API it waits a frame; a hidden
 * page never paints, so it starts at once. The modules keep the low priority React gives its own.
 */
function starter(nonce: string, preloads: string[]): string {
  // JSON in a script: "<" escaped so no address can end the element.
  const hrefs = JSON.stringify(preloads).replaceAll("<", "\\u003c");
  return (
    `<script nonce="${nonce}">(function(){var d=document,done=0;function go(){if(done)return;done=1;` +
    `var s=d.querySelector('script[type="${INERT_TYPE}"]');if(!s)return;` +
    `${hrefs}.forEach(function(h){var l=d.createElement("link");l.rel="modulepreload";l.fetchPriority="low";l.href=h;l.nonce=s.nonce;d.head.appendChild(l)});` +
    `var m=d.createElement("script");m.type="module";m.fetchPriority="low";m.nonce=s.nonce;m.textContent=s.textContent;d.body.appendChild(m)}` +
    `if(d.visibilityState==="hidden")return go();` +
    `var P=window.PerformanceObserver;if(P&&(P.supportedEntryTypes||[]).indexOf("paint")>=0){` +
    `new P(function(list,o){if(list.getEntriesByName("first-contentful-paint").length){o.disconnect();go()}}).observe({type:"paint",buffered:true});` +
    `d.addEventListener("visibilitychange",go,{once:true})}` +
    `else requestAnimationFrame(function(){setTimeout(go,0)})})()</script>`
  );
}

// The document is handled as bytes: the head (a few KB) is decoded to take its preloads out, the
// bootstrap's start tag is found with a native byte search, and everything else goes through as
// the chunks React wrote. Decoding, scanning and encoding the whole document was 5-6% of an
// uncached page's CPU (bench/profile.mjs).
const utf8 = new TextEncoder();
const HEAD_END = Buffer.from("</head>");
// Only React Router's bootstrap is a module script: text and attribute values have their quotes
// escaped, so these bytes cannot come from content.
const BOOTSTRAP_TYPE = Buffer.from(' type="module" async="">');
const SCRIPT_START = Buffer.from("<script");
const SCRIPT_END = Buffer.from("</script>");
const NONCE_ATTRIBUTE = /^<script nonce="([^"]*)"$/;
// Bytes kept back at a chunk's end while the bootstrap is looked for: its start tag, nonce
// included, is well under this, so it is never sent before it is recognised.
const CARRY = 256;

const view = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

type Phase = "head" | "bootstrap" | "pass";

/** Rewrites a streamed HTML document so its hydration modules load after its first paint. */
export function hydrateAfterFirstPaint(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  let phase: Phase = "head";
  let held: Uint8Array = new Uint8Array(0);
  const preloads: string[] = [];
  const decoder = new TextDecoder();

  // Sends what can go out of `data` and keeps the rest in `held`.
  function step(data: Uint8Array, send: (bytes: Uint8Array) => void): void {
    if (phase === "head") {
      const end = view(data).indexOf(HEAD_END);
      if (end < 0) {
        held = data;
        return;
      }
      // "</head>" starts a character, so the head decodes whole.
      const head = decoder.decode(data.subarray(0, end)).replace(PRELOAD_LINK, (_, href: string) => {
        preloads.push(href);
        return "";
      });
      send(utf8.encode(head));
      phase = "bootstrap";
      step(data.subarray(end), send);
      return;
    }
    if (phase === "bootstrap") {
      const bytes = view(data);
      const type = bytes.indexOf(BOOTSTRAP_TYPE);
      const open = type < 0 ? -1 : bytes.lastIndexOf(SCRIPT_START, type);
      const nonce = open < 0 ? null : NONCE_ATTRIBUTE.exec(decoder.decode(data.subarray(open, type)));
      if (!nonce) {
        const keep = Math.max(0, data.length - CARRY);
        if (keep > 0) send(data.subarray(0, keep));
        held = data.subarray(keep);
        return;
      }
      const close = bytes.indexOf(SCRIPT_END, type);
      if (close < 0) {
        if (open > 0) send(data.subarray(0, open));
        held = data.subarray(open);
        return;
      }
      const afterClose = close + SCRIPT_END.length;
      send(data.subarray(0, open));
      send(utf8.encode(`<script nonce="${nonce[1]}" type="${INERT_TYPE}">`));
      send(data.subarray(type + BOOTSTRAP_TYPE.length, afterClose));
      send(utf8.encode(starter(nonce[1] ?? "", preloads)));
      phase = "pass";
      held = new Uint8Array(0);
      if (afterClose < data.length) send(data.subarray(afterClose));
      return;
    }
    send(data);
  }

  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (phase === "pass") {
          controller.enqueue(chunk);
          return;
        }
        const data = join(held, chunk);
        held = new Uint8Array(0);
        step(data, (bytes) => controller.enqueue(bytes));
      },
      flush(controller) {
        // A document cut short (or without a bootstrap) goes out as it came.
        if (held.length) controller.enqueue(held);
      },
    }),
  );
}
