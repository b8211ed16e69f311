// An admin publishes a build from the dashboard: the file goes to R2 in parts with a progress
// bar, and the page shows the size and SHA-256 the server computed, then lists the build.
import { createHash, randomBytes } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import { hydrated, signIn, signUpAndConfirm, subscribeWithTestCard, uniqueEmail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

test("an admin uploads a build in parts and sees its size and SHA-256; subscribers are offered it", async ({ page, newClient }, testInfo) => {
  const version = `3.${Date.now() % 100_000}.0-e2e`;
  // Three parts of the 10 MB part size: two full and a last short one.
  const bytes = randomBytes(21 * 1024 * 1024 + 12_345);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  // Handed to the browser as a file on disk: Chromium reads it itself, where a 21 MB buffer would
  // travel through the driver's protocol as base64 (seconds of CPU when the machine is busy).
  const installer = testInfo.outputPath("Modelify.AppImage");
  await writeFile(installer, bytes);

  await signIn(page, "admin@modelify.dev", "Modelify-Admin-2026");
  await page.waitForURL((url) => url.pathname === "/dashboard");
  await page.goto("/dashboard/admin");
  await hydrated(page); // hydrated: the upload runs in the page
  // The demo builds published by the test site's set-up are listed, marked demo.
  await expect(page.getByRole("row", { name: /macOS Intel 1\.0\.0-demo demo/ })).toBeVisible();

  await page.getByLabel("Download option").selectOption("linux-x64");
  await page.getByLabel("Version").fill(version);
  await page.getByLabel("Installer file").setInputFiles(installer);
  await expect(page.getByText(`Modelify-${version}-linux-x64.AppImage`)).toBeVisible();
  await page.getByRole("button", { name: "Upload and publish" }).click();
  await expect(page.getByRole("progressbar", { name: /Upload progress/ })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Published Linux x64 (AppImage)" })).toContainText(sha256, { timeout: 30_000 });
  await expect(page.getByRole("status").filter({ hasText: "Published" })).toContainText(`${bytes.length.toLocaleString("en-US")} bytes`);
  await expect(page.getByRole("row", { name: new RegExp(`${version.replace(/\./g, "\\.")}.*${sha256}`) })).toBeVisible();

  // The same version again is refused with the reason, before anything is uploaded.
  await page.getByLabel("Version").fill(version);
  await page.getByRole("button", { name: "Upload and publish" }).click();
  await expect(page.getByRole("alert")).toContainText("already published");

  // A subscriber's download dialog offers the new build with its real size and checksum.
  const subscriber = await newClient();
  await signUpAndConfirm(subscriber, uniqueEmail("offered"));
  await subscribeWithTestCard(subscriber);
  await subscriber.goto("/?download=linux#download");
  const choice = subscriber.getByRole("dialog").getByRole("radio", { name: /Linux x64/ });
  await expect(choice).toBeVisible();
  const offered = subscriber.getByRole("dialog").locator("label", { has: subscriber.getByRole("radio", { name: /Linux x64/ }) });
  await expect(offered).toContainText(`v${version}`);
  // The size shown (e.g. "21 MB") carries the exact byte count in its title.
  await expect(offered.locator(`[title="${bytes.length.toLocaleString("en-US")} bytes"]`)).toBeVisible();
  await expect(offered).toContainText(sha256);
  await rm(installer);
});
