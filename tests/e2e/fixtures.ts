// The browser tests' `test`: each Playwright worker serves a site of its own (`site`, sites.ts),
// every context is a separate client (its own CF-Connecting-IP), and `newClient()` opens another
// one in the same test (a second browser, another person).
import { test as base, type Page } from "@playwright/test";
import { HYDRATION_PROBE, newClientPage, nextClientAddress } from "./browser.ts";
import { startTestSite, type TestSite } from "./sites.ts";

export const test = base.extend<{ newClient: () => Promise<Page> }, { site: TestSite }>({
  // Started before the worker's first test (auto) and kept for all the files the worker runs, one
  // after another, as the single site of a serial run was. A worker is a process of its own: the
  // helpers that read the environment (browser.ts baseUrl(), local-d1.ts, the Stripe stand-in's
  // URL) see this worker's site.
  site: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright requires the object pattern
    async ({}, use, workerInfo) => {
      const site = await startTestSite(`w${workerInfo.workerIndex}`);
      process.env.BASE_URL = site.baseUrl;
      process.env.STRIPE_URL = site.stripeUrl;
      process.env.STATE_DIR = site.stateDir;
      try {
        await use(site);
      } finally {
        await site.stop();
      }
    },
    // Under load a first start (copies, workerd, the stand-in) can take a while.
    { scope: "worker", auto: true, timeout: 120_000 },
  ],
  baseURL: async ({ site }, use) => use(site.baseUrl),
  // Pages can wait for their hydration (browser.ts hydrated()).
  context: async ({ context }, use) => {
    await context.addInitScript(HYDRATION_PROBE);
    await use(context);
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires the object pattern
  extraHTTPHeaders: async ({}, use) => use({ "CF-Connecting-IP": nextClientAddress() }),
  newClient: async ({ browser }, use) => {
    const pages: Page[] = [];
    await use(async () => {
      const page = await newClientPage(browser);
      pages.push(page);
      return page;
    });
    for (const page of pages) await page.context().close();
  },
});

export { expect } from "@playwright/test";
