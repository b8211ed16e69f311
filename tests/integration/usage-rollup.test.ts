// The cross-account figures (ADR 0020): each ledger's day totals land in D1's usage_rollup, and
// the admin's totals and the funnel's "Used the app" step read only that, never the ledgers.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "~/lib/db.server";
import { weekStart } from "~/lib/marketing/events";
import { loadFunnel } from "~/lib/marketing/events.server";
import { usageTotalsThisMonth } from "~/lib/usage/rollup.server";
import { db, queueSettled, signedInAs, visibleText, waitFor } from "./helpers";
import { apiUser, dailyRows, postUsage, report, storedCount } from "./usage-helpers";

async function rollupOf(userId: string) {
  return db.select().from(schema.usageRollup).where(eq(schema.usageRollup.userId, userId)).orderBy(schema.usageRollup.date);
}

describe("usage rollup", () => {
  it("holds each account's day totals as its ledger has them, the same after a re-sent batch", async () => {
    const user = await apiUser();
    const yesterday = Date.now() - 86_400_000;
    const reports = [
      ...Array.from({ length: 5 }, () => report({ cost_usd: 0.5, tokens_input: 100, tokens_output: 50, tokens_used: 150 })),
      ...Array.from({ length: 3 }, () => report({ cost_usd: 0.25, tokens_input: 10, tokens_output: 10, tokens_used: 20, occurred_at: yesterday })),
    ];
    expect((await postUsage(user.token, { reports })).status).toBe(202);
    await waitFor(async () => (await storedCount(user.userId)) === 8, "8 stored reports");
    await queueSettled();
    const byDay = new Map<string, { requests: number; tokens: number; costMicros: number }>();
    for (const row of await dailyRows(user.userId)) {
      const t = byDay.get(row.date) ?? { requests: 0, tokens: 0, costMicros: 0 };
      t.requests += row.totalRequests;
      t.tokens += row.totalTokens;
      t.costMicros += row.totalCostMicros;
      byDay.set(row.date, t);
    }
    const expected = [...byDay].sort(([a], [b]) => (a < b ? -1 : 1)).map(([date, t]) => ({ date, ...t }));
    const stored = (await rollupOf(user.userId)).map(({ date, requests, tokens, costMicros }) => ({ date, requests, tokens, costMicros }));
    expect(stored).toEqual(expected);
    expect(stored.reduce((s, d) => s + d.requests, 0)).toBe(8);

    // The same reports again: the ledger stores nothing new and the rollup keeps the same figures.
    expect((await postUsage(user.token, { reports })).status).toBe(202);
    await queueSettled();
    expect(await storedCount(user.userId)).toBe(8);
    expect((await rollupOf(user.userId)).map(({ date, requests, tokens, costMicros }) => ({ date, requests, tokens, costMicros }))).toEqual(expected);
    const account = await db.query.usageAccounts.findFirst({ where: eq(schema.usageAccounts.userId, user.userId) });
    expect(account?.firstReportAt).toBeGreaterThan(0);
  });

  it("gives the admin this month's totals of all accounts and the funnel's first-usage step", async () => {
    const before = await usageTotalsThisMonth(db);
    const funnelBefore = (await loadFunnel(db)).at(-1)!;
    const [a, b] = [await apiUser(), await apiUser()];
    expect((await postUsage(a.token, { reports: [report({ cost_usd: 1 }), report({ cost_usd: 1 })] })).status).toBe(202);
    expect((await postUsage(b.token, { reports: [report({ cost_usd: 2 })] })).status).toBe(202);
    await waitFor(async () => (await storedCount(a.userId)) === 2 && (await storedCount(b.userId)) === 1, "the reports stored");
    await queueSettled();
    const after = await usageTotalsThisMonth(db);
    expect(after.requests - before.requests).toBe(3);
    expect(after.accounts - before.accounts).toBe(2);
    expect(Math.round((after.cost - before.cost) * 100) / 100).toBe(4);
    const funnel = await loadFunnel(db);
    expect(funnel.at(-1)!.weekStart).toBe(weekStart(Date.now()));
    expect(funnel.at(-1)!.usedApp - funnelBefore.usedApp).toBe(2);

    const { browser } = await signedInAs("admin");
    const page = await browser.get("/dashboard/admin/funnel");
    expect(page.status).toBe(200);
    const text = visibleText(await page.text());
    expect(text).toContain("Usage of all accounts this month");
    expect(text).toContain("Used the app");
  });
});
