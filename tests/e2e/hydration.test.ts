// The hydration code is fetched only after the first contentful paint (server/hydrate-after-paint.ts),
// and the page then hydrates as before: interactive, without errors.
import { hydrated, pageErrors } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

test("the page paints before any script module is fetched, then hydrates without an error", async ({ page }) => {
  const errors = pageErrors(page);
  await page.goto("/auth?mode=signup");
  // Hydrated (all of the page's modules have run), and nothing more on the way.
  await hydrated(page);
  await page.waitForLoadState("networkidle");
  const timing = await page.evaluate(() => ({
    paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
    scripts: performance
      .getEntriesByType("resource")
      .filter((e) => new URL(e.name).pathname.endsWith(".js"))
      .map((e) => ({ name: e.name, start: e.startTime })),
    modulesInHead: document.head.querySelectorAll('link[rel="modulepreload"]').length,
  }));
  expect(timing.paint).not.toBeNull();
  expect(timing.scripts.length).toBeGreaterThan(5);
  for (const script of timing.scripts) expect(script.start, script.name).toBeGreaterThanOrEqual(timing.paint!);
  // The preloads were added back, after the paint.
  expect(timing.modulesInHead).toBeGreaterThan(0);
  // Hydrated: the password strength meter reacts as the password is typed.
  await page.getByLabel("Password", { exact: true }).fill("aB3$efgh-long-pass");
  await expect(page.getByText(/Strong|Very strong/i).first()).toBeVisible();
  expect(errors).toEqual([]);
});

test("a page loaded while hidden hydrates without waiting for a paint it would never make", async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
    // Headless Chromium paints hidden pages anyway: take away every other way to start.
    Object.defineProperty(window, "PerformanceObserver", { configurable: true, value: undefined });
    window.requestAnimationFrame = () => 0;
  });
  await page.goto("/pricing");
  // Hidden pages never paint: the modules start at once rather than waiting for a paint.
  await expect.poll(() => page.evaluate(() => Boolean((window as unknown as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules))).toBe(true);
});
