import { describe, expect, it } from "vitest";
import { lowPriorityModulePreloads } from "./module-preload";

const HTML =
  '<!DOCTYPE html><html lang="en"><head><title>Prüfung – ✓</title>' +
  '<link rel="modulepreload" href="/assets/entry.client.js" nonce="n"/><link rel="modulepreload" href="/assets/root.js" nonce="n"/>' +
  '<link rel="stylesheet" href="/assets/root.css"/></head><body><p>Grüße 👩‍💻</p>' +
  '<link rel="modulepreload" href="/assets/late.js"/></body></html>';

async function through(chunks: Uint8Array[]): Promise<string> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  return new Response(lowPriorityModulePreloads(source)).text();
}

const expected = HTML.replace(/<link rel="modulepreload" (href="\/assets\/(entry\.client|root)\.js")/g, '<link rel="modulepreload" fetchpriority="low" $1');

describe("module preloads", () => {
  it("are marked low priority in the <head> only, the rest unchanged", async () => {
    expect(await through([new TextEncoder().encode(HTML)])).toBe(expected);
    expect(expected.match(/fetchpriority="low"/g)).toHaveLength(2);
  });

  it("come out the same whatever the chunk boundaries, multi-byte characters included", async () => {
    const bytes = new TextEncoder().encode(HTML);
    for (const size of [1, 2, 3, 5, 7, 13, 26, 64]) {
      const chunks: Uint8Array[] = [];
      for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.slice(at, at + size));
      expect(await through(chunks), `chunks of ${size} bytes`).toBe(expected);
    }
  });

  it("pass a document without a <head> end through whole", async () => {
    const partial = '<html><head><link rel="modulepreload" href="/a.js"/><link rel="modulepre';
    expect(await through([new TextEncoder().encode(partial)])).toBe(partial.replace('modulepreload" ', 'modulepreload" fetchpriority="low" '));
  });
});
