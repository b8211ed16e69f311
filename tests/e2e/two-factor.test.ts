// Acceptance (issue 29): turning two-factor sign-in on from the profile (the secret read off the
// page, the code made here as an authenticator app would), signing out, and signing in again with
// the password and then a code; without JavaScript, turning it on and making new recovery codes.
// SHOTS_DIR set: screenshots of the new screens at 1280 and 390 px.
import { readFileSync } from "node:fs";
import { generateTOTP } from "@epic-web/totp";
import type { Page } from "@playwright/test";
import { clientContextOptions, hydrated, signIn, signUpAndConfirm, uniqueEmail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

const TOTP = { algorithm: "SHA-1", digits: 6, period: 30 } as const;

async function shoot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * The authenticator app's code of the next time step, made on a clock one period ahead: the
 * server accepts a step either side of its own (TWO_FACTOR.window) and only steps after the last
 * one it accepted, so this code follows the setup's without waiting for the clock to move.
 */
async function nextStepCode(secret: string): Promise<string> {
  // The library reads its clock as `new Date()`: a Date whose "now" is one period ahead, for this call only.
  const RealDate = Date;
  const ahead = TOTP.period * 1000;
  globalThis.Date = class extends RealDate {
    constructor(...args: [] | ConstructorParameters<DateConstructor>) {
      if (args.length === 0) super(RealDate.now() + ahead);
      else super(...(args as ConstructorParameters<DateConstructor>));
    }
  } as DateConstructor;
  // It reads the clock synchronously, when called: the real Date is back before anything else runs.
  let code: Promise<{ otp: string }>;
  try {
    code = generateTOTP({ secret, ...TOTP });
  } finally {
    globalThis.Date = RealDate;
  }
  return (await code).otp;
}

test("turning two-factor on, signing out, and signing in with a code", async ({ page }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail("totp");
  const password = "Sunny-Day-42";
  await signUpAndConfirm(page, email, password);

  await page.goto("/dashboard/profile");
  const card = page.getByRole("region", { name: "Two-factor authentication" });
  await expect(card).toContainText("Off.");
  await shoot(page, "profile-card-off");
  // "Turn On" posts (it makes the setup's secret); the page it lands on only reads it.
  await card.getByRole("button", { name: "Turn On", exact: true }).click();
  await page.waitForURL((url) => url.pathname === "/dashboard/profile/two-factor");
  await expect(page.getByRole("img", { name: /QR code/ })).toBeVisible();
  const secret = (await page.getByTestId("two-factor-secret").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await shoot(page, "setup");

  const setupCode = (await generateTOTP({ secret, ...TOTP })).otp;
  await page.getByLabel("Code from the app").fill(setupCode);
  await page.getByRole("button", { name: "Turn On Two-Factor" }).click();
  await expect(page.getByTestId("recovery-codes").getByRole("listitem")).toHaveCount(10);
  await shoot(page, "recovery-codes");
  await page.getByRole("link", { name: /Back to Profile/ }).click();
  await expect(card).toContainText("On since");
  await expect(card).toContainText("10 recovery codes left");
  await shoot(page, "profile-card-on");

  await page.getByRole("link", { name: "Sign Out" }).first().click();
  await page.getByRole("dialog", { name: "Sign Out" }).getByRole("button", { name: "Sign Out" }).click();
  await page.waitForURL((url) => url.pathname === "/auth" || url.pathname === "/");

  await signIn(page, email, password);
  await page.waitForURL((url) => url.pathname === "/auth/two-factor");
  await shoot(page, "sign-in-code");
  // No session yet: the dashboard still sends this browser to sign in.
  expect((await page.context().cookies()).some((c) => c.name === "mfy_access")).toBe(false);
  await page.getByLabel("Authentication code").fill(await nextStepCode(secret));
  await page.getByRole("button", { name: "Verify" }).click();
  await page.waitForURL((url) => url.pathname === "/dashboard");
  expect((await page.context().cookies()).some((c) => c.name === "mfy_access")).toBe(true);
});

// Issue 46: the codes shown once can be copied and downloaded as a text file, both made in the page
// from the codes it shows; without JavaScript (the test below) they are plain text and no button shows.
test("the recovery codes copy to the clipboard with visible feedback and download as a .txt file", async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  await signUpAndConfirm(page, uniqueEmail("totp-copy"));
  await page.goto("/dashboard/profile");
  await page.getByRole("region", { name: "Two-factor authentication" }).getByRole("button", { name: "Turn On", exact: true }).click();
  await page.waitForURL((url) => url.pathname === "/dashboard/profile/two-factor");
  const secret = (await page.getByTestId("two-factor-secret").textContent())?.trim() ?? "";
  await page.getByLabel("Code from the app").fill((await generateTOTP({ secret, ...TOTP })).otp);
  await page.getByRole("button", { name: "Turn On Two-Factor" }).click();
  const shown = page.getByTestId("recovery-codes").getByRole("listitem");
  await expect(shown).toHaveCount(10);
  const codes = await shown.allTextContents();
  await hydrated(page);

  await page.getByRole("button", { name: "Copy Codes" }).click();
  const status = page.getByRole("status").filter({ hasText: "Copied to the clipboard" });
  await expect(status).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(codes.join("\n"));
  // The feedback goes after the spec's 2 s.
  await expect(status).toBeHidden();

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download .txt" }).click()]);
  expect(download.suggestedFilename()).toBe("modelify-recovery-codes.txt");
  const text = readFileSync(await download.path(), "utf8");
  expect(text).toMatch(/^Modelify recovery codes\n/);
  expect(text.trim().split("\n").slice(-10)).toEqual(codes);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("turning two-factor on and making new recovery codes work with plain form posts", async ({ page, browser }) => {
    test.setTimeout(90_000);
    const email = uniqueEmail("totp-nojs");
    const password = "Sunny-Day-42";
    // The account is made in a browser with JavaScript (its confirmation page posts by script); this one has none.
    const scripted = await browser.newContext({ ...clientContextOptions(), javaScriptEnabled: true });
    await signUpAndConfirm(await scripted.newPage(), email, password);
    await scripted.close();
    await signIn(page, email, password);
    await page.waitForURL((url) => url.pathname === "/dashboard");

    await page.goto("/dashboard/profile/two-factor");
    await expect(page.getByTestId("two-factor-secret")).toHaveCount(0);
    await page.getByRole("button", { name: "Set Up Two-Factor" }).click();
    await page.waitForURL((url) => url.pathname === "/dashboard/profile/two-factor");
    const secret = (await page.getByTestId("two-factor-secret").textContent())?.trim() ?? "";
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await page.getByLabel("Code from the app").fill((await generateTOTP({ secret, ...TOTP })).otp);
    await page.getByRole("button", { name: "Turn On Two-Factor" }).click();
    const first = page.getByTestId("recovery-codes").getByRole("listitem");
    await expect(first).toHaveCount(10);
    const oldCodes = await first.allTextContents();
    // Copy and Download run in the page: without JavaScript they are not offered.
    await expect(page.getByRole("button", { name: "Copy Codes" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Download .txt" })).toHaveCount(0);

    await page.goto("/dashboard/profile");
    const card = page.getByRole("region", { name: "Two-factor authentication" });
    await expect(card).toContainText("10 recovery codes left");
    await card.getByRole("link", { name: "Manage" }).click();
    const renew = page.getByRole("region", { name: "New recovery codes" });
    await renew.getByLabel("Password").fill(password);
    await renew.getByLabel("Authentication code").fill("not-a-code");
    await renew.getByRole("button", { name: "Make New Recovery Codes" }).click();
    await expect(page.getByRole("region", { name: "New recovery codes" }).getByText("That code is not right")).toBeVisible();

    await page.getByRole("region", { name: "New recovery codes" }).getByLabel("Password").fill(password);
    await page.getByRole("region", { name: "New recovery codes" }).getByLabel("Authentication code").fill(oldCodes[0]!);
    await page.getByRole("button", { name: "Make New Recovery Codes" }).click();
    await expect(page.getByText("the old ones no longer work")).toBeVisible();
    const fresh = await page.getByTestId("recovery-codes").getByRole("listitem").allTextContents();
    expect(fresh).toHaveLength(10);
    for (const code of oldCodes) expect(fresh).not.toContain(code);
    await shoot(page, "new-recovery-codes");
    await page.getByRole("link", { name: /Back to Profile/ }).click();
    await expect(page.getByRole("region", { name: "Two-factor authentication" })).toContainText("10 recovery codes left");
  });
});
