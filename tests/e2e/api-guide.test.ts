// The API key setup guide: from the footer's dialog a visitor picks a provider, sees its steps and
// copies a sample key (a check for 2 s); /api-setup is the same guide, working without JavaScript.
import { hydrated } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

test("a visitor opens the guide from the footer, picks a provider and copies a sample key", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/");
  await hydrated(page);
  await page.getByRole("contentinfo").getByRole("link", { name: "API Setup Guide" }).click();
  const dialog = page.getByRole("dialog", { name: "API Key Setup Guide" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("list", { name: "Providers" }).getByRole("listitem")).toHaveCount(16);
  await dialog.getByRole("link", { name: /^Anthropic/ }).click();
  await expect(dialog.getByRole("link", { name: "Setup Steps" })).toHaveAttribute("aria-current", "page");
  await expect(dialog.getByTestId("guide-steps")).toContainText("Rate limits");
  const sample = await dialog.getByTestId("sample-key").textContent();
  await dialog.getByRole("button", { name: "Copy sample key" }).click();
  await expect(dialog.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(sample);
  const copiedAt = Date.now();
  await expect(dialog.getByRole("button", { name: "Copy sample key" })).toBeVisible({ timeout: 4000 });
  expect(Date.now() - copiedAt).toBeGreaterThanOrEqual(1500);

  // The local option needs no key and suggests port 11434; Need Help? opens Contact Support.
  await dialog.getByRole("link", { name: "Choose Provider" }).click();
  await dialog.getByRole("link", { name: /^Local models/ }).click();
  await expect(dialog.getByTestId("guide-steps")).toContainText("http://localhost:11434");
  await expect(dialog.getByTestId("sample-key")).toHaveCount(0);
  await dialog.getByRole("link", { name: "Contact support" }).click();
  await expect(page.getByRole("dialog", { name: "Contact Support" })).toBeVisible();
});

test("/api-setup works without JavaScript", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  const response = await page.goto("/api-setup");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "API Key Setup Guide" })).toBeVisible();
  await page.getByRole("link", { name: /^OpenAI/ }).click();
  await expect(page).toHaveURL(/\/api-setup\?provider=openai/);
  await expect(page.getByTestId("guide-steps")).toContainText("platform.openai.com");
  await expect(page.getByTestId("sample-key").first()).toHaveText(/^sk-proj-/);
  await expect(page).toHaveTitle("OpenAI API key | Modelify");
  await context.close();
});
