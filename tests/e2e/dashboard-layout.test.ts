// Issue 29: the dashboard at 1024 px (the side rail, labels beside icons, takes 256 px of the
// window), 1280 px and 390 px. On every tab nothing leaves its card or the window (a badge past its
// card's edge, a page that scrolls sideways), outside the boxes meant to scroll (wide tables), and
// no chart's labels run into each other; from 1024 px the rail names each tab beside its icon,
// below it the top strip does.
// Issue 46: at 390 px, with the demo's data as a customer sees it after signing the desktop app in
// (its Recent Activity names the device), nothing on the overview, usage, billing and downloads
// pages is wider than the window, and every tab is in reach through the "All tabs" menu, by touch
// and by keyboard.
import type { Page } from "@playwright/test";
import { pollForTokens, postUsageReport, requestDeviceCode, thisDevice } from "../../scripts/desktop-demo.ts";
import { afterRender, clientContextOptions, hydrated, newClientPage, signIn, signUpAndConfirm, subscribeWithTestCard, uniqueEmail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

const WIDTHS = [1024, 1280, 390];

const TABS = [
  "/dashboard",
  "/dashboard/usage",
  "/dashboard/usage/requests",
  "/dashboard/profile",
  "/dashboard/analytics",
  "/dashboard/billing",
  "/dashboard/budget",
  "/dashboard/alerts",
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
  const menu = page.getByTestId("tab-menu");
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
      await expect(menu).toBeHidden();
    } else {
      await expect(rail).toBeHidden();
      await expect(menu.getByText("All tabs")).toBeVisible();
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

const PHONE = { width: 390, height: 844 };
const DEMO = { email: "demo@modelify.dev", password: "Modelify-Demo-2026" };

/**
 * Every element whose box is wider than the window or reaches past its edges, and the document
 * when it scrolls sideways. An element inside a box that clips or scrolls is that box's business
 * (the box itself is measured); what is hidden for the eye only (the skip link's 1 px clip) is not seen.
 */
async function pastTheWindow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > width) found.push(`the page is ${root.scrollWidth} px wide in a ${width} px window`);
    const clipped = new Map<Element, boolean>();
    for (const element of document.body.querySelectorAll("*")) {
      const parent = element.parentElement!;
      const style = getComputedStyle(parent);
      const inside = (clipped.get(parent) ?? false) || (parent !== document.body && style.overflowX !== "visible");
      clipped.set(element, inside);
      const own = getComputedStyle(element);
      if (own.clip !== "auto" || own.clipPath !== "none") continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const label = `<${element.tagName.toLowerCase()}> "${element.textContent?.trim().slice(0, 40)}"`;
      if (box.width > width + 0.5) found.push(`${label} is ${Math.round(box.width)} px wide`);
      else if (!inside && (box.right > width + 0.5 || box.left < -0.5)) found.push(`${label} runs from ${Math.round(box.left)} to ${Math.round(box.right)} px`);
    }
    return found;
  });
}

test("at 390 px nothing on the overview, usage, billing and downloads pages is wider than the window with the demo's data", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const page = await newClientPage(browser, PHONE);
  await signIn(page, DEMO.email, DEMO.password);
  await page.waitForURL((url) => url.pathname === "/dashboard");
  // The desktop app signed in on the customer's laptop and reported a call: Recent Activity names the device.
  const grant = await requestDeviceCode(baseURL!, thisDevice({ name: "Ada Lovelace's MacBook Pro" }));
  await page.goto(grant.verification_uri_complete);
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText("Device approved.")).toBeVisible();
  const tokens = await pollForTokens(baseURL!, grant, { sleep: () => Promise.resolve() });
  expect((await postUsageReport(baseURL!, tokens.access_token)).status).toBe(202);
  await expect(async () => {
    await page.goto("/dashboard");
    await expect(page.getByTestId("recent-device").first()).toHaveText("Ada Lovelace's MacBook Pro", { timeout: 500 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByTestId("weekly-table")).toBeVisible();

  for (const path of ["/dashboard", "/dashboard/usage", "/dashboard/billing", "/dashboard/downloads"]) {
    if (path !== "/dashboard") await page.goto(path);
    await afterRender(page);
    expect(await pastTheWindow(page), path).toEqual([]);
  }
  await page.context().close();
});

test("at 390 px every dashboard tab is in reach from the tab menu, by touch and by keyboard", async ({ browser }) => {
  test.setTimeout(90_000);
  const page = await newClientPage(browser, PHONE);
  await signIn(page, "admin@modelify.dev", "Modelify-Admin-2026");
  await page.waitForURL((url) => url.pathname === "/dashboard");
  await hydrated(page);
  const menu = page.getByTestId("tab-menu");
  const opener = menu.locator("summary");
  const tabs = menu.getByRole("navigation", { name: "Dashboard tabs" }).getByRole("link");
  // The control says what it is and where you are, inside the window.
  await expect(opener).toHaveText(/^Overview\s*All tabs$/);
  await expect(opener).toBeInViewport({ ratio: 1 });
  await expect(tabs.first()).toBeHidden();

  await opener.click();
  const names = await tabs.allTextContents();
  expect(names).toEqual([
    "Overview",
    "Usage",
    "Request Log",
    "Profile",
    "Model Analytics",
    "Billing",
    "Budget",
    "Alerts",
    "Downloads",
    "API Keys",
    "Admin",
    "Early Access",
    "Support",
    "Funnel",
    "Dead Letters",
    "All Teams",
  ]);
  for (const name of names) await expect(tabs.filter({ hasText: name }), name).toBeInViewport({ ratio: 1 });
  expect(await pastTheWindow(page)).toEqual([]);

  // By touch: each tab opens, and the menu then names it and is closed.
  for (const name of ["Billing", "Budget", "Downloads", "Dead Letters"]) {
    if (!(await menu.evaluate((d: HTMLDetailsElement) => d.open))) await opener.click();
    await menu.getByRole("link", { name, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    await expect(opener).toHaveText(new RegExp(`^${name}\\s*All tabs$`));
    await expect(tabs.first()).toBeHidden();
  }

  // By keyboard: focus the control, open it, Escape closes it again, then Tab to a tab and Enter.
  await page.goto("/dashboard");
  await hydrated(page);
  await opener.focus();
  await page.keyboard.press("Enter");
  await expect(tabs.first()).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(tabs.first()).toBeHidden();
  await expect(opener).toBeFocused();
  await page.keyboard.press("Space");
  // Budget is the seventh tab: the seventh Tab from the control reaches it.
  for (let i = 0; i < 7; i++) await page.keyboard.press("Tab");
  await expect(menu.getByRole("link", { name: "Budget", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await page.waitForURL((url) => url.pathname === "/dashboard/budget");
  await expect(opener).toHaveText(/^Budget\s*All tabs$/);
  await page.context().close();
});

test("at 390 px the tab menu opens and leads to every tab without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ ...clientContextOptions(PHONE), javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, DEMO.email, DEMO.password);
  await page.waitForURL((url) => url.pathname === "/dashboard");
  const menu = page.getByTestId("tab-menu");
  await menu.locator("summary").click();
  await menu.getByRole("link", { name: "Downloads", exact: true }).click();
  await page.waitForURL((url) => url.pathname === "/dashboard/downloads");
  await expect(menu.locator("summary")).toHaveText(/^Downloads\s*All tabs$/);
  await context.close();
});
