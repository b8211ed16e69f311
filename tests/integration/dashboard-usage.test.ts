import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "~/lib/db.server";
import type { AppContext } from "~/server/context.server";
import { resolveWebAuth } from "~/server/auth.server";
import { Browser, createConfirmedUser, db, keySettings, queueSettled, visibleText } from "./helpers";
import { measured } from "./log-lines";
import { apiUser, postUsage, report, waitForRows } from "./usage-helpers";

async function seededUser() {
  const user = await apiUser();
  const reports = [
    ...Array.from({ length: 6 }, () =>
      report({
        model_name: "gpt-4o",
        model_provider: "openai",
        cost_usd: 0.02,
        tokens_used: 2000,
        request_duration_ms: 2000,
        metadata: { conversation_id: "a" },
      }),
    ),
    ...Array.from({ length: 6 }, (_, i) =>
      report({
        model_name: "gpt-4o-mini",
        model_provider: "openai",
        cost_usd: 0.001,
        tokens_used: 2000,
        request_duration_ms: 500,
        success: i !== 0,
        metadata: { conversation_id: "b" },
      }),
    ),
    report({
      model_name: "claude-sonnet-4",
      model_provider: "anthropic",
      cost_usd: 0.05,
      tokens_used: 3000,
      request_duration_ms: 3000,
      metadata: { conversation_id: "c" },
    }),
  ];
  await postUsage(user.token, { reports });
  await waitForRows(user.userId, reports.length);
  await queueSettled();
  return user;
}

