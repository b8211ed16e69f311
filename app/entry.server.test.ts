// The server's renderer of prerendered parts (components/prerendered.tsx), as the entry sets it.
import { createElement, Suspense } from "react";
import { describe, expect, it } from "vitest";
import { type Prerenderer, setPrerenderer } from "./components/prerendered";
import "./entry.server";

// The entry's own renderer, read by swapping it out and straight back: the pages this isolate may
// still render keep it.
const server = setPrerenderer(null) as Prerenderer;
setPrerenderer(server);

function Fine() {
  return createElement("p", { className: "fine" }, "Hello, ", "world");
}
function Thrower(): never {
  throw new Error("no part today");
}

describe("the entry's prerenderer", () => {
  it("renders a part to the markup a page would carry", async () => {
    expect(server).not.toBeNull();
    // Neighbouring texts keep React's separator, as inside a page.
    await expect(server.render(createElement(Fine))).resolves.toBe('<p class="fine">Hello, <!-- -->world</p>');
  });

  it("fails a part that throws, even inside a boundary React would leave to the browser", async () => {
    await expect(server.render(createElement(Thrower))).rejects.toThrow();
    await expect(server.render(createElement(Suspense, { fallback: "later" }, createElement(Thrower)))).rejects.toThrow(/failed to render/);
  });
});
