// Acceptance (issue 12): the admin funnel counts what a visitor actually did. A visitor opens the
// landing page, signs up, confirms and starts a trial; this week's row goes up by one at each of
// those steps and by nothing at the others.
import type { Page } from "@playwright/test";
import { newClientPage, signIn, signUpAndConfirm, subscribeWithTestCard, uniqueEmail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";
import { drainQueue } from "./queue-drain.ts";

const STAGES = ["visits", "signUps", "confirmed", "usedApp", "trials", "paid"] as const;
type Counts = Record<(typeof STAGES)[number], number>;

async function thisWeek(admin: Page): Promise<Counts> {
  await admin.goto("/dashboard/admin/funnel");
  const row = admin.getByTestId("funnel-weeks").locator("tbody tr").first();
  await expect(row).toContainText("This week");
  const counts = {} as Counts;
  for (const stage of STAGES) {
    const text = await row.locator(`td[data-stage="${stage}"]`).evaluate((cell) => cell.firstChild?.textContent ?? "");
    counts[stage] = Number(text.replace(/,/g, ""));
  }
  return counts;
}

test("a visit, a sign-up, a confirmation and a trial each add one to this week's funnel", async ({ browser, site }) => {
  test.setTimeout(90_000);
  const admin = await newClientPage(browser);
  await signIn(admin, "admin@modelify.dev", "Modelify-Admin-2026");
  await admin.waitForURL((url) => url.pathname === "/dashboard");
  // Events of earlier tests on this worker's site still in the queue land first.
  await drainQueue(site);
  const before = await thisWeek(admin);

  const visitor = await newClientPage(browser);
  const seen = visitor.waitForRequest((r) => r.url().endsWith("/events") && r.postDataJSON()?.name === "ViewContent");
  await visitor.goto("/");
  await seen;
  // A second look at the landing page in the same visit is not a second visit.
  await visitor.goto("/pricing");
  await visitor.goto("/");
  await signUpAndConfirm(visitor, uniqueEmail("funnel"));
  await subscribeWithTestCard(visitor);

  const expected = { ...before, visits: before.visits + 1, signUps: before.signUps + 1, confirmed: before.confirmed + 1, trials: before.trials + 1 };
  await expect.poll(() => thisWeek(admin), { timeout: 20_000, intervals: [500] }).toEqual(expected);
  await visitor.context().close();
  await admin.context().close();
});
