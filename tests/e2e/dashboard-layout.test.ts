// Issue 29: the dashboard at 1024 px (the side rail, labels beside icons, takes 256 px of the
// window), 1280 px and 390 px. On every tab nothing leaves its card or the window (a badge past its
// card's edge, a page that scrolls sideways), outside the boxes meant to scroll (wide tables), and
// no chart's labels run into each other; from 1024 px the rail names each tab beside its icon,
// below it the top strip does.
import type { Page } from "@playwright/test";
import { afterRender, newClientPage, signIn, signUpAndConfirm, subscribeWithTestCard, uniqueEmail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

const WIDTHS = [1024, 1280, 390];

const TABS = [
  "/dashboard",
  "/dashboard/usage",
  "/dashboard/profile",
  "/dashboard/analytics",
  "/dashboard/billing",
  "/dashboard/budget",
  "/dashboard/downloads",
];
const ACCOUNT_PAGES = ["/dashboard/profile/two-factor", "/dashboard/profile/delete"];
const ADMIN_TABS = ["/dashboard/admin", "/dashboard/admin/early-access", "/dashboard/admin/support", "/dashboard/admin/funnel"];

/**
 * What sticks out, as rendered: the document wider than the window, an element whose box passes
 * its card's edge (a card: components/ui.tsx's Card, rounded-2xl with a border) with no scrolling
 * box between them, or a chart's x-axis labels running into each other.
 */
async function overflows(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) found.push(`the page is ${root.scrollWidth} px wide in a ${root.clientWidth} px window`);
    for (const card of document.querySelectorAll("main .rounded-2xl.border")) {
      if (getComputedStyle(card).overflowX !== "visible") continue;
      const edge = card.getBoundingClientRect();
      // Whether a box between an element and its card scrolls, found once per element (a walk up
      // from every element would read each ancestor's style again: seconds on the usage page).
      const insideScroller = new Map<Element, boolean>([[card, false]]);
      for (const element of card.querySelectorAll("*")) {
        const parent = element.parentElement!;
        const scrolls = (insideScroller.get(parent) ?? false) || (parent !== card && getComputedStyle(parent).overflowX !== "visible");
        insideScroller.set(element, scrolls);
        const box = element.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        const out = Math.max(box.right - edge.right, edge.left - box.left);
        if (!scrolls && out > 0.5)
          found.push(`<${element.tagName.toLowerCase()}> "${element.textContent?.trim().slice(0, 40)}" passes its card's edge by ${Math.round(out)} px`);
      }
    }
    for (const chart of document.querySelectorAll("main [data-chart]")) {
      const labels = [...chart.querySelectorAll('[data-chart-axis="x"]')]
        .map((label) => ({ text: label.textContent?.trim(), box: label.getBoundingClientRect() }))
        .filter(({ box }) => box.width > 0)
        .sort((a, b) => a.box.left - b.box.left);
      for (let i = 1; i < labels.length; i++) {
        const [a, b] = [labels[i - 1]!, labels[i]!];
        if (a.box.right > b.box.left) found.push(`"${chart.getAttribute("data-chart")}": labels "${a.text}" and "${b.text}" overlap`);
      }
    }
    return found;
  });
}

/**
 * Each page loaded once and resized through the widths: the dashboard answers the width through CSS
 * alone (media and container queries), so a page resized to 390 px is the page a phone loads.
 */
async function checkPages(page: Page, paths: string[]) {
  const rail = page.getByRole("complementary", { name: "Dashboard" });
  const strip = page.getByRole("navigation", { name: "Dashboard tabs" });
  for (const path of paths) {
    await page.goto(path);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await afterRender(page);
      expect(await overflows(page), `${path} at ${width} px`).toEqual([]);
    }
  }
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    if (width >= 1024) {
      await expect(rail.getByRole("link", { name: "Model Analytics" })).toBeVisible();
      await expect(rail.getByText("Model Analytics", { exact: true })).toBeVisible();
      await expect(strip).toBeHidden();
    } else {
      await expect(rail).toBeHidden();
      await expect(strip.getByRole("link", { name: "Overview" })).toBeVisible();
    }
  }
}

test("the demo account's tabs fit their cards at 1024, 1280 and 390 px", async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await newClientPage(browser);
  await signIn(page, "demo@modelify.dev", "Modelify-Demo-2026");
  await page.waitForURL((url) => url.pathname === "/dashboard");
  await checkPages(page, [...TABS, ...ACCOUNT_PAGES]);
  await page.context().close();
});

test("a subscriber's tabs fit their cards at 1024, 1280 and 390 px", async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await newClientPage(browser);
  await signUpAndConfirm(page, uniqueEmail("layout"));
  await subscribeWithTestCard(page);
  await page.getByText("Free trial started").waitFor();
  await checkPages(page, ["/dashboard", "/dashboard/analytics", "/dashboard/billing", "/dashboard/billing?view=invoices", "/dashboard/downloads"]);
  await page.context().close();
});

test("the admin's tabs fit their cards at 1024, 1280 and 390 px", async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await newClientPage(browser);
  await signIn(page, "admin@modelify.dev", "Modelify-Admin-2026");
  await page.waitForURL((url) => url.pathname === "/dashboard");
  await checkPages(page, ADMIN_TABS);
  await page.context().close();
});
