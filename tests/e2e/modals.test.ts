// The site's dialogs: their state is in the URL (a link opens one, even without JavaScript);
// focus moves in and never reaches the page behind; Escape, the backdrop and Close fade the dialog
// out for 300 ms before it unmounts and the URL loses its parameter; focus returns to what opened it.
import { hydrated, watchFor } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

test("a dialog keeps focus from the page behind, fades out for 300 ms on Escape and gives focus back", async ({ page }) => {
  await page.goto("/pricing");
  await hydrated(page);
  const opener = page.getByRole("link", { name: "Full Disclosure & Terms" });
  await opener.click();
  const dialog = page.getByRole("dialog", { name: "Full Disclosure & Terms" });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/terms=open/);
  // Focus is inside. Tab and Shift+Tab go round the dialog's controls and the browser's own (a
  // modal <dialog> leaves the browser's reachable), never to the page behind, which is inert.
  const focus = () => page.evaluate(() => (!document.hasFocus() ? "browser" : document.activeElement?.closest("dialog") ? "dialog" : "page"));
  expect(await focus()).toBe("dialog");
  for (const key of [...Array(8).fill("Tab"), ...Array(8).fill("Shift+Tab")]) {
    await page.keyboard.press(key);
    expect(await focus(), `after ${key}`).not.toBe("page");
  }
  await page.keyboard.press("Tab");
  if ((await focus()) === "browser") await page.keyboard.press("Tab");
  expect(await focus()).toBe("dialog");

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
  // The server's open dialog is the platform's modal one once the page runs.
  await expect.poll(() => page.locator("dialog").evaluate((dialog) => dialog.matches(":modal"))).toBe(true);
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
  // Without JavaScript the backdrop is a link to the page without the dialog.
  await plain.goto(`${new URL(page.url()).origin}/pricing?terms=open`);
  await plain.mouse.click(5, 5);
  await expect(plain.getByRole("dialog")).toHaveCount(0);
  await expect(plain).not.toHaveURL(/terms=open/);
  await noScript.close();
});