describe("overview on real data", () => {
  it("shows this month's cost, tokens, requests, response time, success rate, conversations and recent activity", async () => {
    const { browser } = await seededUser();
    const html = await (await browser.get("/dashboard")).text();
    expect(html).toMatch(/data-testid="month-cost">\$0\.18</); // 6×0.02 + 6×0.001 + 0.05 = 0.176
    expect(html).toMatch(/data-testid="month-requests">13(<!-- -->)? /);
    expect(html).toMatch(/data-testid="month-tokens">27K(<!-- -->)? /);
    expect(html).toMatch(/data-testid="success-rate">92\.3%</); // 12 of 13
    expect(html).toMatch(/data-testid="avg-response">1\.38 s</); // (12000 + 3000 + 3000) / 13
    expect(html).toMatch(/data-testid="conversations">3</);
    // No complete day of use yet: the forecast is what was spent, and the page says how it is made.
    expect(html).toMatch(/data-testid="predicted">\$0\.18</);
    expect(html).toContain("How it is worked out: what you have spent so far this month.");
    expect(html).not.toContain("×1.1");
    expect((html.match(/data-testid="recent-activity"[\s\S]*?<\/ul>/)?.[0].match(/<li /g) ?? []).length).toBe(10);
    expect(html).toContain("gpt-4o-mini");
    expect(html).toContain("+1 more");
  });

  it("costs at most six D1 statements per dashboard page, with data and without", async () => {
    for (const { browser } of [await seededUser(), await createConfirmedUser()]) {
      await browser.get("/dashboard"); // a first page may record the session's activity
      for (const path of ["/dashboard", "/dashboard/usage"]) {
        const { response, d1Statements } = await measured(() => browser.get(path));
        expect(response.status, path).toBe(200);
        expect(d1Statements, path).toBeLessThanOrEqual(6);
      }
    }
  });

  it("reads the session, the subscription, the budget and whether it has caps in one D1 statement: landing, pricing, overview, usage, analytics, budget (and its device keys), billing and activation pages", async () => {
    const { browser, id: userId } = await createConfirmedUser();
    // The budget tab also lists the account's device keys, which its form can cap (ADR 0032).
    const view = async (path: string) => {
      const { response, d1Statements } = await measured(() => browser.get(path));
      expect(response.status, path).toBe(200);
      expect(d1Statements, path).toBe(path === "/dashboard/budget" ? 2 : 1);
      return visibleText(await response.text());
    };
    const paths = ["/", "/pricing", "/dashboard", "/dashboard/usage", "/dashboard/analytics", "/dashboard/budget", "/dashboard/billing", "/activate"];
    // A first view may also record the session's activity or read the releases (kept for a while).
    for (const path of paths) await browser.get(path);
    for (const path of paths) await view(path);
    expect(await view("/")).toContain("Get Subscription");
    expect(await view("/dashboard")).toContain("Free Plan");
    expect(await view("/dashboard/usage")).toContain("$0.00 / $10.00");
    expect(await view("/dashboard/analytics")).toContain("Premium Feature");
    expect(await view("/dashboard/budget")).toContain("$10.00");

    // The rows the same statement reads now exist: the pages show them, still from one statement.
    await db.insert(schema.subscriptions).values({ id: crypto.randomUUID(), userId, status: "active", currentPeriodEnd: Date.now() + 86400_000 });
    await db.insert(schema.budgets).values({ userId, monthlyBudget: 42, dailyBudget: 3, alertThreshold: 80, notificationsEnabled: true });
    expect(await view("/")).toContain("Go to Dashboard");
    const overview = await view("/dashboard");
    expect(overview).toContain("Active");
    expect(overview).toContain("$0.00 / $42.00");
    expect(await view("/dashboard/usage")).toContain("$0.00 / $42.00");
    expect(await view("/pricing")).not.toContain("Start Free Trial");
    expect(await view("/dashboard/analytics")).not.toContain("Premium Feature");
    expect(await view("/dashboard/budget")).toContain("$42.00");
  });

  it("reads those rows with the session only on a GET or HEAD: after an action, its page's loaders read what it wrote", async () => {
    const { browser, id: userId } = await createConfirmedUser();
    await db.insert(schema.budgets).values({ userId, monthlyBudget: 42, dailyBudget: 3, alertThreshold: 80, notificationsEnabled: true });
    const app = { db, env: keySettings, ctx: { waitUntil: () => {} } } as unknown as AppContext;
    const authOf = async (method: string) => {
      const request = new Request("http://localhost/dashboard", { method, headers: { Cookie: browser.cookieHeader() } });
      const { auth } = await resolveWebAuth(request, app);
      expect(auth.user?.id, method).toBe(userId);
      return auth.user!;
    };
    for (const method of ["GET", "HEAD"]) {
      expect((await authOf(method)).accountRows, method).toMatchObject({ subscription: null, budget: { monthlyBudget: 42 } });
    }
    for (const method of ["POST", "PUT", "DELETE"]) expect((await authOf(method)).accountRows, method).toBeUndefined();
  });

  it("reads the account's usage ledger with one call per page", async () => {
    for (const { browser } of [await seededUser(), await createConfirmedUser()]) {
      for (const path of ["/dashboard", "/dashboard/usage", "/dashboard/usage?range=30d", "/dashboard/budget", "/dashboard/profile", "/dashboard/usage.csv"]) {
        const { response, ledgerCalls } = await measured(() => browser.get(path));
        expect(response.status, path).toBe(200);
        expect(ledgerCalls, path).toBe(1);
      }
      // Pages without usage make none.
      expect((await measured(() => browser.get("/dashboard/billing"))).ledgerCalls).toBe(0);
    }
  });

  it("shows empty states for a user with no data", async () => {
    const { browser } = await createConfirmedUser();
    const html = await (await browser.get("/dashboard")).text();
    expect(html).toContain("No usage data");
    expect(html).toContain("No activity yet");
    expect(html).toMatch(/data-testid="avg-response">—</);
    const usage = await (await browser.get("/dashboard/usage")).text();
    expect(usage).toContain("No usage data available");
    expect(await (await browser.get("/dashboard/usage?view=keys")).text()).toContain("No API key usage data available");
    expect(await (await browser.get("/dashboard/usage?view=services")).text()).toContain("No service usage data available");
  });
});

