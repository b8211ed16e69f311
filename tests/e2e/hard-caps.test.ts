// Issue 49, caps that hold (ADR 0032), in the browser: a monthly hard cap and a cap of one model
// are set on the budget tab with JavaScript and without, a bad cap is refused beside its field
// with nothing saved, and once the account's spend passes the monthly cap the usage tab says the
// desktop app's requests are refused, and until when. Each test is a new account of its own.
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { clientContextOptions, hydrated, markDocument, sameDocument, signUpAndConfirm, uniqueEmail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";
import { drainQueue } from "./queue-drain.ts";

const PASSWORD = "Sunny-Day-42";

/** A desktop token for the account (the password grant, as the desktop app of old did). */
async function desktopToken(baseUrl: string, email: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/v1/auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": "198.19.0.78" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** One model call reported as the desktop app does, accepted (then the queue's consumer stores it). */
async function report(baseUrl: string, token: string, model: string, costUsd: number) {
  const response = await fetch(`${baseUrl}/api/v1/usage`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({
      report_id: randomUUID(),
      model_name: model,
      model_provider: "e2e-provider",
      request_type: "chat",
      tokens_used: 1200,
      tokens_input: 1000,
      tokens_output: 200,
      cost_usd: costUsd,
      request_duration_ms: 640,
      success: true,
      app_version: "1.0.5",
      app_instance_id: "e2e-caps",
    }),
  });
  expect(response.status).toBe(202);
}

/** The month after now's, short, in UTC (the new account's zone): the monthly cap's reset is its 1st. */
function nextMonthName(now = new Date()) {
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return next.toLocaleString("en-US", { month: "short", timeZone: "UTC" });
}

async function openEditor(client: Page, javaScriptEnabled: boolean) {
  await client.getByRole("link", { name: "Edit Budget" }).click();
  await expect(client).toHaveURL(/\/dashboard\/budget\?edit=1$/);
  if (javaScriptEnabled) await hydrated(client);
}

for (const javaScriptEnabled of [false, true]) {
  test(`a monthly hard cap and a model's cap are set on the budget tab, and the usage tab says when the cap is reached (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
    page,
    browser,
    site,
  }) => {
    const email = uniqueEmail("caps");
    await signUpAndConfirm(page, email, PASSWORD);
    const token = await desktopToken(site.baseUrl, email);
    const model = `e2e-capped-${randomUUID().slice(0, 8)}`;
    // A model the account has used: the cap form offers only those (and the account's devices).
    await report(site.baseUrl, token, model, 0.4);
    await drainQueue(site);

    const context = javaScriptEnabled
      ? page.context()
      : await browser.newContext({ ...clientContextOptions(), javaScriptEnabled, storageState: await page.context().storageState() });
    const client = javaScriptEnabled ? page : await context.newPage();
    try {
      await client.goto("/dashboard/budget");
      await expect(client.getByTestId("cap-reached")).toHaveCount(0);
      await openEditor(client, javaScriptEnabled);
      await client.getByLabel("Monthly Budget (USD)").fill("1");
      await client.getByLabel("Daily Budget (USD)").fill("0");
      await client.getByLabel("Alert Thresholds (%)").fill("50, 80, 100");
      await client.getByLabel(/^Monthly hard cap/).check();
      await client.getByRole("button", { name: "Save Changes" }).click();
      await expect(client.getByText("Budget settings saved successfully!")).toBeVisible();
      await expect(client.getByTestId("monthly-budget")).toContainText("of $1.00");
      await expect(client.getByTestId("monthly-budget-hard-cap")).toHaveText(/Hard cap: the desktop app's requests are refused at this budget/);
      await expect(client.getByTestId("daily-budget-hard-cap")).toHaveCount(0);
      // The thresholds, lowest first, in the tips and on the Alerts tab.
      await expect(client.getByText("Alerts are sent at 50%, 80%, 100% of a budget")).toBeVisible();

      // A cap of $0 is refused beside its field, nothing is saved, and the choice stays made.
      const caps = client.getByTestId("budget-caps");
      if (javaScriptEnabled) await client.evaluate(markDocument);
      await caps.getByLabel("Model or device").selectOption({ label: `${model} (e2e-provider)` });
      await caps.getByLabel("Cap a month (USD)").fill("0");
      await caps.getByRole("button", { name: "Save cap" }).click();
      const limit = caps.getByLabel("Cap a month (USD)");
      await expect(limit).toHaveAttribute("aria-invalid", "true");
      await expect(limit).toHaveAccessibleDescription(/A cap must be more than \$0: remove the cap to stop capping/);
      await expect(caps.getByTestId("cap-row")).toHaveCount(0);
      await expect(caps.getByText("No caps of single models or devices.")).toBeVisible();
      if (javaScriptEnabled) expect(await client.evaluate(sameDocument)).toBe(true);
      await expect(caps.getByLabel("Model or device")).toHaveValue(/^model:/);

      await limit.fill("5");
      await caps.getByRole("button", { name: "Save cap" }).click();
      await expect(client.getByText("Budget settings saved successfully!")).toBeVisible();
      await expect(caps.getByTestId("cap-row")).toHaveCount(1);
      const row = caps.getByTestId("cap-row");
      await expect(row).toContainText(`${model} (e2e-provider)`);
      await expect(row).toContainText("Model");
      await expect(row).toContainText("$0.40 of $5.00 this month");
      await expect(row.getByRole("progressbar", { name: `Cap of ${model} (e2e-provider) used` })).toHaveAttribute("aria-valuenow", "8");
      await expect(row).not.toContainText("Reached");

      // Spend passes the monthly cap ($0.40 + $0.75 of $1.00); the model's own cap is not reached.
      await report(site.baseUrl, token, model, 0.75);
      await drainQueue(site);
      await client.goto("/dashboard/usage");
      const notice = client.getByTestId("cap-reached");
      await expect(notice).toHaveText(
        new RegExp(`^Your monthly hard cap of \\$1\\.00 is reached: the desktop app's requests are refused until 00:00 on ${nextMonthName()} 1 \\(UTC\\)\\.$`),
      );
      await expect(notice.getByRole("listitem")).toHaveCount(1);
      // The budget tab says so too, and the model's line shows its own spend.
      await client.goto("/dashboard/budget");
      await expect(client.getByTestId("cap-reached")).toContainText("Your monthly hard cap of $1.00 is reached");
      await expect(row).toContainText("$1.15 of $5.00 this month");
      await expect(row).not.toContainText("Reached");

      // Removing the model's cap (the monthly one is the budget form's switch).
      await caps.getByRole("button", { name: `Remove the cap for ${model} (e2e-provider)` }).click();
      await expect(row).toHaveCount(0);
    } finally {
      if (!javaScriptEnabled) await context.close();
    }
  });
}
