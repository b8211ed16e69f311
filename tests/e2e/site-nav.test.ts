// Issue 46: the site's top navigation offers Pricing and Download to everyone (a visitor at 1280 px
// found neither), beside Sign In and Sign Up (or Dashboard); on a phone the main call to action
// stays in the bar and the other links are behind Menu, which works by touch, by keyboard and
// without JavaScript.
import type { Page } from "@playwright/test";
import { clientContextOptions, hydrated, newClientPage, signIn } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

const main = (page: Page) => page.getByRole("navigation", { name: "Main" });

test("at 1280 px the signed-out header has Pricing and Download, and Download leads to the download section", async ({ page }) => {
  await page.goto("/pricing");
  await hydrated(page);
  const nav = main(page);
  for (const [name, href] of [
    ["Pricing", "/pricing"],
    ["Download", "/#download"],
    ["Sign In", "/auth?mode=signin"],
    ["Sign Up", "/auth?mode=signup"],
  ]) {
    await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
    await expect(nav.getByRole("link", { name, exact: true })).toHaveAttribute("href", href!);
  }
  await expect(nav.getByTestId("site-menu")).toBeHidden();
  await nav.getByRole("link", { name: "Download", exact: true }).click();
  await expect(page).toHaveURL(/\/#download$/);
  await expect(page.getByRole("heading", { name: "Download Modelify", level: 2 })).toBeInViewport();
  await nav.getByRole("link", { name: "Pricing", exact: true }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(nav.getByRole("link", { name: "Pricing", exact: true })).toHaveAttribute("aria-current", "page");
});

test("at 1280 px the signed-in header has Pricing, Download and Dashboard", async ({ page }) => {
  await signIn(page, "demo@modelify.dev", "Modelify-Demo-2026");
  await page.waitForURL((url) => url.pathname === "/dashboard");
  await page.goto("/pricing");
  const nav = main(page);
  for (const name of ["Pricing", "Download", "Dashboard"]) await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Sign In", exact: true })).toHaveCount(0);
});

test("at 390 px Sign Up stays in the bar and Menu holds Pricing, Download and Sign In, by touch and by keyboard", async ({ browser }) => {
  const page = await newClientPage(browser, { width: 390, height: 844 });
  await page.goto("/");
  await hydrated(page);
  const nav = main(page);
  const menu = nav.getByTestId("site-menu");
  const opener = menu.getByText("Menu");
  await expect(nav.getByRole("link", { name: "Sign Up", exact: true })).toBeInViewport({ ratio: 1 });
  await expect(opener).toBeInViewport({ ratio: 1 });
  await expect(nav.getByRole("link", { name: "Pricing", exact: true })).toBeHidden();
  // The bar fits the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // By touch: a chosen link opens its page with the menu closed.
  await opener.click();
  for (const name of ["Pricing", "Download", "Sign In"]) await expect(menu.getByRole("link", { name, exact: true })).toBeInViewport({ ratio: 1 });
  await menu.getByRole("link", { name: "Pricing", exact: true }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(menu.getByRole("link", { name: "Pricing", exact: true })).toBeHidden();

  // By keyboard: Escape closes and gives focus back to Menu.
  await menu.locator("summary").focus();
  await page.keyboard.press("Enter");
  await expect(menu.getByRole("link", { name: "Download", exact: true })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(menu.getByRole("link", { name: "Download", exact: true })).toBeHidden();
  await expect(menu.locator("summary")).toBeFocused();
  await page.keyboard.press("Space");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(menu.getByRole("link", { name: "Download", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/#download$/);
  await page.context().close();
});

test("at 390 px the menu works without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ ...clientContextOptions({ width: 390, height: 844 }), javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/pricing");
  const menu = main(page).getByTestId("site-menu");
  await menu.getByText("Menu").click();
  await menu.getByRole("link", { name: "Download", exact: true }).click();
  await expect(page).toHaveURL(/\/#download$/);
  await expect(page.getByRole("heading", { name: "Download Modelify", level: 2 })).toBeInViewport();
  await context.close();
});
