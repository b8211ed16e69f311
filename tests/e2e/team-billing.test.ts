// Issue 50 (ADR 0037): the owner starts a team's Team plan through Stripe's hosted checkout (the
// local stand-in's page) with a number of seats and the team's one trial, the webhook (through the
// queue and the consumer) makes it the team's plan, and a seat change is answered on the page.
import { baseUrl, hydrated, signUpAndConfirm, uniqueEmail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

test("the owner starts the Team plan for 3 seats on the stand-in's checkout page, then adds a seat", async ({ page }) => {
  test.setTimeout(90_000);
  await signUpAndConfirm(page, uniqueEmail("team-payer"));
  await page.goto("/dashboard/teams");
  await hydrated(page);
  await page.getByLabel("Team name").fill("Paying Team");
  await page.getByRole("button", { name: "Create Team" }).click();
  await page.waitForURL(/\/dashboard\/teams\/[a-z0-9-]+$/);
  const billing = `${new URL(page.url()).pathname}/billing`;

  await page.goto(billing);
  await hydrated(page);
  await expect(page.getByRole("heading", { name: "Start the Team plan" })).toBeVisible();
  await page.getByRole("spinbutton", { name: "Seats" }).fill("3");
  await page.getByRole("button", { name: "Start Free Trial" }).click();

  // Stripe's hosted page (the stand-in in local runs): the quantity and its total.
  await page.waitForURL((url) => url.origin !== baseUrl() && url.pathname.startsWith("/checkout/"));
  await expect(page.getByText("Quantity: 3")).toBeVisible();
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Start trial" }).click();
  await page.waitForURL((url) => url.origin === baseUrl() && url.pathname === billing);
  await expect(page.getByText("Payment received")).toBeVisible();

  // The consumer may still be working a moment after the redirect: reload until it has.
  const plan = page.getByRole("region", { name: "Plan" });
  await expect(async () => {
    await page.reload();
    await expect(plan.getByText("Trial", { exact: true })).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 15_000 });
  await expect(plan).toContainText("1 of 3 used");

  await hydrated(page);
  await expect(page.getByRole("heading", { name: "Change seats" })).toBeVisible();
  await page.getByRole("spinbutton", { name: "Seats" }).fill("4");
  await page.getByRole("button", { name: "Update Seats" }).click();
  await expect(page.getByText("The team now has 4 seats.")).toBeVisible();
  await expect(plan).toContainText("1 of 4 used");
});
