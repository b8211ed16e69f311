// The optional advertising pixel: loaded only when a pixel id is configured AND the visitor said
// yes. A second site is served from a copy of the test build with META_PIXEL_ID set (sites.ts); Meta's
// script is answered by a stand-in (no internet here) that records what the page tells it.
import type { BrowserContext, Page } from "@playwright/test";
import { HYDRATION_PROBE, hydrated, nextClientAddress } from "./browser.ts";
import { expect, test } from "./fixtures.ts";
import { startTestSite, type TestSite } from "./sites.ts";

const PIXEL_ID = "123456789012345";
let site: TestSite;

test.describe.configure({ mode: "serial" });

// biome-ignore lint/correctness/noEmptyPattern: Playwright requires the object pattern
test.beforeAll(async ({}, testInfo) => {
  test.setTimeout(120_000);
  site = await startTestSite(`pixel-w${testInfo.workerIndex}`, { META_PIXEL_ID: PIXEL_ID });
});
test.afterAll(async () => {
  await site?.stop();
});

// What fbevents.js does that matters here: take over the stub, replay its queue, then take calls.
const STAND_IN_SCRIPT = `
window.__pixelCalls = [];
(function () {
  var fbq = window.fbq;
  fbq.callMethod = function () { window.__pixelCalls.push(Array.prototype.slice.call(arguments)); };
  var queued = fbq.queue || [];
  fbq.queue = [];
  queued.forEach(function (args) { fbq.callMethod.apply(null, args); });
  fbq.loaded = true;
})();`;

async function visitorOn(browser: import("@playwright/test").Browser, baseURL: string): Promise<{ context: BrowserContext; page: Page; meta: string[] }> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 }, extraHTTPHeaders: { "CF-Connecting-IP": nextClientAddress() } });
  await context.addInitScript(HYDRATION_PROBE);
  const meta: string[] = [];
  await context.route(/^https:\/\/(connect|www)\.facebook\.(net|com)\//, (route) => {
    meta.push(route.request().url());
    return route.request().url().endsWith("/fbevents.js")
      ? route.fulfill({ status: 200, contentType: "text/javascript", body: STAND_IN_SCRIPT })
      : route.fulfill({ status: 204 });
  });
  return { context, page: await context.newPage(), meta };
}

test("without a pixel id there is no question, no script and no pixel source in the policy", async ({ page }) => {
  const response = await page.goto("/");
  await hydrated(page);
  await page.waitForLoadState("networkidle");
  expect(response!.headers()["content-security-policy"]).not.toContain("facebook");
  await expect(page.getByTestId("ad-consent")).toHaveCount(0);
  expect(await page.evaluate(() => "fbq" in window)).toBe(false);
});

test("with a pixel id nothing loads until the visitor says yes, and no keeps it that way", async ({ browser }) => {
  const { context, page, meta } = await visitorOn(browser, site.baseUrl);
  const response = await page.goto("/");
  expect(response!.headers()["content-security-policy"]).toContain("https://connect.facebook.net");
  const question = page.getByRole("region", { name: "Ad measurement" });
  await expect(question).toBeVisible();
  await hydrated(page);
  await page.waitForLoadState("networkidle");
  expect(meta).toEqual([]);
  await question.getByRole("button", { name: "No, thanks" }).click();
  await expect(question).toHaveCount(0);
  await page.reload();
  await hydrated(page);
  await page.waitForLoadState("networkidle");
  await page.goto("/pricing");
  await hydrated(page);
  await page.waitForLoadState("networkidle");
  await expect(page.getByTestId("ad-consent")).toHaveCount(0);
  expect(meta).toEqual([]);
  expect(await page.evaluate(() => "fbq" in window)).toBe(false);
  await context.close();
});

test("after a yes the pixel starts with its id and hears the same events as our own statistics", async ({ browser }) => {
  const { context, page, meta } = await visitorOn(browser, site.baseUrl);
  await page.goto("/");
  await hydrated(page);
  await page.getByRole("region", { name: "Ad measurement" }).getByRole("button", { name: "Allow" }).click();
  await expect.poll(() => meta.filter((u) => u.endsWith("/en_US/fbevents.js")).length).toBe(1);
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __pixelCalls?: unknown[] }).__pixelCalls ?? []))
    .toEqual([
      ["init", PIXEL_ID],
      ["track", "PageView"],
    ]);
  // Our own event goes to /events as always, and now to the pixel too.
  const ours = page.waitForRequest((r) => r.url().endsWith("/events") && r.postDataJSON()?.name === "PricingView");
  await page.getByRole("heading", { name: "Simple, honest pricing" }).scrollIntoViewIfNeeded();
  await ours;
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __pixelCalls: unknown[][] }).__pixelCalls.map((c) => c.join(":"))))
    .toContain("track:PricingView");
  // The choice is remembered in this browser: no question on the next page.
  await page.goto("/auth");
  await hydrated(page);
  await page.waitForLoadState("networkidle");
  await expect(page.getByTestId("ad-consent")).toHaveCount(0);
  await context.close();
});
