// Issue 49, alerts where people look (ADR 0033), in the browser: the Alerts tab adds and removes a
// model health rule and a webhook, shows a webhook's signing secret once, refuses a URL naming this
// machine or plain HTTP with the page's message, and lists a webhook's deliveries once a budget
// threshold set on the budget tab ("50, 80, 100") is passed. A new account for each test.
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { clientContextOptions, hydrated, signUpAndConfirm, uniqueEmail, waitForMail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";
import { drainQueue } from "./queue-drain.ts";

const PASSWORD = "Sunny-Day-42";
const HOOK = "https://hooks.example.com/modelify";

async function addWebhook(client: Page, url: string) {
  await client.getByLabel("Webhook URL").fill(url);
  await client.getByRole("button", { name: "Add webhook" }).click();
}

for (const javaScriptEnabled of [false, true]) {
  test(`the Alerts tab adds and removes a health rule and a webhook, and refuses private and plain-HTTP URLs (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
    page,
    browser,
  }) => {
    const email = uniqueEmail("alerts");
    await signUpAndConfirm(page, email, PASSWORD);
    const context = javaScriptEnabled
      ? page.context()
      : await browser.newContext({ ...clientContextOptions(), javaScriptEnabled, storageState: await page.context().storageState() });
    const client = javaScriptEnabled ? page : await context.newPage();
    try {
      await client.goto("/dashboard/alerts");
      if (javaScriptEnabled) await hydrated(client);
      await expect(client.getByRole("heading", { level: 1, name: "Alerts" })).toBeVisible();
      await expect(client.getByText("No rules yet.")).toBeVisible();

      // A rule: a value that is no number is refused beside its field, then a good one is listed.
      await client.getByLabel("Watch").selectOption({ label: "Error rate (%)" });
      await client.getByLabel("Alert above").fill("lots");
      await client.getByRole("button", { name: "Add rule" }).click();
      await expect(client.getByLabel("Alert above")).toHaveAccessibleDescription(/Enter a whole number, such as 25/);
      await expect(client.getByTestId("alert-rules")).toHaveCount(0);
      await client.getByLabel("Alert above").fill("25");
      await client.getByRole("button", { name: "Add rule" }).click();
      await expect(client.getByTestId("alert-rules").getByRole("listitem")).toHaveText([/Error rate above 25%/]);

      // Webhooks: this machine and plain HTTP are refused with the page's words, nothing added.
      const url = client.getByLabel("Webhook URL");
      await addWebhook(client, "https://127.0.0.1/");
      await expect(url).toHaveAttribute("aria-invalid", "true");
      await expect(url).toHaveAccessibleDescription("Webhook URLs must point to a public internet address, not to this machine or a private network");
      await addWebhook(client, "http://hooks.example.com/modelify");
      await expect(url).toHaveAccessibleDescription("Webhook URLs must start with https://");
      await expect(client.getByTestId("webhook")).toHaveCount(0);

      // A public HTTPS name: added, its secret shown on this answer only, its owner mailed.
      await addWebhook(client, HOOK);
      const secret = client.getByTestId("webhook-secret");
      await expect(secret).toContainText("shown only this once");
      await expect(secret).toContainText(`Webhook added: ${HOOK}.`);
      await expect(secret.locator("code")).toHaveText(/^whsec_\S{20,}$/);
      await expect(client.getByTestId("webhook")).toHaveCount(1);
      await expect(client.getByTestId("webhook")).toContainText(HOOK);
      await expect(client.getByTestId("webhook")).toContainText("No deliveries yet.");
      await waitForMail(email, /A webhook was added to your Modelify account/);
      await client.goto("/dashboard/alerts");
      await expect(client.getByTestId("webhook")).toHaveCount(1);
      await expect(client.getByTestId("webhook-secret")).toHaveCount(0);
      await expect(client.getByText(/whsec_/)).toHaveCount(0);

      // Both removed.
      await client.getByRole("button", { name: `Remove the webhook to ${HOOK}` }).click();
      await expect(client.getByTestId("webhook")).toHaveCount(0);
      await client.getByRole("button", { name: "Remove the rule: Error rate above 25%" }).click();
      await expect(client.getByText("No rules yet.")).toBeVisible();
      await expect(client.getByTestId("alert-rules")).toHaveCount(0);
    } finally {
      if (!javaScriptEnabled) await context.close();
    }
  });
}

test("budget thresholds of 50, 80 and 100% show on the Alerts tab, and passing one lists a delivery to the webhook", async ({ page, site }) => {
  const email = uniqueEmail("alerts-deliveries");
  await signUpAndConfirm(page, email, PASSWORD);
  await page.goto("/dashboard/budget?edit=1");
  await page.getByLabel("Monthly Budget (USD)").fill("1");
  await page.getByLabel("Daily Budget (USD)").fill("0");
  const thresholds = page.getByLabel("Alert Thresholds (%)");
  // A list that breaks a rule is refused beside the field.
  await thresholds.fill("50, 80, 250");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(thresholds).toHaveAccessibleDescription(/Alert thresholds must be at most 200%/);
  await thresholds.fill("100, 50, 80");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Budget settings saved successfully!")).toBeVisible();

  await page.goto("/dashboard/alerts");
  await expect(page.getByText(/^Budget alerts at 50%, 80%, 100%/)).toBeVisible();
  await addWebhook(page, HOOK);
  await expect(page.getByTestId("webhook-secret")).toBeVisible();

  // $0.60 of $1.00 passes 50%: one alert, one delivery to the webhook (a name with no server here,
  // so the delivery fails and is shown as failed; the queue retries it later).
  const token = await fetch(`${site.baseUrl}/api/v1/auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": "198.19.0.79" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const { access_token } = (await token.json()) as { access_token: string };
  const posted = await fetch(`${site.baseUrl}/api/v1/usage`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${access_token}` },
    body: JSON.stringify({
      report_id: randomUUID(),
      model_name: "e2e-alert-model",
      model_provider: "e2e-provider",
      request_type: "chat",
      tokens_used: 100,
      tokens_input: 80,
      tokens_output: 20,
      cost_usd: 0.6,
      request_duration_ms: 300,
      success: true,
      app_version: "1.0.5",
      app_instance_id: "e2e-alerts",
    }),
  });
  expect(posted.status).toBe(202);
  await drainQueue(site);
  await waitForMail(email, /Modelify budget alert: 60% of your monthly budget used/);
  // The delivery is its own queue message, after the usage's batch: the page is read again until
  // its row is there (the event, not a time).
  const deliveries = page.getByTestId("webhook-deliveries");
  await expect(async () => {
    await page.reload();
    await expect(deliveries.getByRole("listitem")).not.toHaveCount(0, { timeout: 500 });
  }).toPass({ timeout: 30_000 });
  const first = deliveries.getByRole("listitem").first();
  await expect(first).toContainText("Budget threshold");
  await expect(first).toContainText("attempt 1");
  await expect(first).toContainText(/Failed: (Could not connect|No answer within \d+ s)/);
});
