// The demo account's usage history (scripts/local-state.mjs writes it into its ledger on its own
// Miniflare, before any site runs) is what the served site reads: the ledger object written there
// is the one `wrangler dev` opens. If the two ever derived different object ids or folders, the
// dashboard would be empty and this test fails.
import { signIn } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

// The seed's models (scripts/usage-fixtures.mjs).
const SEEDED_MODELS = /gpt-4o|gpt-4o-mini|claude-sonnet-4|claude-3-5-haiku|gemini-2\.5-pro|mistral-large|deepseek-coder|o3-mini/;

test("the demo account's seeded month of usage shows on its dashboard and in its CSV", async ({ page }) => {
  await signIn(page, "demo@modelify.dev", "Modelify-Demo-2026");
  await page.waitForURL((url) => url.pathname === "/dashboard");
  await expect(page.getByTestId("recent-activity").getByText(SEEDED_MODELS).first()).toBeVisible();

  // Two months were seeded (3,000 reports over 60 days): the CSV's 30 days all have usage.
  const csv = await page.request.get("/dashboard/usage.csv");
  expect(csv.status()).toBe(200);
  const days = (await csv.text())
    .split("\n")
    .map((line) => /^"(\d{4}-\d{2}-\d{2})","[\d.]+",(\d+),/.exec(line))
    .filter((m) => m !== null)
    .map((m) => ({ date: m[1], requests: Number(m[2]) }));
  expect(days.length).toBeGreaterThanOrEqual(25);
  expect(days.filter((d) => d.requests > 0).length).toBeGreaterThanOrEqual(25);
  expect(days.reduce((n, d) => n + d.requests, 0)).toBeGreaterThanOrEqual(1000);
});
