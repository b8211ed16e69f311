// Acceptance (downloads): a new subscriber pays with the test card, lands on /auth/success and
// downloads the build for this computer from the post-payment dialog; the file is byte for byte
// the published one; it shows in Recent Downloads, and Re-download gets it again.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Download } from "@playwright/test";
import { expectAccessibleDialog } from "./axe.ts";
import { hydrated, signUpAndConfirm, subscribeWithTestCard, uniqueEmail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";
import { queryLocalD1 } from "./local-d1.ts";

type ReleaseRow = { id: string; file_name: string; byte_size: number; sha256: string; version: string };

async function saved(download: Download) {
  const bytes = await readFile((await download.path())!);
  return { name: download.suggestedFilename(), size: bytes.byteLength, sha256: createHash("sha256").update(bytes).digest("hex") };
}

test("a new subscriber downloads the build for this computer right after paying, and again from history", async ({ page }) => {
  // Chromium here runs on Linux x64: the recommended build is linux-x64 (a demo build locally).
  const [published] = queryLocalD1<ReleaseRow>(
    "SELECT id, file_name, byte_size, sha256, version FROM releases WHERE option_id = 'linux-x64' ORDER BY published_at DESC LIMIT 1",
  );
  expect(published, "npm start / the test site publishes a linux-x64 build").toBeTruthy();

  await signUpAndConfirm(page, uniqueEmail("downloader"));
  await subscribeWithTestCard(page);
  // Hydrated: the dialog's script closes it a second after the download starts (the modules load
  // after the first paint; a click before that is a plain download that leaves the dialog open).
  await hydrated(page);

  const dialog = page.getByRole("dialog", { name: "Download Modelify" });
  await expect(dialog.getByText("Free trial started")).toBeVisible();
  // Behind a payment, out of the accessibility sweep's reach: checked here.
  await expectAccessibleDialog(page, "post-payment-title");
  await expect(dialog.getByTestId("post-payment-os")).toHaveText("Detected OS: Linux");
  await expect(dialog.getByText(published!.sha256)).toBeVisible();
  const [first] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Download for Linux" }).click()]);
  expect(await saved(first)).toEqual({ name: published!.file_name, size: published!.byte_size, sha256: published!.sha256 });
  // The dialog closes a second after the download starts.
  await expect(dialog).toBeHidden({ timeout: 5_000 });

  await page.goto("/dashboard/downloads");
  // Hydrated (the modules load after the first paint): Re-download then refreshes the history in
  // place; before that it is a plain form post whose answer is the file.
  await hydrated(page);
  const history = page.getByTestId("recent-downloads");
  await expect(history.getByRole("listitem")).toHaveCount(1);
  await expect(history.getByText("Linux x64 (AppImage)")).toBeVisible();
  const [again] = await Promise.all([page.waitForEvent("download"), history.getByRole("button", { name: "Re-download" }).click()]);
  expect(await saved(again)).toEqual({ name: published!.file_name, size: published!.byte_size, sha256: published!.sha256 });
  await expect(history.getByRole("listitem")).toHaveCount(2);

  // A subscriber's download dialog on the landing page (?download=<platform>): only a subscriber
  // sees it, so the accessibility sweep's accounts never do.
  await page.goto("/?download=linux");
  await expectAccessibleDialog(page, "download-title");
});

test("a free user is sent to pricing and nothing is recorded", async ({ page }) => {
  const email = uniqueEmail("free-downloader");
  await signUpAndConfirm(page, email);
  await page.goto("/#download");
  await page
    .locator("#download")
    .getByRole("link", { name: /Windows/ })
    .first()
    .click();
  await page.waitForURL((url) => url.pathname === "/pricing");
  await page.goto("/dashboard/downloads");
  await expect(page.getByRole("heading", { name: "Subscription Required" })).toBeVisible();
  const rows = queryLocalD1<{ n: number }>("SELECT count(*) AS n FROM download_history h JOIN users u ON u.id = h.user_id WHERE u.email = ?", email);
  expect(rows[0]!.n).toBe(0);
});
