// The budget and admin forms without JavaScript: a refused post answers the page again with each
// error beside its field (the control marked invalid and pointing at its error), the spec's words,
// and what was typed kept in the form.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { EARLY_ACCESS } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { createConfirmedUser, db, signedInAs } from "./helpers";

/** The control with this id, and the error it points at. */
function field(html: string, id: string) {
  const control = html.match(new RegExp(`<(?:input|select)[^>]*\\bid="${id}"[^>]*>`))?.[0] ?? "";
  const error = html.match(new RegExp(`<p id="${id}-error"[^>]*>([^<]*)</p>`))?.[1];
  return { control, error };
}

function expectRefused(html: string, id: string, message: string) {
  const { control, error } = field(html, id);
  expect(control).toContain('aria-invalid="true"');
  expect(control).toContain(`aria-describedby="${id}-error"`);
  expect(error).toBe(message);
}

describe("the budget form", () => {
  it("answers a refused post with its errors beside their fields and the values sent", async () => {
    const { browser } = await createConfirmedUser();
    const answer = await browser.post("/dashboard/budget", {
      intent: "save-budget",
      monthlyBudget: "-1",
      dailyBudget: "2.50",
      alertThreshold: "250",
      notificationsEnabled: "on",
    });
    expect(answer.status).toBe(400);
    const html = await answer.text();
    // Refused values are not a failure to retry (issue 46): the page says what to fix, where.
    expect(html).not.toContain("Failed to save budget settings");
    expectRefused(html, "budget-monthlyBudget", "Budgets cannot be negative");
    expectRefused(html, "budget-alertThreshold", "Alert thresholds must be at most 200%");
    const daily = field(html, "budget-dailyBudget");
    expect(daily.control).not.toContain("aria-invalid");
    expect(daily.control).toContain('value="2.50"');
    expect(daily.control).toMatch(/step="0.01"[^>]*min="0"|min="0"[^>]*step="0.01"/);
    expect(daily.error).toBeUndefined();
    expect(field(html, "budget-monthlyBudget").control).toContain('value="-1"');
    // Its label still names it.
    expect(html).toMatch(/<label[^>]*for="budget-monthlyBudget"[^>]*>Monthly Budget \(USD\)<\/label>/);
  });

  it("refuses a daily budget above the monthly one beside the daily field, and saves nothing", async () => {
    const { browser, id } = await createConfirmedUser();
    const answer = await browser.post("/dashboard/budget", {
      intent: "save-budget",
      monthlyBudget: "5",
      dailyBudget: "6",
      alertThreshold: "80",
      notificationsEnabled: "on",
    });
    expect(answer.status).toBe(400);
    const html = await answer.text();
    expectRefused(html, "budget-dailyBudget", "The daily budget cannot be more than the monthly budget ($5.00)");
    expect(field(html, "budget-monthlyBudget").control).not.toContain("aria-invalid");
    expect(field(html, "budget-dailyBudget").control).toContain('value="6"');
    expect(html).not.toContain("Failed to save budget settings");
    expect(await db.query.budgets.findFirst({ where: eq(schema.budgets.userId, id) })).toBeUndefined();
    // Still the defaults, and still said to be.
    expect(await (await browser.get("/dashboard/budget")).text()).toContain('data-testid="budget-defaults"');
  });
});

describe("the admin forms", () => {
  it("show the subscription tools' refusals beside the e-mail and the status", async () => {
    const { browser } = await signedInAs("admin");
    const answer = await browser.post("/dashboard/admin", { intent: "set-status", email: "not-an-address", status: "lifetime" });
    expect(answer.status).toBe(400);
    const html = await answer.text();
    expect(html).toContain("Please enter a valid email address and choose an action.");
    expectRefused(html, "debug-email", "Please enter a valid email address");
    expectRefused(html, "debug-status", "Choose one of the listed statuses.");
    expect(field(html, "debug-email").control).toContain('value="not-an-address"');
  });

  it("show a refused 'grant the top N' beside its number", async () => {
    const { browser } = await signedInAs("admin");
    const answer = await browser.post("/dashboard/admin/early-access", { intent: "grant-top", count: "0" });
    expect(answer.status).toBe(400);
    expectRefused(await answer.text(), "grant-top-count", `Enter a number from 1 to ${EARLY_ACCESS.bulkMax}.`);
  });
});
