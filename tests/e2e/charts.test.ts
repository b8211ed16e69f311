// Issue 14: charts stay readable on a phone. Measured in the browser at 390 px wide: every axis
// label renders at 11 px or more, no two labels of an axis overlap, and an empty chart says so
// with distinct, whole-number ticks.
import type { Page } from "@playwright/test";
import { newClientPage, signIn, signUpAndConfirm, uniqueEmail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

type Label = { axis: string; text: string; fontPx: number; height: number; left: number; right: number; top: number; bottom: number; visible: boolean };

async function chartLabels(page: Page, chart: string): Promise<Label[]> {
  return page.locator(`[data-chart="${chart}"] [data-chart-label]`).evaluateAll((elements) =>
    elements.map((el) => {
      const box = el.getBoundingClientRect();
      return {
        axis: el.getAttribute("data-chart-axis") ?? "",
        // A label holds one form, its phone's or its desktop's, and shows at those widths only.
        text: el.textContent?.trim() ?? "",
        fontPx: Number.parseFloat(getComputedStyle(el).fontSize),
        height: box.height,
        left: box.left,
        right: box.right,
        top: box.top,
        bottom: box.bottom,
        visible: box.width > 0 && getComputedStyle(el).display !== "none",
      };
    }),
  );
}

function expectReadable(labels: Label[], chart: string) {
  const shown = labels.filter((l) => l.visible);
  expect(shown.filter((l) => l.axis === "x").length, `${chart}: x labels`).toBeGreaterThan(0);
  expect(shown.filter((l) => l.axis === "y").length, `${chart}: y labels`).toBeGreaterThan(1);
  for (const label of shown) {
    expect(label.fontPx, `${chart}: "${label.text}"`).toBeGreaterThanOrEqual(11);
    // As rendered: nothing scales the label down after its font size is applied.
    expect(label.height, `${chart}: "${label.text}" box`).toBeGreaterThanOrEqual(11);
  }
  for (const axis of ["x", "y"]) {
    const row = shown.filter((l) => l.axis === axis).sort((a, b) => (axis === "x" ? a.left - b.left : a.top - b.top));
    for (let i = 1; i < row.length; i++) {
      const [a, b] = [row[i - 1]!, row[i]!];
      if (axis === "x") expect(a.right, `${chart}: "${a.text}" and "${b.text}" overlap`).toBeLessThanOrEqual(b.left);
      else expect(a.bottom, `${chart}: "${a.text}" and "${b.text}" overlap`).toBeLessThanOrEqual(b.top);
    }
  }
}

test("at 390 px the demo account's charts keep 11 px labels that do not overlap", async ({ browser }) => {
  const page = await newClientPage(browser, { width: 390, height: 844 });
  await signIn(page, "demo@modelify.dev", "Modelify-Demo-2026");
  // signIn only submits: a navigation before the answer arrives would cancel the sign-in.
  await page.waitForURL((url) => url.pathname === "/dashboard");
  await page.goto("/dashboard");
  expectReadable(await chartLabels(page, "Spend per week"), "Spend per week");

  for (const metric of ["spend", "tokens", "requests"]) {
    await page.goto(`/dashboard/usage?range=30d&metric=${metric}`);
    const title = (await page.locator("[data-chart]").first().getAttribute("data-chart"))!;
    const labels = await chartLabels(page, title);
    expectReadable(labels, title);
    if (metric !== "spend") for (const l of labels.filter((l) => l.axis === "y")) expect(l.text, `${title}: whole numbers`).toMatch(/^[\d.]+[KM]?$/);
  }
  await page.goto("/dashboard/usage?range=30d&engagement=activity");
  expectReadable(await chartLabels(page, "Requests by day"), "Requests by day");
  await page.context().close();
});

test("a new account's empty charts say so, with distinct whole-number ticks", async ({ browser }) => {
  const page = await newClientPage(browser, { width: 390, height: 844 });
  await signUpAndConfirm(page, uniqueEmail("charts"));
  await page.goto("/dashboard/usage?range=7d&metric=requests");
  const title = (await page.locator("[data-chart]").first().getAttribute("data-chart"))!;
  await expect(page.locator(`[data-chart="${title}"]`).getByTestId("chart-empty")).toHaveText("No data in this period");
  const ticks = (await chartLabels(page, title)).filter((l) => l.axis === "y").map((l) => l.text);
  expect(ticks).toEqual(["0", "1"]);
  expect(new Set(ticks).size).toBe(ticks.length);
  await page.context().close();
});

test("at 1280 px Weekly Usage Trends fills its row beside the 10 rows of Recent Activity", async ({ browser }) => {
  const page = await newClientPage(browser, { width: 1280, height: 900 });
  await signIn(page, "demo@modelify.dev", "Modelify-Demo-2026");
  // signIn only submits: a navigation before the answer arrives would cancel the sign-in.
  await page.waitForURL((url) => url.pathname === "/dashboard");
  await page.goto("/dashboard");
  await expect(page.getByTestId("recent-activity").getByRole("listitem")).toHaveCount(10);
  const weekly = (await page.getByTestId("weekly-card").boundingBox())!;
  const recent = (await page.getByTestId("recent-card").boundingBox())!;
  const content = (await page.getByTestId("weekly-table").boundingBox())!;
  // Side by side, one height, and the weekly card's content reaches near its bottom: no large
  // empty area beside Recent Activity (it was about 330 px).
  expect(Math.abs(weekly.y - recent.y)).toBeLessThan(1);
  expect(Math.abs(weekly.height - recent.height)).toBeLessThan(1);
  expect(weekly.y + weekly.height - (content.y + content.height)).toBeLessThan(100);
  await page.context().close();
});
