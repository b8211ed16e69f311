// The browser tests' `test`: every context is a separate client (its own CF-Connecting-IP), and
// `newClient()` opens another one in the same test (a second browser, another person).
import { test as base, type Page } from "@playwright/test";
import { baseUrl, newClientPage, nextClientAddress } from "./browser.ts";

export const test = base.extend<{ newClient: () => Promise<Page> }>({
  // Playwright reads a fixture's dependencies from its destructured first parameter: these have none.
  // Read per test: the global setup sets BASE_URL after the config was first loaded.
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires the object pattern
  baseURL: async ({}, use) => use(baseUrl()),
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
