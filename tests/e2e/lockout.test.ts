// Acceptance: five wrong passwords lock the account with the spec's message, and the lock
// holds in a different browser (another profile, another client address).
import { after, test } from "node:test";
import type { BrowserContext } from "playwright-core";
import { firstPage, launch, signIn, signUpAndConfirm, uniqueEmail } from "./browser.ts";

const contexts: BrowserContext[] = [];
after(async () => {
  for (const c of contexts) await c.close();
});

test("five wrong passwords lock the account in every browser", async () => {
  const email = uniqueEmail("locked");
  const first = await launch();
  contexts.push(first);
  const page = await firstPage(first);
  await signUpAndConfirm(page, email);
  await page.context().clearCookies();
  for (let i = 1; i <= 4; i++) {
    await signIn(page, email, `Wrong-Pass-${i}`);
    await page.getByText("Invalid email or password. Please check your credentials and try again.").waitFor();
  }
  await signIn(page, email, "Wrong-Pass-5");
  await page.getByText("Too many failed attempts. Account locked for 15 minutes.").waitFor();

  const second = await launch();
  contexts.push(second);
  const other = await firstPage(second);
  await signIn(other, email, "Sunny-Day-42");
  await other.getByText(/Too many attempts\. Please wait \d+ seconds before trying again\./).waitFor();
});
