// Phone verification from the profile, with and without JavaScript: "Verify phone" opens the
// dialog, which texts a code (read here from the local outbox), the code verifies, the dialog
// closes after 2 s and the profile says Verified.
import type { Page } from "@playwright/test";
import { PHONE_CODE } from "../../app/lib/constants/index.ts";
import { baseUrl, clientContextOptions, hydrated, signUpAndConfirm, uniqueEmail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

// signUpAndConfirm's number ("555 010 9876"): stored and texted in E.164 with the default +1.
const PHONE = "+15550109876";

type OutboxMessage = { channel: string; to: string; text: string; links: string[]; createdAt: number };

/** The newest code texted to PHONE since `after` (the number is asked for unencoded, + and all). */
async function textedCode(after: number, timeoutMs = 15_000): Promise<string> {
  let sms: OutboxMessage | undefined;
  await expect
    .poll(
      async () => {
        const response = await fetch(`${baseUrl()}/dev/outbox.json?to=${PHONE}`);
        sms = ((await response.json()) as OutboxMessage[]).find((m) => m.channel === "sms" && m.createdAt >= after);
        return sms !== undefined;
      },
      { message: `an SMS to ${PHONE}`, timeout: timeoutMs, intervals: [100] },
    )
    .toBe(true);
  const code = /code is (\d{6})\b/.exec(sms!.text)?.[1];
  expect(sms!.links[0]).toBe(`${baseUrl()}/verify-phone?code=${code}&phone=${encodeURIComponent(PHONE)}`);
  return code!;
}

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

async function expectVerified(page: Page) {
  await expect(page).toHaveURL((url) => url.pathname === "/dashboard/profile" && !url.searchParams.has("phone"));
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByText("Verified", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Verify phone" })).toHaveCount(0);
}

test("verifies the phone number with the texted code", async ({ page }) => {
  await signUpAndConfirm(page, uniqueEmail("phone"));
  // The page's clock is the test's: the request's 10 s limit is moved through, not waited out.
  await page.clock.install();
  await page.goto("/dashboard/profile");
  await hydrated(page);

  // A send that gets no answer gives up after 10 s; Try Again sends.
  await page.route("**/dashboard/profile/phone", () => {});
  const sent = page.waitForRequest("**/dashboard/profile/phone");
  await page.getByRole("button", { name: "Verify phone" }).click();
  const dialog = page.getByRole("dialog", { name: "Verify Phone Number" });
  await sent;
  await page.clock.runFor(PHONE_CODE.requestTimeoutMs - 1_000);
  await expect(dialog.getByText("Verification request timed out. Please try again.")).toHaveCount(0);
  await page.clock.runFor(1_000);
  await expect(dialog.getByText("Verification request timed out. Please try again.")).toBeVisible();
  await page.unroute("**/dashboard/profile/phone");
  const sentAfter = Date.now() - 1000;
  await dialog.getByRole("button", { name: "Try Again" }).click();

  await expect(dialog.getByTestId("phone-countdown")).toContainText(/Code expires in (15:00|14:[0-5]\d)/);
  await expect(dialog.getByRole("button", { name: /^Resend in/ })).toBeDisabled();
  const code = await textedCode(sentAfter);

  const input = dialog.getByLabel("Verification code");
  await expect(input).toBeFocused();
  await expect(input).toHaveAttribute("inputmode", "numeric");
  await expect(input).toHaveAttribute("autocomplete", "one-time-code");
  const verify = dialog.getByRole("button", { name: "Verify", exact: true });
  await input.pressSequentially("12a-b3");
  await expect(input).toHaveValue("123");
  await expect(verify).toBeDisabled();

  await input.fill(wrong(code));
  await verify.click();
  await expect(dialog.getByText("Invalid verification code")).toBeVisible();

  await input.fill(code);
  await expect(verify).toBeEnabled();
  await verify.click();
  await expect(dialog.getByText("Phone number verified successfully!")).toBeVisible();
  const shownAt = Date.now();
  await expect(dialog).toBeHidden({ timeout: 5000 });
  expect(Date.now() - shownAt).toBeGreaterThan(1000);
  await expectVerified(page);
});

test("verifies the phone number without JavaScript", async ({ page, browser }) => {
  await signUpAndConfirm(page, uniqueEmail("phone-nojs"));
  const context = await browser.newContext({ ...clientContextOptions(), javaScriptEnabled: false, storageState: await page.context().storageState() });
  const noScript = await context.newPage();
  try {
    await noScript.goto("/dashboard/profile");
    const sentAfter = Date.now() - 1000;
    await noScript.getByRole("button", { name: "Verify phone" }).click();
    await expect(noScript).toHaveURL(/\/dashboard\/profile\?phone=verify$/);
    const dialog = noScript.getByRole("dialog", { name: "Verify Phone Number" });
    await expect(dialog.getByTestId("phone-countdown")).toContainText("Code expires in");
    const code = await textedCode(sentAfter);

    await dialog.getByLabel("Verification code").fill(wrong(code));
    await dialog.getByRole("button", { name: "Verify", exact: true }).click();
    await expect(noScript).toHaveURL(/phoneError=invalid-code/);
    await expect(noScript.getByRole("dialog").getByText("Invalid verification code")).toBeVisible();

    await noScript.getByRole("dialog").getByLabel("Verification code").fill(code);
    await noScript.getByRole("dialog").getByRole("button", { name: "Verify", exact: true }).click();
    await expect(noScript.getByRole("dialog").getByText("Phone number verified successfully!")).toBeVisible();
    // The refresh closes it after 2 s.
    await expectVerified(noScript);
  } finally {
    await context.close();
  }
});
