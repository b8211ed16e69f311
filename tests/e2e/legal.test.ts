// The documentation and policy dialog (from the footer) and its pages at /legal/…, which work
// without JavaScript.
import { hydrated } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

test("the footer opens the policies in a dialog with tabs", async ({ page }) => {
  await page.goto("/pricing");
  await hydrated(page);
  await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).click();
  const dialog = page.getByRole("dialog", { name: "Documentation and policies" });
  await expect(dialog.getByTestId("legal-privacy")).toContainText("Last updated January 20, 2025");
  await expect(dialog.getByTestId("legal-privacy")).toContainText("under 13");
  await dialog.getByRole("link", { name: "Terms of Service" }).click();
  await expect(dialog.getByTestId("legal-terms")).toContainText("Version 1.0");
  await expect(dialog.getByTestId("legal-terms")).toContainText("12 months");
  await expect(dialog.getByTestId("legal-terms")).toContainText("30 days' notice");
  await dialog.getByRole("link", { name: "Security & Compliance" }).click();
  await expect(dialog.getByTestId("legal-security")).toContainText("99.9% uptime");
  await dialog.getByRole("link", { name: "API Documentation" }).click();
  await expect(dialog.getByTestId("legal-api")).toContainText("1,000 requests per minute");
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/pricing$/);
});

test("/legal/privacy and the other documents are pages of their own without JavaScript", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  expect((await page.goto("/legal/privacy"))?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
  await expect(page).toHaveTitle("Privacy Policy | Modelify");
  await page.getByRole("link", { name: "Security & Compliance" }).click();
  await expect(page).toHaveURL(/\/legal\/security$/);
  await expect(page.getByText("RTO) under 4 hours")).toBeVisible();
  expect((await page.goto("/legal/cookies"))?.status()).toBe(404);
  await context.close();
});
