// Acceptance (billing): Start Free Trial → Stripe's hosted checkout (the local stand-in) →
// /auth/success with the details → the dashboard shows the trial, because the webhook went
// through the queue and the consumer.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import type { BrowserContext } from "playwright-core";
import { BASE_URL, firstPage, launch, signUpAndConfirm, uniqueEmail } from "./browser.ts";

let context: BrowserContext | undefined;
after(async () => {
  await context?.close();
});

test("a new subscriber starts the free trial through Stripe Checkout", async () => {
  context = await launch();
  const page = await firstPage(context);
  await signUpAndConfirm(page, uniqueEmail("buyer"));

  await page.goto("/pricing");
  await page.getByRole("link", { name: "Start Free Trial" }).click();
  const modal = page.getByRole("dialog");
  await modal.getByText("7 days").waitFor();
  await modal.getByRole("button", { name: "Continue to Checkout" }).click();

  // Stripe's hosted page (the stand-in in local runs).
  await page.waitForURL((url) => url.origin !== BASE_URL && url.pathname.startsWith("/checkout/"));
  await page.getByText("7 days free, then $4.99 per month").waitFor();
  await page.getByLabel("Card number").fill("4000 0000 0000 0002");
  await page.getByLabel("Expiry (MM/YY)").fill("12/34");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Name on card").fill("Katherine Johnson");
  await page.getByRole("button", { name: "Start trial" }).click();
  await page.getByText("Your card was declined.").waitFor();
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Start trial" }).click();

  await page.waitForURL((url) => url.pathname === "/auth/success");
  await page.getByRole("heading", { name: "Welcome to Modelify!" }).waitFor();
  const details = page.getByTestId("subscription-details");
  await details.getByText("$4.99/month").waitFor();
  await details.getByText("Trial", { exact: true }).waitFor();
  const trialText = await details.getByText(/7 days, until/).textContent();
  const trialEnd = /until (.+)$/.exec(trialText ?? "")?.[1];
  assert.ok(trialEnd, "trial end date shown");

  await page.getByRole("link", { name: "Go to Dashboard" }).click();
  await page.waitForURL((url) => url.pathname === "/dashboard");
  // The consumer may still be working a moment after the redirect: reload until it has.
  for (let i = 0; i < 20 && (await page.getByTestId("subscription-status").textContent()) !== "Trial"; i++) {
    await page.waitForTimeout(500);
    await page.reload();
  }
  assert.equal(await page.getByTestId("subscription-status").textContent(), "Trial");
  await page.getByText("Pro - $4.99/month").waitFor();
  await page.getByText(trialEnd!).first().waitFor();
  await page.getByText("•••• 4242").waitFor();

  await page.goto("/dashboard?tab=billing");
  assert.equal(await page.getByTestId("payment-method").textContent(), "Visa •••• 4242");
  assert.equal(await page.getByTestId("next-billing").textContent(), trialEnd);
  await page.goto("/dashboard?tab=billing&view=invoices");
  await page.getByText(/MDLFY-\d{4}/).waitFor();
});
