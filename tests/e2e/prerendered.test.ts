// Prerendered parts come from the server's memory once rendered (components/prerendered.tsx): the
// page still hydrates without an error, their links are the router's like any other, and the
// browser renders the same part after a navigation.
import type { Page } from "@playwright/test";
import { hydrated, markDocument, pageErrors, sameDocument } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

/**
 * Loads `path` with a fresh render each time (a new address misses the page's edge copy) until one
 * answer has `parts` parts from memory (the local Server-Timing says so), and returns how many the
 * last had.
 */
async function visitFromMemory(page: Page, path: string, parts: number): Promise<number> {
  let reused = 0;
  for (let attempt = 0; reused < parts && attempt < 20; attempt++) {
    const response = await page.goto(`${path}?visit=${attempt}-${Date.now()}`);
    const timing = (await response?.allHeaders())?.["server-timing"] ?? "";
    reused = Number(/parts;desc="prerendered";dur=(\d+)/.exec(timing)?.[1]);
  }
  return reused;
}

test("a landing page with its parts from memory hydrates, and a link inside one navigates in the app", async ({ page }) => {
  const errors = pageErrors(page);
  // The app preview, the feature grid, the download steps, the plan's list, Free vs Pro and the FAQ.
  expect(await visitFromMemory(page, "/", 6)).toBe(6);
  await hydrated(page);
  await page.evaluate(markDocument);
  const faq = page.locator("#faq");
  await faq.getByText("Do I need my own API keys?").click();
  await faq.getByRole("link", { name: "Open the API key setup guide" }).click();
  await expect(page).toHaveURL(/\/api-setup$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(await page.evaluate(sameDocument)).toBe(true);
  expect(errors).toEqual([]);
});

test("the API reference from memory hydrates, and a navigation inside the app renders it in the browser", async ({ page }) => {
  const errors = pageErrors(page);
  expect(await visitFromMemory(page, "/api-reference", 1)).toBe(1);
  await hydrated(page);
  const heading = page.getByRole("heading", { level: 1, name: "API reference" });
  await expect(heading).toBeVisible();
  // The markup without the comments the server puts between neighbouring texts (a browser's
  // render has none).
  const markup = () => page.locator("article").evaluate((article) => article.innerHTML.replaceAll("<!-- -->", ""));
  const fromServer = await markup();

  // The same page rendered by the browser, from the loader's data, after a navigation in the app.
  await page.goto("/");
  await hydrated(page);
  await page.evaluate(markDocument);
  await page.getByRole("contentinfo").getByRole("link", { name: "API Reference" }).click();
  await expect(page).toHaveURL(/\/api-reference$/);
  await expect(heading).toBeVisible();
  expect(await page.evaluate(sameDocument)).toBe(true);
  expect(await markup()).toBe(fromServer);
  expect(errors).toEqual([]);
});
