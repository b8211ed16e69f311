// The request log (issue 49) in the browser, on the demo account's seeded usage: its filters are a
// GET form that works without JavaScript (the choice lands in the URL), its pages are links, and a
// report's details open in a URL dialog; with JavaScript the same form and links navigate without
// a page load, and the dialog opens and closes by keyboard, handing focus back to the row's link.
import type { Page } from "@playwright/test";
import { REQUEST_LOG } from "../../app/lib/constants/index.ts";
import { clientContextOptions, hydrated, markDocument, routerSettled, sameDocument, signIn } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

const DEMO = { email: "demo@modelify.dev", password: "Modelify-Demo-2026" };
const PATH = "/dashboard/usage/requests";

const rowIds = (page: Page) =>
  page
    .getByTestId("request-log")
    .locator("tbody tr")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-report")));
/** One column's texts (1-based), every row: the model column's first line is the model. */
const column = (page: Page, n: number) => page.getByTestId("request-log").locator(`tbody tr td:nth-child(${n}) > :first-child`).allTextContents();

async function signedInDemo(page: Page) {
  await signIn(page, DEMO.email, DEMO.password);
  await page.waitForURL((url) => url.pathname.startsWith("/dashboard"));
}

test("filters, pages and opens a report without JavaScript", async ({ page, browser }) => {
  await signedInDemo(page);
  const context = await browser.newContext({ ...clientContextOptions(), javaScriptEnabled: false, storageState: await page.context().storageState() });
  const noScript = await context.newPage();
  try {
    // From the usage tab's link.
    await noScript.goto("/dashboard/usage");
    await noScript.getByTestId("request-log-link").click();
    await expect(noScript).toHaveURL(PATH);
    await expect(noScript.getByRole("heading", { name: "Request Log", level: 1 })).toBeVisible();

    await noScript.getByLabel("Model", { exact: true }).selectOption("gpt-4o");
    await noScript.getByRole("button", { name: "Apply" }).click();
    await expect(noScript).toHaveURL(/[?&]model=gpt-4o(&|$)/);
    expect(new Set(await column(noScript, 2))).toEqual(new Set(["gpt-4o"]));
    const first = await rowIds(noScript);
    expect(first).toHaveLength(REQUEST_LOG.pageSize);

    await noScript.getByTestId("next-page").click();
    await expect(noScript).toHaveURL(/[?&]cursor=[A-Za-z0-9_-]+/);
    await expect(noScript).toHaveURL(/[?&]model=gpt-4o(&|$)/);
    const second = await rowIds(noScript);
    expect(second.length).toBeGreaterThan(0);
    expect(second.filter((id) => first.includes(id))).toEqual([]);
    expect(new Set(await column(noScript, 2))).toEqual(new Set(["gpt-4o"]));

    // A report's details: the dialog is in the page the server sends; Close is a link back.
    await noScript.getByTestId("request-log").locator("tbody tr").first().getByRole("link").click();
    await expect(noScript).toHaveURL(new RegExp(`[?&]report=${second[0]}`));
    const dialog = noScript.getByRole("dialog", { name: "gpt-4o", exact: true });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText("Request type")).toBeVisible();
    await dialog.getByRole("link", { name: "Close" }).click();
    await expect(noScript.getByRole("dialog")).toHaveCount(0);
    await expect(noScript).toHaveURL(/[?&]cursor=/);

    await noScript.getByTestId("first-page").click();
    await expect(noScript).not.toHaveURL(/cursor=/);
    expect(await rowIds(noScript)).toEqual(first);
  } finally {
    await context.close();
  }
});

test("with JavaScript: filters and pages without a page load, and the details dialog by keyboard", async ({ page }) => {
  await signedInDemo(page);
  await page.goto(PATH);
  await hydrated(page);
  await page.evaluate(markDocument);

  await page.getByLabel("Status", { exact: true }).selectOption("error");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/[?&]status=error(&|$)/);
  await routerSettled(page);
  expect(new Set(await column(page, 8))).toEqual(new Set(["Error"]));
  expect(Number((await page.getByTestId("log-errors").textContent())?.replaceAll(",", ""))).toBe(
    Number((await page.getByTestId("log-requests").textContent())?.replaceAll(",", "")),
  );

  // Back to every status, a week's worth of rows: the next page is a link the router follows.
  await page.getByLabel("Status", { exact: true }).selectOption("");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).not.toHaveURL(/status=error/);
  await routerSettled(page);
  const first = await rowIds(page);
  await page.getByTestId("next-page").click();
  await expect(page).toHaveURL(/[?&]cursor=/);
  await routerSettled(page);
  expect((await rowIds(page)).filter((id) => first.includes(id))).toEqual([]);

  // The first row's link by keyboard: Enter opens the dialog with focus inside it, Escape closes
  // it and gives focus back to the link.
  const opener = page.getByTestId("request-log").locator("tbody tr").first().getByRole("link");
  await opener.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/[?&]report=/);
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  await page.keyboard.press("Tab");
  await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page).not.toHaveURL(/report=/);
  await expect(opener).toBeFocused();
  expect(await page.evaluate(sameDocument)).toBe(true);
});