describe("CSV export is safe to open in a spreadsheet", () => {
  it("exports model and provider names that look like formulas as plain text", async () => {
    const user = await apiUser();
    // (Names are trimmed on the way in, so a leading tab or CR never reaches the CSV; csv.test.ts covers them.)
    const names = ['=HYPERLINK("http://evil.example","x")', "+SUM(1,2)", "-2+3", "@cmd", "=1+1"];
    const reports = names.map((model_name) => report({ model_name, model_provider: "=cmd|' /C calc'!A0" }));
    expect((await postUsage(user.token, { reports })).status).toBe(202);
    await waitForRows(user.userId, reports.length);
    await queueSettled();
    const csv = await (await user.browser.get("/dashboard/usage.csv")).text();
    for (const name of names) {
      const quoted = `"'${name.replace(/"/g, '""')}"`;
      expect(csv, name).toContain(quoted);
    }
    expect(csv).not.toMatch(/(^|,)"[=+\-@\t\r]/m);
  });
});

describe("usage tab", () => {
  it("shows totals, services and provider keys for the chosen range", async () => {
    const { browser } = await seededUser();
    const html = await (await browser.get("/dashboard/usage?range=7d&view=services")).text();
    expect(html).toContain("1 day of data");
    expect(html).not.toContain("1 days");
    expect(html).toMatch(/data-testid="total-spend">\$0\.18</);
    expect(html).toMatch(/data-testid="services-table"[\s\S]*gpt-4o-mini[\s\S]*83\.3%/);
    const keys = await (await browser.get("/dashboard/usage?view=keys")).text();
    expect(keys).toContain("anthropic");
    const day = await (await browser.get("/dashboard/usage?range=1d&metric=requests&engagement=hours")).text();
    expect(day).toContain("Today, by hour (UTC)");
    expect(day).toContain("Requests by hour of day (UTC)");
  });

  it("exports the CSV of the spec: daily usage, model performance (percent, 4 decimals) and metadata", async () => {
    const { browser, email } = await seededUser();
    const response = await browser.get("/dashboard/usage.csv");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="modelify-usage-\d{4}-\d{2}-\d{2}\.csv"$/);
    const csv = await response.text();
    const lines = csv.trim().split("\r\n");
    expect(lines[0]).toBe("Daily Usage");
    // Its days are the account's zone's (the profile's default: UTC), which the header names.
    expect(lines[1]).toBe('"Date (UTC)","Total Cost (USD)","Total Requests","Total Tokens","Models Used"');
    expect(lines).toContain('"Time Zone","UTC"');
    const today = new Date().toISOString().slice(0, 10);
    expect(lines.find((l) => l.startsWith(`"${today}"`))).toMatch(/^"\d{4}-\d{2}-\d{2}","0\.1760",13,27000,"/);
    expect(lines.filter((l) => /^"\d{4}-\d{2}-\d{2}"/.test(l))).toHaveLength(30);
    expect(csv).toContain('"gpt-4o-mini","openai",6,"83.3",500,12000,"0.0060"');
    expect(csv).toContain("Export Metadata");
    expect(csv).toContain(`"Account","${email}"`);
    expect((await new Browser().get("/dashboard/usage.csv")).headers.get("Location")).toBe("/auth");
  });
});

describe("model analytics", () => {
  it("is a Premium Feature without an active subscription", async () => {
    const { browser } = await seededUser();
    const html = await (await browser.get("/dashboard/analytics")).text();
    expect(html).toContain("Premium Feature");
    expect(html).toContain("Subscribe to Access");
  });

  it("shows the subscriber's own models, filters, sorts and computed recommendations", async () => {
    const { browser, userId } = await seededUser();
    await db.insert(schema.subscriptions).values({ id: crypto.randomUUID(), userId, status: "active", currentPeriodEnd: Date.now() + 86400_000 });
    const html = await (await browser.get("/dashboard/analytics?sort=cost")).text();
    const cards = html.match(/data-testid="model-cards"[\s\S]*?<\/ul>/)?.[0] ?? "";
    const order = ["gpt-4o-mini", "gpt-4o", "claude-sonnet-4"].map((m) => cards.indexOf(`>${m}<`));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b)); // cheapest per 1K tokens first
    // gpt-4o-mini is far cheaper but fails more often (83% vs 100%): no switch is suggested,
    // its failures are.
    expect(html).not.toContain("Try gpt-4o-mini instead of gpt-4o");
    expect(html).toContain("gpt-4o-mini fails 17% of requests");
    const code = await (await browser.get("/dashboard/analytics?category=code")).text();
    expect(code).toContain("No models in this category");
  });
});

