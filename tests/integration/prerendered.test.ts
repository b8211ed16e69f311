// Prerendered parts (components/prerendered.tsx): the landing page's and the API reference's,
// rendered live (on an isolate's first pages, or when a local test asks) or from memory, and the
// page is the same either way, signed in or out.
import { describe, expect, it } from "vitest";
import { PAGE_CACHE_BYPASS, PAGE_CACHE_HEADER, PRERENDERED_HEADER, PRERENDERED_LIVE, rendersPartsLive } from "~/server/page-cache.server";
import { Browser, createConfirmedUser } from "./helpers";

const PARTS = 6; // the app preview, the feature grid, the download steps, the plan's list, Free vs Pro and the FAQ
const BYPASS = { [PAGE_CACHE_HEADER]: PAGE_CACHE_BYPASS };
// Every part rendered live, however many pages this isolate rendered before (test files share
// isolates in the suite's first run).
const LIVE = { ...BYPASS, [PRERENDERED_HEADER]: PRERENDERED_LIVE };

/** How many of the page's parts came from memory (the local Server-Timing). */
const reusedParts = (response: Response) => Number(/parts;desc="prerendered";dur=(\d+)/.exec(response.headers.get("Server-Timing") ?? "")?.[1]);
const nonceOf = (response: Response) => /'nonce-([^']+)'/.exec(response.headers.get("Content-Security-Policy") ?? "")![1]!;
/** The page with its CSP nonce written out, which is all that may differ between two answers. */
const page = async (response: Response) => (await response.text()).replaceAll(nonceOf(response), "NONCE");
/**
 * A fresh render of `path`, asked for again until `parts` of its parts come from memory (they
 * render in the background after the pages that show them), or the last try's answer.
 */
async function fromMemory(path: string, parts: number): Promise<Response> {
  let answer = await new Browser().get(path, { headers: BYPASS });
  for (let attempt = 0; reusedParts(answer) < parts && attempt < 50; attempt++) {
    await answer.arrayBuffer();
    answer = await new Browser().get(path, { headers: BYPASS });
  }
  return answer;
}

/** The markup from `from` up to `to`, both of which the page must have. */
function between(html: string, from: string, to: string): string {
  const start = html.indexOf(from);
  const end = html.indexOf(to, start);
  expect(
    [start, end].every((at) => at >= 0),
    `${from} … ${to}`,
  ).toBe(true);
  return html.slice(start, end);
}

describe("prerendered parts", () => {
  it("render live when asked, else from memory once rendered, into the same page", async () => {
    const first = await new Browser().get("/", { headers: LIVE });
    expect(first.status).toBe(200);
    expect(reusedParts(first)).toBe(0);
    const live = await page(first);

    const later = await fromMemory("/", PARTS);
    expect(reusedParts(later)).toBe(PARTS);
    expect(await page(later)).toBe(live);

    // A signed-in visitor's landing page (rendered for them every time) carries the same parts.
    const { browser } = await createConfirmedUser();
    const signedIn = await browser.get("/");
    expect(reusedParts(signedIn)).toBe(PARTS);
    const html = await page(signedIn);
    // The preview and the features (the hero's end between them), the download steps, the plan's
    // list, Free vs Pro and the FAQ.
    for (const [from, to] of [
      ['<div id="preview"', '<section id="download"'],
      ['<ol class="mx-auto mt-16', "</ol>"],
      ['<ul data-testid="plan-features"', "</ul>"],
      ['<div class="mx-auto mt-12 max-w-4xl" data-testid="plan-comparison"', "Full Disclosure"],
      ['<section id="faq"', "<footer"],
    ] as const) {
      expect(between(html, from, to)).toBe(between(live, from, to));
    }
    expect(html).toContain("Frequently asked questions");
  });

  it("give the API reference, built once per isolate, the same page from memory as live", async () => {
    const first = await new Browser().get("/api-reference", { headers: LIVE });
    expect(first.status).toBe(200);
    expect(reusedParts(first)).toBe(0);
    const live = await page(first);
    expect(live).toContain("API reference");

    const later = await fromMemory("/api-reference", 1);
    expect(reusedParts(later)).toBe(1);
    expect(await page(later)).toBe(live);
  });

  it("ignores the request to render parts live on a production server", async () => {
    const request = new Request("https://modelify.dev/", { headers: { [PRERENDERED_HEADER]: PRERENDERED_LIVE } });
    expect(rendersPartsLive(request, { local: true })).toBe(true);
    expect(rendersPartsLive(request, { local: false })).toBe(false);
    expect(rendersPartsLive(new Request("https://modelify.dev/"), { local: true })).toBe(false);
  });
});
