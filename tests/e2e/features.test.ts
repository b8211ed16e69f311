// The Features dialog: eight tabs of three or four cards, the key statistics, Get Started closes it.
import { hydrated, watchFor } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

test("the footer opens the Features dialog; its tabs change the cards; Get Started closes it", async ({ page }) => {
  await page.goto("/");
  await hydrated(page);
  await page.getByRole("contentinfo").getByRole("link", { name: "Features" }).click();
  const dialog = page.getByRole("dialog", { name: "Modelify Features" });
  await expect(dialog.getByRole("navigation", { name: "Feature areas" }).getByRole("link")).toHaveCount(8);
  for (const stat of ["160+", "12+", "5", "100/100"])
    await expect(dialog.getByRole("definition").filter({ hasText: new RegExp(`^${stat.replace("+", "\\+")}$`) })).toHaveCount(1);
  for (const name of ["Overview", "AI Models", "Chat Features", "Workspace", "Security", "Export", "Technical", "Platforms"]) {
    await dialog.getByRole("link", { name, exact: true }).click();
    await expect(dialog.getByRole("link", { name, exact: true })).toHaveAttribute("aria-current", "page");
    const cards = await dialog.getByTestId("feature-cards").getByRole("listitem").count();
    expect(cards).toBeGreaterThanOrEqual(3);
    expect(cards).toBeLessThanOrEqual(4);
  }
  await dialog.getByRole("link", { name: "Export", exact: true }).click();
  await expect(dialog.getByTestId("feature-cards")).toContainText("Word, Markdown, JSON, Notion CSV or Google Docs HTML");
  const closing = await watchFor(page, '[data-state="closing"]');
  await dialog.getByRole("link", { name: "Get Started" }).click();
  // It fades out like every other close before the address changes.
  await closing();
  await expect(dialog).toHaveCount(0);
  await expect(page).not.toHaveURL(/modal=/);
});

test("the hero opens the Features dialog and the API key guide", async ({ page }) => {
  await page.goto("/");
  await hydrated(page);
  await page.getByRole("link", { name: "Explore all features" }).click();
  await expect(page.getByRole("dialog", { name: "Modelify Features" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.getByRole("link", { name: "How to get an API key" }).click();
  await expect(page.getByRole("dialog", { name: "API Key Setup Guide" })).toBeVisible();
});

// Issue 46: the Security Score says what it measures, no tab leaves an empty fourth place in its
// two columns, and every area's tab is in sight.
test("the Features dialog says what its Security Score measures and leaves no empty card place", async ({ page }) => {
  await page.goto("/?modal=features");
  const dialog = page.getByRole("dialog", { name: "Modelify Features" });
  await expect(dialog.getByRole("definition").filter({ hasText: /^100\/100$/ })).toHaveCount(1);
  await expect(dialog.getByTestId("security-score-note")).toContainText("the grade our web pages' security headers earn");
  for (const header of [
    "Content-Security-Policy",
    "Strict-Transport-Security",
    "X-Frame-Options",
    "X-Content-Type-Options",
    "Referrer-Policy",
    "Permissions-Policy",
  ])
    await expect(dialog.getByTestId("security-score-note")).toContainText(header);

  const areas = dialog.getByRole("navigation", { name: "Feature areas" });
  const edge = (await dialog.boundingBox())!;
  for (const link of await areas.getByRole("link").all()) {
    const box = (await link.boundingBox())!;
    expect(box.x + box.width, (await link.textContent()) ?? "").toBeLessThanOrEqual(edge.x + edge.width);
  }
  for (const name of ["Overview", "AI Models", "Chat Features", "Workspace", "Security", "Export", "Technical", "Platforms"]) {
    await areas.getByRole("link", { name, exact: true }).click();
    await expect(areas.getByRole("link", { name, exact: true })).toHaveAttribute("aria-current", "page");
    // Two cards a row: the cards fill every row they start, the last row included.
    const list = dialog.getByTestId("feature-cards");
    const row = (await list.boundingBox())!;
    const cards = await list.getByRole("listitem").all();
    const last = (await cards.at(-1)!.boundingBox())!;
    expect(Math.round(last.x + last.width), name).toBe(Math.round(row.x + row.width));
  }
});