describe("budget settings", () => {
  it("persist in D1 with the spec's defaults, bounds and messages, across sessions", async () => {
    const { browser, email } = await createConfirmedUser();
    const view = await (await browser.get("/dashboard/budget")).text();
    expect(view).toContain("$10.00");
    expect(view).toContain("$0.50");
    const bad = await browser.post("/dashboard/budget", {
      intent: "save-budget",
      monthlyBudget: "-1",
      dailyBudget: "1.005",
      alertThreshold: "250",
      notificationsEnabled: "on",
    });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).not.toContain("Failed to save budget settings");
    expect(badHtml).toContain("Budgets cannot be negative");
    expect(badHtml).toContain("Alert thresholds must be at most 200%");
    const hex = await browser.post("/dashboard/budget", {
      intent: "save-budget",
      monthlyBudget: "0x10",
      dailyBudget: "Infinity",
      alertThreshold: "80",
      notificationsEnabled: "on",
    });
    expect(hex.status).toBe(400);
    expect(await hex.text()).toContain("Enter an amount in dollars, such as 12.50");
    // A number field holding no number is sent empty: the spec's "non-numeric" defaults.
    const ok = await browser.post("/dashboard/budget", {
      intent: "save-budget",
      monthlyBudget: "25.5",
      dailyBudget: "",
      alertThreshold: "",
      notificationsEnabled: "",
    });
    expect(ok.headers.get("Location")).toBe("/dashboard/budget?saved=1");
    await expect(
      db.query.budgets.findFirst({ where: eq(schema.budgets.userId, (await db.query.users.findFirst({ where: eq(schema.users.email, email) }))!.id) }),
    ).resolves.toMatchObject({
      monthlyBudget: 25.5,
      dailyBudget: 0, // non-numeric becomes 0
      alertThreshold: 80, // non-numeric falls back to 80
      alertThresholds: [80],
      notificationsEnabled: false,
    });
    const saved = await (await browser.get("/dashboard/budget?saved=1")).text();
    expect(saved).toContain("Budget settings saved successfully!");
    // A new session sees the same settings.
    const again = new Browser();
    await again.post("/auth?mode=signin", { intent: "signin", email, password: "Sunny-Day-42" });
    expect(await (await again.get("/dashboard/budget")).text()).toContain("$25.50");
  });

  it("are shown as the defaults until saved, and as the user's own once saved, even unchanged", async () => {
    const { browser } = await createConfirmedUser();
    const badges = (html: string) => html.match(/data-testid="budget-default-badge"/g)?.length ?? 0;
    const before = await (await browser.get("/dashboard/budget")).text();
    expect(before).toContain('data-testid="budget-defaults"');
    expect(visibleText(before)).toContain("You have not set a budget yet. These are the defaults");
    expect(badges(before)).toBe(2); // the monthly and the daily card
    expect(badges(await (await browser.get("/dashboard")).text())).toBe(1);
    expect(badges(await (await browser.get("/dashboard/usage")).text())).toBe(1);

    const save = await browser.post("/dashboard/budget", {
      intent: "save-budget",
      monthlyBudget: "10",
      dailyBudget: "0.5",
      alertThreshold: "80",
      notificationsEnabled: "on",
    });
    expect(save.headers.get("Location")).toBe("/dashboard/budget?saved=1");
    const after = await (await browser.get("/dashboard/budget")).text();
    expect(after).not.toContain('data-testid="budget-defaults"');
    expect(after).toContain("$10.00");
    for (const html of [after, await (await browser.get("/dashboard")).text(), await (await browser.get("/dashboard/usage")).text()]) {
      expect(badges(html)).toBe(0);
    }
  });
});
