// An account using issue 49's budget, alert and key features, made through the site as a person
// would: the desktop app signed in (device approval) and reporting calls of three models, budgets
// with a monthly hard cap and the thresholds 50, 80, 100, caps of one model and of the device, two
// model health rules, a webhook whose first delivery failed (its name has no server here), one
// live API key and one revoked. For `npm run screenshots`, which looks at the Budget, Alerts and
// API Keys tabs with something on them. BASE_URL must name the site (tests/e2e/browser.ts).
import type { Browser, Page } from "playwright-core";
import { baseUrl, clientContextOptions, HYDRATION_PROBE, signUpAndConfirm, uniqueEmail } from "../tests/e2e/browser.ts";
import { pollForTokens, postUsageReport, requestDeviceCode, thisDevice } from "./desktop-demo.ts";

const USAGE_TOOLS_WEBHOOK = "https://hooks.example.com/modelify/alerts";

const MODELS = [
  { model_name: "gpt-4o", model_provider: "openai", request_duration_ms: 2100 },
  { model_name: "claude-sonnet-4", model_provider: "anthropic", request_duration_ms: 2700 },
  { model_name: "gemini-2.5-flash", model_provider: "google", request_duration_ms: 900 },
];

async function report(accessToken: string, calls: Array<{ model: number; cost: number }>) {
  for (const { model, cost } of calls) {
    const { status } = await postUsageReport(baseUrl(), accessToken, { ...MODELS[model]!, cost_usd: cost });
    if (status >= 300) throw new Error(`A usage report was refused: ${status}`);
  }
}

/** Reads the page again until `done` holds (the queue's consumer works in the background). */
async function until(page: Page, what: string, done: () => Promise<boolean>) {
  for (let tries = 0; !(await done()); tries++) {
    if (tries === 60) throw new Error(`${what} did not happen within a minute`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await page.reload();
  }
}

async function setBudget(page: Page) {
  await page.goto("/dashboard/budget?edit=1");
  await page.getByLabel("Monthly Budget (USD)").fill("25");
  await page.getByLabel("Daily Budget (USD)").fill("12");
  await page.getByLabel("Alert Thresholds (%)").fill("50, 80, 100");
  await page.getByLabel(/^Monthly hard cap/).check();
  await page.getByRole("button", { name: "Save Changes" }).click();
  await page.getByText("Budget settings saved successfully!").waitFor();
  for (const [target, limit] of [
    ["gpt-4o (openai)", "5"],
    ["Work laptop", "20"],
  ] as const) {
    await page.goto("/dashboard/budget");
    const caps = page.getByTestId("budget-caps");
    // A model or device the form offers only once the ledger has it: read again until then.
    await until(page, `${target} in the cap form`, async () => (await caps.getByRole("option", { name: target }).count()) > 0);
    await caps.getByLabel("Model or device").selectOption({ label: target });
    await caps.getByLabel("Cap a month (USD)").fill(limit);
    await caps.getByRole("button", { name: "Save cap" }).click();
    await page.getByText("Budget settings saved successfully!").waitFor();
  }
}

async function setAlerts(page: Page) {
  await page.goto("/dashboard/alerts");
  for (const [kind, threshold] of [
    ["Error rate (%)", "10"],
    ["Average latency (ms)", "8000"],
  ] as const) {
    await page.getByLabel("Watch").selectOption({ label: kind });
    await page.getByLabel("Alert above").fill(threshold);
    await page.getByRole("button", { name: "Add rule" }).click();
    await page.waitForLoadState("networkidle");
  }
  await page.getByLabel("Webhook URL").fill(USAGE_TOOLS_WEBHOOK);
  await page.getByRole("button", { name: "Add webhook" }).click();
  await page.getByTestId("webhook-secret").waitFor();
}

async function makeKeys(page: Page) {
  for (const name of ["Old CI job", "Nightly spend report"]) {
    await page.goto("/dashboard/api-keys");
    await page.getByLabel("Name").fill(name);
    await page.getByRole("button", { name: "Create Key" }).click();
    await page.getByLabel("The new key").waitFor();
  }
  await page.getByRole("button", { name: "Revoke Old CI job" }).click();
  await page.getByText("The key is revoked: it no longer works.").waitFor();
}

export async function prepareUsageToolsAccount(browser: Browser): Promise<{ email: string; password: string }> {
  const email = uniqueEmail("usage-tools");
  const password = "Sunny-Day-42";
  const context = await browser.newContext(clientContextOptions());
  await context.addInitScript(HYDRATION_PROBE);
  const page = await context.newPage();
  try {
    await signUpAndConfirm(page, email, password);
    const grant = await requestDeviceCode(baseUrl(), { ...thisDevice({ name: "Work laptop" }), platform: "macos" });
    await page.goto(grant.verification_uri_complete);
    await page.getByRole("button", { name: "Approve" }).click();
    await page.getByText("Device approved.").waitFor();
    const { access_token } = await pollForTokens(baseUrl(), grant);
    await report(access_token, [
      { model: 0, cost: 0.012 },
      { model: 1, cost: 0.009 },
      { model: 2, cost: 0.0008 },
    ]);
    await setBudget(page);
    await setAlerts(page);
    await makeKeys(page);
    // $6 of gpt-4o passes its $5 cap; $9.31 today passes 50% and 80% of the $12 daily budget: one
    // alert, one delivery to the webhook.
    await report(access_token, [
      { model: 0, cost: 3 },
      { model: 0, cost: 2.988 },
      { model: 1, cost: 2.4 },
      { model: 1, cost: 0.9 },
      { model: 2, cost: 0.0092 },
    ]);
    await page.goto("/dashboard/alerts");
    await until(page, "A delivery to the webhook", async () => (await page.getByTestId("webhook-deliveries").count()) > 0);
  } finally {
    await context.close();
  }
  return { email, password };
}
