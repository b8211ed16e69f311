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
// It works on the finished document (entry.server.tsx renders the whole page into one string
// before it answers): the preload tags and the bootstrap's start tag are found by plain searches
// and the answer is put together from slices of the original. Decoding, scanning and encoding the
// streamed document chunk by chunk was 5-6% of an uncached page's CPU (bench/profile.mjs,
// docs/performance.md).

export const INERT_TYPE = "modelify/after-first-paint";

const HEAD_END = "</head>";
const PRELOAD_START = '<link rel="modulepreload" href="';
// Only React Router's bootstrap is a module script: text and attribute values have their quotes
// escaped, so this cannot come from content.
const BOOTSTRAP_TYPE = ' type="module" async="">';
const SCRIPT_START = "<script";
const SCRIPT_END = "</script>";
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

/** Rewrites a rendered HTML document so its hydration modules load after its first paint. */
export function hydrateAfterFirstPaint(html: string): string {
  const headEnd = html.indexOf(HEAD_END);
  // A document cut short goes out as it came.
  if (headEnd < 0) return html;
  let out = "";
  const preloads: string[] = [];
  let at = 0;
  for (let link = html.indexOf(PRELOAD_START); link >= 0 && link < headEnd; link = html.indexOf(PRELOAD_START, at)) {
    const hrefStart = link + PRELOAD_START.length;
    const hrefEnd = html.indexOf('"', hrefStart);
    const tagEnd = hrefEnd < 0 ? -1 : html.indexOf(">", hrefEnd);
    if (tagEnd < 0 || tagEnd > headEnd) break;
    out += html.slice(at, link);
    preloads.push(html.slice(hrefStart, hrefEnd));
    at = tagEnd + 1;
  }
  const type = html.indexOf(BOOTSTRAP_TYPE, headEnd);
  const open = type < 0 ? -1 : html.lastIndexOf(SCRIPT_START, type);
  const nonce = open < headEnd ? undefined : NONCE_ATTRIBUTE.exec(html.slice(open, type))?.[1];
  const close = nonce === undefined ? -1 : html.indexOf(SCRIPT_END, type);
  // Without a bootstrap (an error page, a document cut short) the rest goes out as it came.
  if (close < 0 || nonce === undefined) return out + html.slice(at);
  const afterClose = close + SCRIPT_END.length;
  return (
    out +
    html.slice(at, open) +
    `<script nonce="${nonce}" type="${INERT_TYPE}">` +
    html.slice(type + BOOTSTRAP_TYPE.length, afterClose) +
    starter(nonce, preloads) +
    html.slice(afterClose)
  );
}
