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
//
// It works on the finished document's bytes (entry.server.tsx renders the whole page before it
// answers): the preload tags and the bootstrap's start tag are found by native byte searches and
// the answer is put together from slices of the original, so nothing is decoded or encoded but
// the few tags that change. Decoding, scanning and encoding the streamed document as text was
// 5-6% of an uncached page's CPU (bench/profile.mjs, docs/performance.md).

import { Buffer } from "node:buffer";

export const INERT_TYPE = "modelify/after-first-paint";

const utf8 = new TextEncoder();
const HEAD_END = Buffer.from("</head>");
const PRELOAD_START = Buffer.from('<link rel="modulepreload" href="');
const QUOTE = Buffer.from('"');
const TAG_END = Buffer.from(">");
// Only React Router's bootstrap is a module script: text and attribute values have their quotes
// escaped, so these bytes cannot come from content.
const BOOTSTRAP_TYPE = Buffer.from(' type="module" async="">');
const SCRIPT_START = Buffer.from("<script");
const SCRIPT_END = Buffer.from("</script>");
const NONCE_ATTRIBUTE = /^<script nonce="([^"]*)"$/;

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

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Rewrites a rendered HTML document so its hydration modules load after its first paint. */
export function hydrateAfterFirstPaint(html: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const doc = Buffer.from(html.buffer, html.byteOffset, html.byteLength);
  const headEnd = doc.indexOf(HEAD_END);
  // A document cut short goes out as it came.
  if (headEnd < 0) return html;
  const parts: Uint8Array[] = [];
  const preloads: string[] = [];
  let at = 0;
  for (let link = doc.indexOf(PRELOAD_START); link >= 0 && link < headEnd; link = doc.indexOf(PRELOAD_START, at)) {
    const hrefStart = link + PRELOAD_START.length;
    const hrefEnd = doc.indexOf(QUOTE, hrefStart);
    const tagEnd = hrefEnd < 0 ? -1 : doc.indexOf(TAG_END, hrefEnd);
    if (tagEnd < 0 || tagEnd > headEnd) break;
    parts.push(html.subarray(at, link));
    preloads.push(doc.toString("utf8", hrefStart, hrefEnd));
    at = tagEnd + TAG_END.length;
  }
  const type = doc.indexOf(BOOTSTRAP_TYPE, headEnd);
  const open = type < 0 ? -1 : doc.lastIndexOf(SCRIPT_START, type);
  const nonce = open < headEnd ? null : NONCE_ATTRIBUTE.exec(doc.toString("utf8", open, type))?.[1];
  const close = nonce === null || nonce === undefined ? -1 : doc.indexOf(SCRIPT_END, type);
  // Without a bootstrap (an error page, a document cut short) the rest goes out as it came.
  if (close < 0 || nonce === null || nonce === undefined) {
    parts.push(html.subarray(at));
    return concat(parts);
  }
  const afterClose = close + SCRIPT_END.length;
  parts.push(
    html.subarray(at, open),
    utf8.encode(`<script nonce="${nonce}" type="${INERT_TYPE}">`),
    html.subarray(type + BOOTSTRAP_TYPE.length, afterClose),
    utf8.encode(starter(nonce, preloads)),
    html.subarray(afterClose),
  );
  return concat(parts);
}
