// Acceptance (issue 46, item 5): a checkout that starts the free trial charges nothing, and the
// site says so: the success page and its dialog say the trial started, nothing was charged, and
// the first charge is the plan's price on the day Stripe ends the trial; the invoice list shows the
// trial's 0.00 invoice as the trial's, not as a payment.
import { PLAN } from "../../app/lib/constants/index.ts";
import { signUpAndConfirm, subscribeWithTestCard, uniqueEmail } from "./browser.ts";
import { axeFindings } from "./axe.ts";
import { expect, test } from "./fixtures.ts";

// As the spec writes money and dates: USD in en-US with 2 decimals; dates in UTC.
const usd = (amount: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2 }).format(amount);
const date = (ms: number) => new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" }).format(new Date(ms));

/** The trial's end as Stripe (the stand-in) has it: the customer's one subscription. */
async function stripeTrialEnd(email: string): Promise<number> {
  const stripe = process.env.STRIPE_URL!;
  const auth = { Authorization: "Bearer sk_test_local_modelify" };
  const customers = (await (await fetch(`${stripe}/v1/customers?email=${encodeURIComponent(email)}`, { headers: auth })).json()) as {
    data: Array<{ id: string }>;
  };
  const subs = (await (await fetch(`${stripe}/v1/subscriptions?customer=${customers.data[0]!.id}`, { headers: auth })).json()) as {
    data: Array<{ status: string; trial_end: number }>;
  };
  expect(subs.data.map((s) => s.status)).toEqual(["trialing"]);
  return subs.data[0]!.trial_end * 1000;
}

test("a trial's success page and invoice say nothing was charged, and when the first charge comes", async ({ page }) => {
  const email = uniqueEmail("trialist");
  await signUpAndConfirm(page, email);
  await subscribeWithTestCard(page);
  const firstCharge = `${usd(PLAN.priceUsd)} USD on ${date(await stripeTrialEnd(email))}`;

  // The dialog that opens first: no "Payment Successful!" for a payment that did not happen.
  const dialog = page.getByRole("dialog", { name: "Download Modelify" });
  await expect(dialog.getByText("Free trial started")).toBeVisible();
  await expect(dialog.getByTestId("post-payment-charge")).toHaveText(`Nothing was charged today. First charge: ${firstCharge}.`);
  await expect(page.getByText("Payment Successful!")).toHaveCount(0);
  await dialog.getByRole("link", { name: "Choose different platform or architecture" }).click();
  await expect(dialog).toBeHidden();

  // The page under it says the same, and so do its details.
  const trial = page.getByTestId("trial-started");
  await expect(trial.getByRole("heading", { name: `Your ${PLAN.trialDays}-day free trial has started` })).toBeVisible();
  await expect(trial).toContainText(`Nothing was charged today. Your first charge is ${firstCharge}, when the trial ends.`);
  const details = page.getByTestId("subscription-details");
  await expect(details.getByRole("definition").filter({ hasText: usd(0) })).toBeVisible();
  await expect(details.getByText(firstCharge.replace(" USD", ""))).toBeVisible();
  // Behind a payment, out of the accessibility sweep's reach.
  expect(await axeFindings(page, "trial started")).toEqual([]);

  // The invoice Stripe made for the trial: 0.00, labelled as the trial's, never "paid".
  await page.goto("/dashboard/billing?view=invoices");
  const row = page.getByRole("row", { name: /MDLFY-\d{4}/ });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("cell").nth(2)).toHaveText(usd(0));
  await expect(row.getByRole("cell").nth(3)).toHaveText("Free trial");
  await expect(row.getByText(/Free trial until .+: nothing charged/)).toBeVisible();
  await expect(row.getByText("paid", { exact: true })).toHaveCount(0);
});
