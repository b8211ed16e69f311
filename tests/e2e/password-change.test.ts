// Issue 46, item 6: a signed-in user changes the password from the profile (current password, the
// new one twice with the strength meter); every other browser is signed out, this one stays, and
// the new password signs in. Password managers' /.well-known/change-password leads there. With
// JavaScript and without it.
import type { Page } from "@playwright/test";
import { clientContextOptions, signIn, signUpAndConfirm, uniqueEmail, waitForMail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

const OLD = "Sunny-Day-42";
const NEW = "Quiet-River-2031";

async function changeFrom(page: Page) {
  await page.goto("/.well-known/change-password");
  await page.waitForURL((url) => url.pathname === "/dashboard/profile/password");
  await page.getByLabel("Current password").fill(OLD);
  await page.getByLabel("New password", { exact: true }).fill(NEW);
  await page.getByLabel("Confirm new password").fill(NEW);
  await page.getByRole("button", { name: "Change Password" }).click();
  await page.waitForURL((url) => url.pathname === "/dashboard/profile" && url.searchParams.get("password") === "changed");
  await expect(page.getByRole("region", { name: "Password" })).toContainText("Your password is changed.");
}

for (const javaScript of [true, false]) {
  test.describe(javaScript ? "with JavaScript" : "without JavaScript", () => {
    test("a password change works, ends the other sessions and keeps this one", async ({ browser, newClient }) => {
      const email = uniqueEmail(javaScript ? "pw-js" : "pw-nojs");
      const other = await newClient();
      await signUpAndConfirm(other, email, OLD);
      const context = await browser.newContext({ ...clientContextOptions(), javaScriptEnabled: javaScript });
      const page = await context.newPage();
      await signIn(page, email, OLD);
      await page.waitForURL((url) => url.pathname === "/dashboard");

      // A wrong current password is refused beside its field, and nothing changes (with JavaScript;
      // the same answer without it is the Workers tests' subject).
      if (javaScript) await refusesWrongPassword(page);

      await changeFrom(page);
      await other.goto("/dashboard");
      await other.waitForURL((url) => url.pathname === "/auth");
      await page.goto("/dashboard");
      await expect(page).toHaveURL(/\/dashboard$/);
      await waitForMail(email, /Your Modelify password was changed/);
      if (javaScript) {
        const fresh = await newClient();
        await signIn(fresh, email, NEW);
        await fresh.waitForURL((url) => url.pathname === "/dashboard");
      }
      await context.close();
    });
  });
}

async function refusesWrongPassword(page: Page) {
  await page.goto("/dashboard/profile/password");
  await page.getByLabel("Current password").fill("Not-The-Password-1");
  await page.getByLabel("New password", { exact: true }).fill(NEW);
  await page.getByLabel("Confirm new password").fill(NEW);
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(page.getByText("That password is not right.")).toBeVisible();
  await expect(page.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");
}
