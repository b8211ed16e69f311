// The site's dialogs: their state is in the URL (a link opens one, even without JavaScript);
// focus moves in and stays in; Escape, the backdrop and Close fade the dialog out for 300 ms
// before it unmounts and the URL loses its parameter; focus returns to what opened it.
import { hydrated, watchFor } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

test("a dialog traps focus, fades out for 300 ms on Escape and gives focus back", async ({ page }) => {
  await page.goto("/pricing");
  await hydrated(page);
  const opener = page.getByRole("link", { name: "Full Disclosure & Terms" });
  await opener.click();
  const dialog = page.getByRole("dialog", { name: "Full Disclosure & Terms" });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/terms=open/);
  // Focus is inside, and Tab / Shift+Tab never leave it.
  await expect(dialog.locator(":focus")).toHaveCount(1);
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press("Tab");
    await expect(dialog.locator(":focus")).toHaveCount(1);
  }
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press("Shift+Tab");
    await expect(dialog.locator(":focus")).toHaveCount(1);
  }

  const closing = await watchFor(page, '[data-state="closing"]');
  const pressed = Date.now();
  await page.keyboard.press("Escape");
  await closing();
  await expect(dialog).toHaveCount(0);
  expect(Date.now() - pressed).toBeGreaterThanOrEqual(300);
  await expect(page).not.toHaveURL(/terms=open/);
  await expect(opener).toBeFocused();
});

test("the backdrop and Close close a dialog; the dialog opens from its URL without JavaScript", async ({ page, browser }) => {
  await page.goto("/pricing?terms=open");
  await hydrated(page);
  await page.getByRole("dialog").getByRole("link", { name: "Close" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.goto("/pricing?terms=open");
  await hydrated(page);
  await page.mouse.click(5, 5);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page).not.toHaveURL(/terms=open/);

  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScript.newPage();
  await plain.goto(`${new URL(page.url()).origin}/pricing?terms=open`);
  await expect(plain.getByRole("dialog", { name: "Full Disclosure & Terms" })).toBeVisible();
  await plain.getByRole("dialog").getByRole("link", { name: "Close" }).click();
  await expect(plain.getByRole("dialog")).toHaveCount(0);
  await noScript.close();
});
