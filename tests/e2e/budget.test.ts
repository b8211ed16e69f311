// Issue 46, item 8: a budget nobody chose says it is the default until it is saved, and a daily
// budget above the monthly one is refused beside the daily field, with nothing saved, with
// JavaScript and without.
import type { Page } from "@playwright/test";
import { clientContextOptions, hydrated, markDocument, sameDocument, signUpAndConfirm, uniqueEmail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

async function fillBudget(page: Page, monthly: string, daily: string) {
  await page.getByLabel("Monthly Budget (USD)").fill(monthly);
  await page.getByLabel("Daily Budget (USD)").fill(daily);
  await page.getByRole("button", { name: "Save Changes" }).click();
}

for (const javaScriptEnabled of [false, true]) {
  test(`a daily budget above the monthly is refused beside its field and nothing is saved (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
    page,
    browser,
  }) => {
    await signUpAndConfirm(page, uniqueEmail("budget"));
    const context = javaScriptEnabled
      ? page.context()
      : await browser.newContext({ ...clientContextOptions(), javaScriptEnabled, storageState: await page.context().storageState() });
    const client = javaScriptEnabled ? page : await context.newPage();
    try {
      await client.goto("/dashboard/budget");
      await expect(client.getByTestId("budget-defaults")).toHaveText(/These are the defaults/);
      await expect(client.getByTestId("monthly-budget").getByTestId("budget-default-badge")).toHaveText("Default");
      await expect(client.getByTestId("daily-budget").getByTestId("budget-default-badge")).toHaveText("Default");

      await client.getByRole("link", { name: "Edit Budget" }).click();
      await expect(client).toHaveURL(/\/dashboard\/budget\?edit=1$/);
      if (javaScriptEnabled) {
        await hydrated(client);
        await client.evaluate(markDocument);
      }
      await fillBudget(client, "5", "6");
      const daily = client.getByLabel("Daily Budget (USD)");
      await expect(daily).toHaveAttribute("aria-invalid", "true");
      await expect(daily).toHaveAccessibleDescription("The daily budget cannot be more than the monthly budget ($5.00)");
      await expect(daily).toHaveValue("6");
      await expect(client.getByLabel("Monthly Budget (USD)")).not.toHaveAttribute("aria-invalid");
      await expect(client.getByText("Failed to save budget settings")).toHaveCount(0);
      // With JavaScript the answer came through the router, not a new document.
      if (javaScriptEnabled) expect(await client.evaluate(sameDocument)).toBe(true);

      // Nothing was saved: the budgets are still the defaults, and still say so.
      await client.goto("/dashboard/budget");
      await expect(client.getByTestId("budget-defaults")).toBeVisible();
      await expect(client.getByTestId("monthly-budget")).toContainText("of $10.00");

      // A possible pair is saved, and from then on it is the user's own.
      await client.getByRole("link", { name: "Edit Budget" }).click();
      await expect(client).toHaveURL(/\/dashboard\/budget\?edit=1$/);
      if (javaScriptEnabled) await hydrated(client);
      await fillBudget(client, "5", "5");
      await expect(client.getByText("Budget settings saved successfully!")).toBeVisible();
      await expect(client.getByTestId("monthly-budget")).toContainText("of $5.00");
      await expect(client.getByTestId("daily-budget")).toContainText("of $5.00");
      await expect(client.getByTestId("budget-defaults")).toHaveCount(0);
      await expect(client.getByTestId("budget-default-badge")).toHaveCount(0);
    } finally {
      if (!javaScriptEnabled) await context.close();
    }
  });
}
