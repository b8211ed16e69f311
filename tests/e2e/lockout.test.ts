// Acceptance: five wrong passwords lock the account with the spec's message, and the lock
// holds in a different browser (another profile, another client address).
import { signIn, signUpAndConfirm, uniqueEmail } from "./browser.ts";
import { test } from "./fixtures.ts";

test("five wrong passwords lock the account in every browser", async ({ page, newClient }) => {
  const email = uniqueEmail("locked");
  await signUpAndConfirm(page, email);
  await page.context().clearCookies();
  for (let i = 1; i <= 4; i++) {
    await signIn(page, email, `Wrong-Pass-${i}`);
    await page.getByText("Invalid email or password. Please check your credentials and try again.").waitFor();
  }
  await signIn(page, email, "Wrong-Pass-5");
  await page.getByText("Too many failed attempts. Account locked for 15 minutes.").waitFor();

  const other = await newClient();
  await signIn(other, email, "Sunny-Day-42");
  await other.getByText(/Too many attempts\. Please wait \d+ seconds before trying again\./).waitFor();
});
