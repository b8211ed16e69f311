// Issue 46, item 1: the free plan is on the site. /pricing compares Free with Pro in the numbers the
// limits are enforced with (FREE_TIER: change one and the page changes), with JavaScript and
// without; the FAQ answers Free vs Pro in the same numbers; a free account's usage page says when
// each of its limits starts again.
import { FREE_TIER, PLAN } from "../../app/lib/constants/index.ts";
import { signUpAndConfirm, uniqueEmail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

// Written here with Intl, not with the app's own helpers, so the test checks them rather than repeating them.
const integer = (n: number) => n.toLocaleString("en-US");
const LIMITS = [
  ["Requests a minute", FREE_TIER.perMinute],
  ["Requests an hour", FREE_TIER.perHour],
  ["Requests a day", FREE_TIER.perDay],
  ["Requests a month", FREE_TIER.requestsPerMonth],
  ["Tokens a month", FREE_TIER.tokensPerMonth],
] as const;

for (const javaScriptEnabled of [true, false]) {
  test(`/pricing compares Free with ${PLAN.name} in the enforced limits (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled, baseURL });
    const page = await context.newPage();
    await page.goto("/pricing");
    const table = page.getByTestId("plan-comparison").getByRole("table");
    await expect(page.getByTestId("plan-comparison").getByRole("heading", { name: `Free vs ${PLAN.name}` })).toBeVisible();
    await expect(table.getByRole("columnheader")).toHaveText(["Feature", "Free", PLAN.name]);
    for (const [feature, limit] of LIMITS) {
      await expect(table.getByRole("row", { name: feature }).getByRole("cell")).toHaveText([integer(limit), "Unlimited"]);
    }
    await expect(table.getByRole("row", { name: "Price" }).getByRole("cell")).toHaveText(["$0", `$${PLAN.priceUsd} a month`]);
    await expect(table.getByRole("row", { name: "Desktop app downloads" }).getByRole("cell")).toHaveText([/Not included/, /^Included$/]);

    // The free plan's card says the same limits to a visitor, and offers an account.
    const free = page.getByTestId("free-plan");
    await expect(free).toContainText(`${FREE_TIER.perMinute} requests a minute, ${FREE_TIER.perHour} an hour and ${FREE_TIER.perDay} a day`);
    await expect(free).toContainText(`${integer(FREE_TIER.requestsPerMonth)} requests and ${integer(FREE_TIER.tokensPerMonth)} tokens a month`);
    await expect(free.getByRole("link", { name: "Create Free Account" })).toHaveAttribute("href", "/auth?mode=signup");
    await context.close();
  });
}

test(`the FAQ answers Free vs ${PLAN.name} in the enforced limits`, async ({ page }) => {
  await page.goto("/#faq");
  const faq = page.locator("#faq");
  await faq.getByText(`What is the difference between Free and ${PLAN.name}?`).click();
  const answer = page.getByTestId("faq-free-vs-pro");
  await expect(answer).toHaveAttribute("open", "");
  await expect(answer).toContainText(`${FREE_TIER.perMinute} requests a minute, ${FREE_TIER.perHour} an hour and ${FREE_TIER.perDay} a day`);
  await expect(answer).toContainText(`${integer(FREE_TIER.requestsPerMonth)} requests and ${integer(FREE_TIER.tokensPerMonth)} tokens a month`);
  await expect(answer).toContainText(`${PLAN.name} removes every limit`);
  await expect(answer.getByRole("link", { name: "Compare the plans" })).toHaveAttribute("href", "/pricing");
});

/** Where each UTC window of `now` ends (the windows of app/lib/usage/windows.ts, worked out again here). */
function windowEnds(now: number) {
  const d = new Date(now);
  const minute = 60_000;
  const hour = 60 * minute;
  return {
    minute: Math.floor(now / minute) * minute + minute,
    hour: Math.floor(now / hour) * hour + hour,
    day: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1),
    month: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1),
  };
}

const resetText = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" });

test("a free account's usage page says when each limit resets", async ({ page }) => {
  await signUpAndConfirm(page, uniqueEmail("free-limits"));
  const before = Date.now();
  await page.goto("/dashboard/usage");
  const after = Date.now();
  const limits = page.getByTestId("free-limits");
  await expect(limits).toBeVisible();
  const windows = [
    ["minute", "requests", FREE_TIER.perMinute],
    ["hour", "requests", FREE_TIER.perHour],
    ["day", "requests", FREE_TIER.perDay],
    ["month", "requests", FREE_TIER.requestsPerMonth],
    ["month", "tokens", FREE_TIER.tokensPerMonth],
  ] as const;
  for (const [window, unit, limit] of windows) {
    const cell = limits.getByTestId(`limit-${window}-${unit}`);
    await expect(cell).toContainText(`0 of ${integer(limit)} ${unit}`);
    const reset = cell.getByTestId("limit-resets");
    // The page was made between `before` and `after`: its window is the one of either moment.
    const resetsAt = Number(await reset.getAttribute("data-resets-at"));
    expect([windowEnds(before)[window], windowEnds(after)[window]]).toContain(resetsAt);
    await expect(reset).toHaveText(`Resets ${resetText.format(resetsAt)} UTC`);
  }
});
