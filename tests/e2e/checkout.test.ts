// Acceptance (billing): Start Free Trial → Stripe's hosted checkout (the local stand-in) →
// /auth/success with the details → the dashboard shows the trial, because the webhook went
// through the queue and the consumer.
import { baseUrl, signIn, signUpAndConfirm, uniqueEmail } from "./browser.ts";
import { expectAccessibleDialog } from "./axe.ts";
import { expect, test } from "./fixtures.ts";

test("a new subscriber starts the free trial through Stripe Checkout", async ({ page }) => {
  await signUpAndConfirm(page, uniqueEmail("buyer"));

  await page.goto("/pricing");
  await page.getByRole("link", { name: "Start Free Trial" }).click();
  const modal = page.getByRole("dialog");
  await modal.getByText("7 days").waitFor();
  await modal.getByRole("button", { name: "Continue to Checkout" }).click();

  // Stripe's hosted page (the stand-in in local runs).
  await page.waitForURL((url) => url.origin !== baseUrl() && url.pathname.startsWith("/checkout/"));
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
  // The post-payment download dialog opens first; this journey chooses not to download yet.
  const downloadDialog = page.getByRole("dialog", { name: "Download Modelify" });
  await downloadDialog.getByRole("link", { name: "Choose different platform or architecture" }).click();
  await expect(downloadDialog).toBeHidden();
  await page.getByRole("heading", { name: "Welcome to Modelify!" }).waitFor();
  const details = page.getByTestId("subscription-details");
  await details.getByText("$4.99/month").waitFor();
  await details.getByText("Trial", { exact: true }).waitFor();
  const trialText = await details.getByText(/7 days, until/).textContent();
  const trialEnd = /until (.+)$/.exec(trialText ?? "")?.[1];
  expect(trialEnd, "trial end date shown").toBeTruthy();

  await page.getByRole("link", { name: "Go to Dashboard" }).click();
  await page.waitForURL((url) => url.pathname === "/dashboard");
  // The consumer may still be working a moment after the redirect: reload until it has.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("subscription-status")).toHaveText("Trial", { timeout: 500 });
  }).toPass({ timeout: 10_000 });
  await page.getByText("Pro - $4.99/month").waitFor();
  await page.getByText(trialEnd!).first().waitFor();
  await page.getByText("•••• 4242").waitFor();

  await page.goto("/dashboard/billing");
  await expect(page.getByTestId("payment-method")).toHaveText("Visa •••• 4242");
  await expect(page.getByTestId("next-billing")).toHaveText(trialEnd!);
  await page.goto("/dashboard/billing?view=invoices");
  await page.getByText(/MDLFY-\d{4}/).waitFor();
  // The Stripe portal's confirmation, shown only to an account with a Stripe customer (none of the
  // accessibility sweep's accounts has one).
  await page.goto("/dashboard/billing?confirm=portal");
  await expectAccessibleDialog(page, "portal-title");
});

test("two browsers of one account checking out side by side end with one subscription", async ({ page: a, newClient }) => {
  const email = uniqueEmail("twotabs");
  await signUpAndConfirm(a, email);
  const b = await newClient();
  await signIn(b, email, "Sunny-Day-42");
  await b.waitForURL((url) => url.pathname === "/dashboard");

  // Both open checkout at the same moment.
  await Promise.all([a, b].map((page) => page.goto("/pricing?checkout=open")));
  await Promise.all([a, b].map((page) => page.getByRole("dialog").getByRole("button", { name: "Continue to Checkout" }).click()));
  await Promise.all([a, b].map((page) => page.waitForURL((url) => url.origin !== baseUrl() && url.pathname.startsWith("/checkout/"))));
  expect(a.url(), "both browsers were handed the same Checkout Session").toBe(b.url());

  for (const page of [a, b]) {
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry (MM/YY)").fill("12/34");
    await page.getByLabel("CVC").fill("123");
  }
  await a.getByRole("button", { name: "Start trial" }).click();
  await a.waitForURL((url) => url.pathname === "/auth/success");
  await b.getByRole("button", { name: "Start trial" }).click();
  await b.getByText("This checkout session is no longer available.").waitFor();

  const stripe = process.env.STRIPE_URL!;
  const auth = { Authorization: "Bearer sk_test_local_modelify" };
  const customers = (await (await fetch(`${stripe}/v1/customers?email=${encodeURIComponent(email)}`, { headers: auth })).json()) as {
    data: Array<{ id: string }>;
  };
  expect(customers.data).toHaveLength(1);
  const subs = (await (await fetch(`${stripe}/v1/subscriptions?customer=${customers.data[0]!.id}&status=all`, { headers: auth })).json()) as {
    data: Array<{ status: string }>;
  };
  expect(subs.data.map((s) => s.status)).toEqual(["trialing"]);
});
