// Issue 48: figures and dates in the visitor's locale and the account's zone, the same in the
// server's HTML and after hydration (no hydration warning in the console), and the dashboard's
// question of the time zone, asked once, whose answer redraws the usage page's days.
import type { Browser, Page } from "@playwright/test";
import { afterRender, clientContextOptions, HYDRATION_PROBE, hydrated, signUpAndConfirm, uniqueEmail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

const PASSWORD = "Sunny-Day-42";

/** A person's browser in their locale and zone, whose console is watched from the first page on. */
async function visitor(browser: Browser, locale: string, timezoneId: string) {
  const context = await browser.newContext(clientContextOptions(undefined, { locale, timezoneId }));
  await context.addInitScript(HYDRATION_PROBE);
  const page = await context.newPage();
  // Errors (React reports a hydration mismatch as one) and any warning about hydration.
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || (message.type() === "warning" && /hydrat/i.test(message.text()))) problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  return { page, problems, close: () => context.close() };
}

/** The visible text of an element, as the browser has it after hydration. */
const domText = (page: Page, testId: string) => page.getByTestId(testId).evaluate((element) => element.textContent ?? "");

test("a German visitor reads 1.234,56 $ and German dates, in the server's HTML and after hydration alike", async ({ browser }) => {
  const { page, problems, close } = await visitor(browser, "de-DE", "Europe/Berlin");
  await signUpAndConfirm(page, uniqueEmail("german"), PASSWORD);
  const saved = await page.request.post("/dashboard/budget", {
    headers: { Origin: new URL(page.url()).origin },
    form: { intent: "save-budget", monthlyBudget: "1234.56", dailyBudget: "12.5", alertThreshold: "80", notificationsEnabled: "on" },
    maxRedirects: 0,
  });
  expect(saved.status()).toBe(302);

  // The server's page as this browser gets it (Accept-Language from its locale), without JavaScript.
  const serverOnly = await browser.newContext({
    ...clientContextOptions(undefined, { locale: "de-DE", timezoneId: "Europe/Berlin" }),
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  const plain = await serverOnly.newPage();
  await plain.goto("/dashboard/budget");
  const server = { monthly: await domText(plain, "monthly-budget"), resets: await domText(plain, "monthly-budget-resets") };
  await serverOnly.close();
  expect(server.monthly).toMatch(/1\.234,56\s\$/);
  // "1. Dez., 00:00 UTC": the day first, the month in German, hours 00 to 23.
  expect(server.resets).toMatch(/\d{1,2}\. [A-ZÄÖÜ][a-zäöü]{2,4}\.?, 00:00 UTC/);

  await page.goto("/dashboard/budget");
  await hydrated(page);
  await afterRender(page);
  await expect(page.getByTestId("monthly-budget")).toContainText(/1\.234,56\s\$/);
  expect(await domText(page, "monthly-budget")).toBe(server.monthly);
  expect(await domText(page, "monthly-budget-resets")).toBe(server.resets);
  await expect(page.getByTestId("daily-budget")).toContainText(/12,50\s\$/);
  expect(problems).toEqual([]);
  await close();
});

/** The most recent instant at 00:30 in Tokyo: already the next day there, still the day before in UTC. */
function justAfterTokyoMidnight(now: number): number {
  const at = 15.5 * 3_600_000;
  return Math.floor((now - at) / 86_400_000) * 86_400_000 + at;
}

/** The usage page's "Requests by day" bars, as their titles say them ("11月29日: 1"). */
async function dayBars(page: Page): Promise<string[]> {
  return page.locator('[data-chart="Requests by day"] rect title').allTextContents();
}

test("the dashboard asks once to count in the browser's zone; a Japanese visitor in Tokyo then sees Tokyo's days, the Japanese way", async ({ browser }) => {
  const { page, problems, close } = await visitor(browser, "ja-JP", "Asia/Tokyo");
  const email = uniqueEmail("tokyo");
  await signUpAndConfirm(page, email, PASSWORD);

  // A model call at 00:30 in Tokyo: the day before in UTC.
  const token = await page.request.post("/api/v1/auth/token", { data: { email, password: PASSWORD } });
  expect(token.status()).toBe(200);
  const { access_token } = (await token.json()) as { access_token: string };
  const at = justAfterTokyoMidnight(Date.now());
  const posted = await page.request.post("/api/v1/usage", {
    headers: { Authorization: `Bearer ${access_token}` },
    data: {
      report_id: crypto.randomUUID(),
      model_name: "tokyo-model",
      model_provider: "e2e-provider",
      request_type: "chat",
      tokens_used: 1200,
      cost_usd: 0.01,
      request_duration_ms: 640,
      success: true,
      occurred_at: new Date(at).toISOString(),
      app_version: "1.0.5",
      app_instance_id: "e2e-tokyo",
    },
  });
  expect(posted.status()).toBe(202);
  const label = (zone: string) => new Intl.DateTimeFormat("ja-JP", { month: "short", day: "numeric", timeZone: zone }).format(at);
  expect(label("UTC")).not.toBe(label("Asia/Tokyo"));

  // Counted in UTC, the account's zone until asked: the day before.
  await expect(async () => {
    await page.goto("/dashboard/usage");
    expect(await dayBars(page)).toContain(`${label("UTC")}: 1`);
  }).toPass({ timeout: 15_000 });

  await page.goto("/dashboard");
  await hydrated(page);
  const question = page.getByTestId("zone-question");
  await expect(question).toContainText("Your browser's time zone is Asia/Tokyo. Show your usage in Asia/Tokyo?");
  await question.getByRole("button", { name: "Use Asia/Tokyo" }).click();
  await expect(question).toHaveCount(0);

  // Asked once: not again.
  await page.reload();
  await hydrated(page);
  await afterRender(page);
  await expect(page.getByTestId("zone-question")).toHaveCount(0);
  // Japanese dates on the overview, the same after hydration as in the server's HTML.
  await expect(page.getByText(/\d{4}年\d{1,2}月\d{1,2}日/).first()).toBeVisible();

  // The usage page draws its days in Tokyo's zone now: the call is on Tokyo's day.
  await page.goto("/dashboard/usage");
  await hydrated(page);
  await expect(page.getByText("Last 7 days (Asia/Tokyo)").first()).toBeVisible();
  const bars = await dayBars(page);
  expect(bars).toContain(`${label("Asia/Tokyo")}: 1`);
  expect(bars).toContain(`${label("UTC")}: 0`);
  expect(await page.request.get("/dashboard/usage.csv").then((r) => r.text())).toContain('"Date (Asia/Tokyo)"');
  expect(problems).toEqual([]);
  await close();
});
