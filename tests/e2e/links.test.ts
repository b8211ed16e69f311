// The site's links (app/components/link.tsx): a plain <a> that the router follows inside the app
// once the page has hydrated, and the browser follows on its own before that or when asked to
// (a modified click).
import { hydrated, markDocument, sameDocument, signIn } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

test("a plain click navigates inside the app, without loading another document", async ({ page }) => {
  await page.goto("/");
  await hydrated(page);
  await page.evaluate(markDocument);
  const footer = page.getByRole("contentinfo");
  await footer.getByRole("link", { name: "Changelog" }).click();
  await expect(page).toHaveURL(/\/changelog$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(await page.evaluate(sameDocument)).toBe(true);
  // A dialog opened by its address keeps the scroll position (preventScrollReset).
  await page.goto("/");
  await hydrated(page);
  await page.evaluate(markDocument);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  const scrolled = await page.evaluate(() => window.scrollY);
  expect(scrolled).toBeGreaterThan(500);
  await footer.getByRole("link", { name: "Contact" }).click();
  await expect(page).toHaveURL(/modal=contact/);
  await expect(page.getByRole("dialog")).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
  expect(await page.evaluate(sameDocument)).toBe(true);
});

test("a modified click is left to the browser; a plain one is the router's", async ({ page }) => {
  await page.goto("/");
  await hydrated(page);
  /** Whether the page's own handlers cancelled a click on the footer's Changelog link. */
  const cancelled = (modifier: string | null) =>
    page.evaluate((key) => {
      const link = document.querySelector<HTMLAnchorElement>('footer a[href="/changelog"]');
      if (!link) throw new Error("no Changelog link in the footer");
      let seen = false;
      // After React's handler (it listens on the app's root): record, then stop the browser
      // from opening a tab or window for a modified click.
      window.addEventListener(
        "click",
        (event) => {
          seen = event.defaultPrevented;
          event.preventDefault();
        },
        { once: true },
      );
      link.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, button: 0, ...(key ? { [key]: true } : {}) }));
      return seen;
    }, modifier);
  for (const key of ["ctrlKey", "metaKey", "shiftKey", "altKey"]) expect(await cancelled(key), key).toBe(false);
  await expect(page).toHaveURL(/\/$/);
  expect(await cancelled(null)).toBe(true);
  await expect(page).toHaveURL(/\/changelog$/);
});

test("links carry their address and the route-discovery mark, with or without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/");
  const pricing = page.getByRole("navigation").getByRole("link", { name: "Sign In" });
  await expect(pricing).toHaveAttribute("href", "/auth?mode=signin");
  await expect(pricing).toHaveAttribute("data-discover", "true");
  await pricing.click();
  await expect(page).toHaveURL(/\/auth\?mode=signin$/);
  await context.close();
});

test("the dashboard's current tab follows a navigation inside the app", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, "demo@modelify.dev", "Modelify-Demo-2026");
  // signIn only submits: a navigation before the answer arrives would cancel the sign-in.
  await page.waitForURL((url) => url.pathname === "/dashboard");
  await hydrated(page);
  await page.evaluate(markDocument);
  const rail = page.getByRole("complementary", { name: "Dashboard" });
  await expect(rail.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
  await rail.getByRole("link", { name: "Usage" }).click();
  await expect(page).toHaveURL(/\/dashboard\/usage$/);
  await expect(rail.getByRole("link", { name: "Usage" })).toHaveAttribute("aria-current", "page");
  await expect(rail.getByRole("link", { name: "Overview" })).not.toHaveAttribute("aria-current");
  expect(await page.evaluate(sameDocument)).toBe(true);
});
