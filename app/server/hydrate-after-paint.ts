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

const PRELOAD_LINK = /<link rel="modulepreload" href="([^"]+)"[^>]*\/>/g;
const HEAD_END = "</head>";
const BOOTSTRAP = /<script nonce="([^"]*)" type="module" async="">/;
export const INERT_TYPE = "modelify/after-first-paint";
const SCRIPT_START = "<script";
const SCRIPT_END = "</script>";

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

type Phase = "head" | "bootstrap" | "pass";

/** Rewrites a streamed HTML document so its hydration modules load after its first paint. */
export function hydrateAfterFirstPaint(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  let phase: Phase = "head";
  let held = "";
  const preloads: string[] = [];

  // Text held back until the part being looked for is complete; returns what may go out now.
  function step(text: string): string {
    held += text;
    if (phase === "head") {
      const end = held.indexOf(HEAD_END);
      if (end < 0) return "";
      const head = held.slice(0, end).replace(PRELOAD_LINK, (_, href: string) => {
        preloads.push(href);
        return "";
      });
      held = held.slice(end);
      phase = "bootstrap";
      return head + step("");
    }
    if (phase === "bootstrap") {
      const found = BOOTSTRAP.exec(held);
      if (found) {
        const close = held.indexOf(SCRIPT_END, found.index);
        if (close < 0) return release(found.index);
        const upTo = close + SCRIPT_END.length;
        const script = held.slice(found.index, upTo).replace(' type="module" async=""', ` type="${INERT_TYPE}"`);
        const out = held.slice(0, found.index) + script + starter(found[1] ?? "", preloads);
        held = held.slice(upTo);
        phase = "pass";
        return out + step("");
      }
      // Hold a script whose start tag may not be complete yet (or "<scr" cut by the chunk).
      const open = held.lastIndexOf(SCRIPT_START);
      if (open >= 0 && held.indexOf(">", open) < 0) return release(open);
      const lt = held.lastIndexOf("<");
      if (lt >= 0 && SCRIPT_START.startsWith(held.slice(lt, lt + SCRIPT_START.length))) return release(lt);
      return release(held.length);
    }
    return release(held.length);
  }

  function release(upTo: number): string {
    const out = held.slice(0, upTo);
    held = held.slice(upTo);
    return out;
  }

  const encoder = new TextEncoder();
  return body.pipeThrough<string>(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>).pipeThrough(
    new TransformStream<string, Uint8Array>({
      transform(chunk, controller) {
        const out = step(chunk);
        if (out) controller.enqueue(encoder.encode(out));
      },
      flush(controller) {
        // A document cut short (or without a bootstrap) goes out as it came.
        if (held) controller.enqueue(encoder.encode(held));
      },
    }),
  );
}
