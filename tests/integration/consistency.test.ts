// Issue 14: one account, two places, one answer. Each test renders two pages for the same account
// and compares what they say about the same figure.
import { describe, expect, it } from "vitest";
import { Browser, createConfirmedUser, STRONG_PASSWORD } from "./helpers";
import { apiUser, postUsage, report, waitForRows } from "./usage-helpers";

/** The text of the element with this data-testid (tags removed, entities of apostrophes decoded). */
function testIdText(html: string, testId: string): string {
  const match = new RegExp(`data-testid="${testId}"[^>]*>([\\s\\S]*?)</(?:span|p|dd|td)>`).exec(html);
  if (!match) throw new Error(`no element with data-testid="${testId}"`);
  return match[1]!
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, "")
    .trim();
}

const exactAmounts = (html: string) => [...html.matchAll(/data-exact="([^"]+)"/g)].map((m) => m[1]);

describe("the same account, two places, the same answer", () => {
  it("shows the logo once on the auth pages (the site header's), not again in the card", async () => {
    for (const path of ["/auth", "/auth?mode=signup", "/auth?mode=forgot-password"]) {
      const html = await (await new Browser().get(path)).text();
      expect(html.match(/aria-label="Modelify home"/g), path).toHaveLength(1);
    }
  });

  it("greets a first session with Welcome and every later one with Welcome back", async () => {
    const { browser, email } = await createConfirmedUser();
    expect(await (await browser.get("/dashboard")).text()).toContain("Welcome, Ada Lovelace");
    const later = new Browser();
    expect((await later.post("/auth?mode=signin", { intent: "signin", email, password: STRONG_PASSWORD })).status).toBe(200);
    expect(await (await later.get("/dashboard")).text()).toContain("Welcome back, Ada Lovelace");
    // The first browser's session is still the account's first.
    expect(await (await browser.get("/dashboard")).text()).toContain("Welcome, Ada Lovelace");
  });

  it("shows a sub-cent call the same way in Recent Activity and the Services table: < $0.01, exact on hover", async () => {
    const { browser, token, userId } = await apiUser();
    expect((await postUsage(token, report({ model_name: "tiny-model", cost_usd: 0.0004 }))).status).toBe(202);
    await waitForRows(userId, 1);

    const overview = await (await browser.get("/dashboard")).text();
    const recent = /data-testid="recent-activity"[\s\S]*?<\/ul>/.exec(overview)![0];
    const services = /data-testid="services-table"[\s\S]*?<\/table>/.exec(await (await browser.get("/dashboard/usage?range=7d&view=services")).text())![0];
    for (const [place, html] of [
      ["recent activity", recent],
      ["services table", services],
    ] as const) {
      expect(html, place).toContain("&lt; $0.01");
      expect(exactAmounts(html), place).toEqual(["$0.0004"]);
      // Neither the old "$0.00" nor a 4-decimal figure is shown as the amount.
      expect(html.replace(/title="[^"]*"|data-exact="[^"]*"|<span class="sr-only">[^<]*<\/span>/g, ""), place).not.toMatch(/\$0\.00(?!\d)|\$0\.0004/);
    }
  });

  it("says the same about an exceeded budget on the overview and the Budget tab", async () => {
    const { browser, token, userId } = await apiUser();
    const saved = await browser.post("/dashboard/budget", {
      intent: "save-budget",
      monthlyBudget: "0.01",
      dailyBudget: "",
      alertThreshold: "",
      notificationsEnabled: "",
    });
    expect(saved.status).toBe(302);
    expect((await postUsage(token, report({ cost_usd: 0.05 }))).status).toBe(202);
    await waitForRows(userId, 1);

    const overview = testIdText(await (await browser.get("/dashboard")).text(), "overview-budget-remainder");
    const budget = testIdText(await (await browser.get("/dashboard/budget")).text(), "monthly-budget-remainder");
    expect(overview).toBe("$0.04 over budget");
    expect(budget).toBe(overview);
  });
});
