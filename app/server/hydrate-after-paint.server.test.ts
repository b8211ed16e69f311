import { describe, expect, it } from "vitest";
import { hydrateAfterFirstPaint, INERT_TYPE } from "./hydrate-after-paint.server";

const BOOTSTRAP = 'import * as route0 from "/assets/root.js";\nwindow.__reactRouterRouteModules = {"root":route0};\nimport("/assets/entry.client.js");';
const HTML =
  '<!DOCTYPE html><html lang="en"><head><title>Prüfung – ✓</title>' +
  '<link rel="modulepreload" href="/assets/entry.client.js" nonce="n0nce"/><link rel="modulepreload" href="/assets/root.js" nonce="n0nce"/>' +
  '<link rel="stylesheet" href="/assets/root.css"/></head><body><p>Grüße 👩‍💻</p>' +
  '<script nonce="n0nce">window.__reactRouterContext = {};</script>' +
  `<script nonce="n0nce" type="module" async="">${BOOTSTRAP}</script>` +
  '<script nonce="n0nce">window.__reactRouterContext.streamController.enqueue("x")</script></body></html>';

const whole = async (html: string) => hydrateAfterFirstPaint(html);

describe("hydration after the first paint", () => {
  it("takes the module preloads out of the <head>, makes the bootstrap inert and starts both after the paint", async () => {
    const out = await whole(HTML);
    expect(out).not.toContain('<link rel="modulepreload"');
    expect(out).not.toContain('type="module" async');
    expect(out).toContain(`<script nonce="n0nce" type="${INERT_TYPE}">${BOOTSTRAP}</script><script nonce="n0nce">`);
    expect(out).toContain('["/assets/entry.client.js","/assets/root.js"].forEach');
    expect(out).toContain(`getEntriesByName("first-contentful-paint")`);
    // Everything else is as it was.
    const restored = out.replace(/<script nonce="n0nce">\(function\(\)[\s\S]*?<\/script>/, "").replace(`type="${INERT_TYPE}"`, 'type="module" async=""');
    expect(restored).toBe(HTML.replace(/<link rel="modulepreload"[^>]*\/>/g, ""));
  });

  it("escapes a preload address that could end the script", async () => {
    const out = await whole(HTML.replace('/assets/root.js" nonce', '/assets/</script><b>.js" nonce'));
    expect(out).toContain('"/assets/\\u003c/script>\\u003cb>.js"');
  });

  it("passes a document without a bootstrap, or cut short, through unchanged but for the preloads it read", async () => {
    const noScripts = '<html><head><link rel="modulepreload" href="/a.js"/></head><body><p>Error</p></body></html>';
    expect(await whole(noScripts)).toBe("<html><head></head><body><p>Error</p></body></html>");
    const partial = '<html><head><link rel="modulepreload" href="/a.js"/><link rel="modulepre';
    expect(await whole(partial)).toBe(partial);
  });
});
