// Screenshots of issue 49's Budget, Alerts and API Keys tabs on an account using them
// (scripts/usage-tools-account.ts), then what their forms show only once: a webhook's signing
// secret and a new key's secret. Part of `npm run screenshots`.
import type { Browser, BrowserContext } from "playwright-core";
import { signIn } from "../tests/e2e/browser.ts";
import { prepareUsageToolsAccount } from "./usage-tools-account.ts";

type Viewports = ReadonlyArray<readonly [number, number, string]>;

const PAGES = [
  ["usage-tools-budget", "/dashboard/budget"],
  ["usage-tools-budget-edit", "/dashboard/budget?edit=1"],
  ["usage-tools-usage", "/dashboard/usage"],
  ["usage-tools-alerts", "/dashboard/alerts"],
  ["usage-tools-api-keys", "/dashboard/api-keys"],
] as const;

export async function shootUsageTools(
  browser: Browser,
  launch: (viewport: { width: number; height: number }) => Promise<BrowserContext>,
  viewports: Viewports,
) {
  const account = await prepareUsageToolsAccount(browser);
  const signedIn = async (width: number, height: number) => {
    const context = await launch({ width, height });
    const page = await context.newPage();
    await signIn(page, account.email, account.password);
    await page.waitForURL((u) => u.pathname === "/dashboard");
    return { context, page };
  };
  for (const [width, height, label] of viewports) {
    const { context, page } = await signedIn(width, height);
    for (const [name, path] of PAGES) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: `screenshots/${name}-${label}.png`, fullPage: true });
    }
    await context.close();
  }
  // After every tab's own shot: the webhook is removed again, the key stays listed as revoked.
  for (const [width, height, label] of viewports) {
    const { context, page } = await signedIn(width, height);
    const hook = `https://hooks.example.com/modelify/${label}`;
    await page.goto("/dashboard/alerts");
    await page.getByLabel("Webhook URL").fill(hook);
    await page.getByRole("button", { name: "Add webhook" }).click();
    await page.getByTestId("webhook-secret").waitFor();
    // The answer shows the secret a moment before the page's list, read again, has the webhook.
    await page.getByTestId("webhook").filter({ hasText: hook }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `screenshots/usage-tools-webhook-added-${label}.png`, fullPage: true });
    await page.getByRole("button", { name: `Remove the webhook to ${hook}` }).click();
    await page.waitForLoadState("networkidle");
    await page.goto("/dashboard/api-keys");
    await page.getByLabel("Name").fill(`Dashboard sync (${label})`);
    await page.getByRole("button", { name: "Create Key" }).click();
    await page.getByLabel("The new key").waitFor();
    await page.getByRole("button", { name: `Revoke Dashboard sync (${label})` }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `screenshots/usage-tools-api-key-created-${label}.png`, fullPage: true });
    await page.getByRole("button", { name: `Revoke Dashboard sync (${label})` }).click();
    await page.getByText("The key is revoked: it no longer works.").waitFor();
    await context.close();
  }
}
