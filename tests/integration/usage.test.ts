import { createExecutionContext, createMessageBatch, env, getQueueResult, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { handlers as worker } from "../worker";
import { LEDGER, MS } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { dayKey, monthKey } from "~/lib/usage/dates";
import { UTC } from "~/lib/time-zone";
import { db, inOneMinute, queueSettled, waitForMail } from "./helpers";
import { secondsUntilWindowEnds } from "~/server/usage-api.server";
import {
  apiUser,
  dailyRow,
  ledger,
  ledgerDayTotals,
  ledgerSql,
  postUsage,
  rawReports,
  report,
  rollupDays,
  storedCount,
  summedRequests,
  waitForRows,
} from "./usage-helpers";

describe("POST /api/v1/usage", () => {
  it("answers the same before the router and through it (a trailing slash), and 405 to other methods", async () => {
    const { token, userId } = await apiUser();
    const direct = await postUsage(token, report());
    const routed = await SELF.fetch("http://localhost/api/v1/usage/", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify(report()),
    });
    expect([direct.status, routed.status]).toEqual([202, 202]);
    expect(await routed.json()).toEqual(await direct.json());
    // Both answers carry the site's security headers.
    for (const response of [direct, routed]) expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    await waitForRows(userId, 2);
    const refused = await Promise.all(["/api/v1/usage", "/api/v1/usage/"].map((path) => SELF.fetch(`http://localhost${path}`, { method: "POST", body: "{}" })));
    expect(refused.map((r) => r.status)).toEqual([401, 401]);
    expect((await SELF.fetch("http://localhost/api/v1/usage")).status).toBe(405);
  });

  it("accepts one report and stores it with the daily, hourly and conversation aggregates", async () => {
    const { token, userId } = await apiUser();
    const r = report({
      model_name: "claude-sonnet-4",
      model_provider: "anthropic",
      cost_usd: 0.0421,
      request_duration_ms: 2300,
      metadata: { conversation_id: "c-1" },
    });
    const sent = Date.now();
    const response = await postUsage(token, r);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: 1 });
    await waitForRows(userId, 1);
    // The raw row, in this account's own ledger (it holds no other account's rows).
    const rows = await rawReports(userId, sent);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: "usage",
      id: r.report_id,
      model_name: "claude-sonnet-4",
      cost_micros: 42100,
      request_duration_ms: 2300,
      success: true,
      conversation_id: "c-1",
    });
    expect(await dailyRow(userId, "claude-sonnet-4")).toMatchObject({
      totalRequests: 1,
      successCount: 1,
      totalTokens: 1500,
      totalCostMicros: 42100,
      totalDurationMs: 2300,
    });
    const now = Date.now();
    const read = await ledger(userId).read({ now, hourlyFrom: "0000-00-00", conversationsIn: monthKey(now, UTC) });
    expect(read.hourly).toHaveLength(1);
    expect(read.hourly![0]).toMatchObject({
      date: dayKey(now, UTC),
      hour: new Date(now).getUTCHours(),
      totalRequests: 1,
      totalTokens: 1500,
      totalCostMicros: 42100,
    });
    expect(read.conversations).toBe(1);
  });

  it("counts the same report sent 3 times once", async () => {
    const { token, userId } = await apiUser();
    const r = report();
    for (let i = 0; i < 3; i++) expect((await postUsage(token, r)).status).toBe(202);
    await waitForRows(userId, 1);
    await queueSettled();
    expect(await storedCount(userId)).toBe(1);
    expect(await summedRequests(userId)).toBe(1);
  });

  it("keeps report ids per user: another user reusing an id still gets their report stored", async () => {
    const a = await apiUser();
    const b = await apiUser();
    const shared = report();
    expect((await postUsage(a.token, shared)).status).toBe(202);
    await waitForRows(a.userId, 1);
    expect((await postUsage(b.token, { ...shared, model_name: "b-model" })).status).toBe(202);
    await waitForRows(b.userId, 1);
    await queueSettled();
    expect(await storedCount(a.userId)).toBe(1);
    expect(await storedCount(b.userId)).toBe(1);
    expect((await dailyRow(b.userId, "b-model"))!.totalRequests).toBe(1);
    expect(await dailyRow(a.userId, "b-model")).toBeUndefined();
  });

  it("lands a batch of 100 whole", async () => {
    const { token, userId } = await apiUser();
    const reports = Array.from({ length: 100 }, (_, i) =>
      report({ model_name: i % 2 ? "gpt-4o" : "gemini-2.5-pro", model_provider: i % 2 ? "openai" : "google" }),
    );
    const response = await postUsage(token, { reports });
    expect(await response.json()).toEqual({ accepted: 100 });
    await waitForRows(userId, 100);
    await queueSettled();
    expect(await storedCount(userId)).toBe(100);
    expect(await summedRequests(userId)).toBe(100);
    expect((await dailyRow(userId, "gpt-4o"))!.totalRequests).toBe(50);
  });

  it("stores all of 1,000 reports sent concurrently (count in equals count stored)", async () => {
    const { token, userId } = await apiUser();
    const requests = Array.from({ length: 40 }, () => Array.from({ length: 25 }, () => report()));
    const responses = await Promise.all(requests.map((reports) => postUsage(token, { reports })));
    expect(responses.map((r) => r.status).every((s) => s === 202)).toBe(true);
    await waitForRows(userId, 1000, 30_000);
    await queueSettled();
    expect(await storedCount(userId)).toBe(1000);
    expect(await summedRequests(userId)).toBe(1000);
  });

  it("refuses a batch with an invalid report whole, with each problem's index and reason", async () => {
    const { token, userId } = await apiUser();
    const reports = [
      report(),
      report({ tokens_used: -5 }),
      report(),
      report({ report_id: "not-a-uuid", cost_usd: "free" }),
      report({ user_id: "someone-else" }),
    ];
    const response = await postUsage(token, { reports });
    expect(response.status).toBe(400);
    const body = await response.json<{ error: string; problems: Array<{ index: number; path: string; message: string }> }>();
    expect(body.error).toBe("Invalid usage report");
    expect(body.problems.map((p) => [p.index, p.path])).toEqual(
      expect.arrayContaining([
        [1, "tokens_used"],
        [3, "report_id"],
        [3, "cost_usd"],
        [4, ""],
      ]),
    );
    await queueSettled();
    expect(await storedCount(userId)).toBe(0);
  });

  it.each([
    ["no reports", { reports: [] }],
    ["101 reports", { reports: Array.from({ length: 101 }, () => report()) }],
    ["a future report", report({ occurred_at: Date.now() + 3600_000 })],
    ["a report older than 90 days", report({ occurred_at: "2020-01-01T00:00:00Z" })],
    ["huge metadata", report({ metadata: { blob: "x".repeat(9000) } })],
    ["a string for a number", report({ tokens_used: "12" })],
    ["not an object", [1, 2, 3]],
  ])("refuses %s with 400 and stores nothing", async (_name, body) => {
    const { token, userId } = await apiUser();
    const response = await postUsage(token, body);
    expect(response.status).toBe(400);
    expect((await response.json<{ error: string }>()).error).toBeTruthy();
    expect(await storedCount(userId)).toBe(0);
  });

  it("needs a valid bearer token and answers JSON errors", async () => {
    expect((await postUsage(null, report())).status).toBe(401);
    expect((await postUsage("eyJhbGciOiJIUzI1NiJ9.e30.forgedforgedforgedforged", report())).status).toBe(401);
    const notJson = await postUsage("x".repeat(30), "{");
    expect(notJson.status).toBe(401);
    const { token } = await apiUser();
    const broken = await postUsage(token, "{oops");
    expect(broken.status).toBe(400);
    // Every 400 of the usage routes has the documented shape, problems included (issue 30).
    expect(await broken.json()).toEqual({
      error: "Request body is not valid JSON",
      problems: [{ index: null, path: "", message: "Request body is not valid JSON" }],
    });
    for (const path of ["/api/v1/usage", "/api/v1/usage/secure-report"]) {
      const empty = await SELF.fetch(`http://localhost${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      });
      expect(empty.status, path).toBe(400);
      expect((await empty.json<{ problems: unknown[] }>()).problems, path).toEqual([{ index: null, path: "", message: "Request body is not valid JSON" }]);
    }
    const tooBig = await postUsage(token, { reports: [report({ metadata: { pad: "x".repeat(1_100_000) } })] });
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toEqual({ error: "Request body is too large." });
  });

  it("writes only to the token owner's rows", async () => {
    const a = await apiUser();
    const b = await apiUser();
    await postUsage(a.token, report({ model_name: "a-model" }));
    await waitForRows(a.userId, 1);
    expect(await storedCount(b.userId)).toBe(0);
    const dashboardB = await (await b.browser.get("/dashboard/usage")).text();
    expect(dashboardB).not.toContain("a-model");
  });

  it("limits requests per user per minute with 429 and Retry-After", () =>
    inOneMinute(async () => {
      const { token } = await apiUser();
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 60; i++) {
        const response = await postUsage(token, { reports: [] }); // refused as invalid, but still counted
        statuses.push(response.status);
        if (response.status === 429) retryAfter = response.headers.get("Retry-After");
      }
      expect(statuses).toContain(429);
      // The real wait: until the end of the limiter's clock-aligned minute, not always 60.
      const left = 60 - Math.floor((Date.now() % 60_000) / 1000);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(retryAfter)).toBeLessThanOrEqual(60);
      expect(Math.abs(Number(retryAfter) - left)).toBeLessThanOrEqual(2);
    }));

  it("lets a parallel burst through exactly up to the minute's limit (50 in tests: 5 limiter calls of 10-request leases)", () =>
    // The whole burst must fall in one of the limiter's windows.
    inOneMinute(async () => {
      const { token } = await apiUser();
      const statuses = await Promise.all(Array.from({ length: 80 }, () => postUsage(token, { reports: [] }).then((r) => r.status)));
      expect(statuses.filter((s) => s !== 429)).toHaveLength(50);
      expect(statuses.filter((s) => s === 429)).toHaveLength(30);
      const other = await apiUser();
      expect((await postUsage(other.token, { reports: [] })).status).toBe(400);
    }));

  it("computes the wait to the end of the fixed window", () => {
    expect(secondsUntilWindowEnds(Date.parse("2026-11-22T12:34:50.000Z"))).toBe(10);
    expect(secondsUntilWindowEnds(Date.parse("2026-11-22T12:34:00.000Z"))).toBe(60);
    expect(secondsUntilWindowEnds(Date.parse("2026-11-22T12:34:59.900Z"))).toBe(1);
  });
});

describe("POST /api/v1/usage/secure-report", () => {
  it("stores the fallback aggregate once per report_hash and counts it in the summary", async () => {
    const { token, userId } = await apiUser();
    const body = {
      report_hash: "abcdef0123456789abcdef",
      model_name: "mistral-large",
      provider: "mistral",
      tokens_used: 9000,
      cost: 0.09,
      request_count: 6,
      success_count: 5,
      error_count: 1,
      report_timestamp: new Date().toISOString(),
      app_version: "1.0.5",
    };
    const post = () =>
      SELF.fetch("http://localhost/api/v1/usage/secure-report", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
    expect((await post()).status).toBe(202);
    expect((await post()).status).toBe(202);
    await queueSettled();
    await queueSettled();
    expect(await ledger(userId).size()).toMatchObject({ reports: 0, secure: 1 });
    expect((await rawReports(userId)).filter((r) => r.kind === "secure").map((r) => r.report_hash)).toEqual([body.report_hash]);
    expect(await dailyRow(userId, "mistral-large")).toMatchObject({ totalRequests: 6, successCount: 5, totalCostMicros: 90000, timedRequests: 0 });
    const bad = await SELF.fetch("http://localhost/api/v1/usage/secure-report", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ ...body, success_count: 9 }),
    });
    expect(bad.status).toBe(400);
  });
});

describe("consumer", () => {
  // Changed by design (ADR 0020): the ledger keeps raw reports for LEDGER.rawRetentionDays (100),
  // so a queued report older than that is acknowledged without being stored (the ledger counts it
  // "expired"): before, the consumer stored a report of any age. A report the API accepted (at
  // most 90 days old) and that waited in the queue for its retries is still stored.
  it("stores a late queued report within the ledger's retention, and drops one older than the retention", async () => {
    const { userId } = await apiUser();
    const late = { ...report({ cost_usd: 0.5 }), occurred_at: Date.now() - (LEDGER.rawRetentionDays - 5) * MS.DAY };
    const expired = { ...report({ cost_usd: 0.5 }), occurred_at: Date.now() - (LEDGER.rawRetentionDays + 1) * MS.DAY };
    const batch = createMessageBatch("modelify-events", [
      { id: "u-late", timestamp: new Date(), attempts: 3, body: { type: "usage.report", userId, receivedAt: late.occurred_at, report: late } as unknown },
      {
        id: "u-expired",
        timestamp: new Date(),
        attempts: 3,
        body: { type: "usage.report", userId, receivedAt: expired.occurred_at, report: expired } as unknown,
      },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(["u-expired", "u-late"]);
    expect(result.retryMessages).toEqual([]);
    expect(await storedCount(userId)).toBe(1);
    expect((await rawReports(userId, late.occurred_at)).map((r) => r.id)).toEqual([late.report_id]);
    expect(await ledgerDayTotals(userId)).toEqual([{ date: dayKey(late.occurred_at, UTC), requests: 1, tokens: 1500, costMicros: 500_000 }]);
    // The rollup has the late day's figures; the expired report's day has nothing in it.
    // The rollup has the late day's figures; the expired report counted nowhere (its day, written
    // as the ledger has it, holds nothing).
    const rollup = await rollupDays(userId);
    const expiredDay = dayKey(expired.occurred_at, UTC);
    expect(rollup.filter((d) => d.date !== expiredDay)).toEqual([{ date: dayKey(late.occurred_at, UTC), requests: 1, tokens: 1500, costMicros: 500_000 }]);
    for (const d of rollup.filter((d) => d.date === expiredDay)) expect(d).toEqual({ date: expiredDay, requests: 0, tokens: 0, costMicros: 0 });
    expect(await db.query.deadLetters.findFirst({ where: eq(schema.deadLetters.id, "u-expired") })).toBeUndefined();
  });

  // Changed by design: a report of an account that no longer exists cannot be stored by any
  // retry, so it is dead-lettered at once (reason account_not_found) and acknowledged; before, it
  // was retried. A malformed message is dead-lettered as before, and the good one is stored.
  it("keeps the good reports of a batch with poison messages: a deleted account's and a malformed one go to the dead letters", async () => {
    const { userId } = await apiUser();
    // As the API enqueues them: occurred_at is always set.
    const good = { ...report(), occurred_at: Date.now() };
    const ghost = { ...report(), occurred_at: Date.now() };
    const batch = createMessageBatch("modelify-events", [
      { id: "u-good", timestamp: new Date(), attempts: 1, body: { type: "usage.report", userId, receivedAt: Date.now(), report: good } as unknown },
      {
        id: "u-ghost",
        timestamp: new Date(),
        attempts: 1,
        body: { type: "usage.report", userId: "no-such-user", receivedAt: Date.now(), report: ghost } as unknown,
      },
      { id: "u-garbage", timestamp: new Date(), attempts: 1, body: { type: "usage.report", userId, report: { nope: true } } as unknown },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(["u-garbage", "u-ghost", "u-good"]);
    expect(result.retryMessages).toEqual([]);
    expect(await storedCount(userId)).toBe(1);
    expect((await rawReports(userId)).map((r) => r.id)).toEqual([good.report_id]);
    // Nothing was written for the missing account: no ledger rows, no rollup.
    expect(await storedCount("no-such-user")).toBe(0);
    expect(await rollupDays("no-such-user")).toEqual([]);
    const reasons = await db.select().from(schema.deadLetters).where(eq(schema.deadLetters.queue, "modelify-events"));
    const reasonOf = (id: string) => JSON.parse(reasons.find((r) => r.id === id)?.body ?? "{}").reason;
    expect(reasonOf("u-ghost")).toBe("account_not_found");
    expect(reasonOf("u-garbage")).toBe("malformed");
    expect(reasons.find((r) => r.id === "u-good")).toBeUndefined();
  });
});

describe("budget alerts", () => {
  it("e-mails once when spend crosses the alert threshold", async () => {
    const { token, userId, email, browser } = await apiUser();
    const save = await browser.post("/dashboard/budget", {
      intent: "save-budget",
      monthlyBudget: "1.00",
      dailyBudget: "0",
      alertThreshold: "50",
      notificationsEnabled: "on",
    });
    expect(save.status).toBe(302);
    expect(save.headers.get("Location")).toBe("/dashboard/budget?saved=1");
    const alertsClaimed = () => ledgerSql(userId, "SELECT kind, period FROM budget_alerts");
    await postUsage(token, report({ cost_usd: 0.3 }));
    await waitForRows(userId, 1);
    await queueSettled();
    expect(await alertsClaimed()).toHaveLength(0);
    await postUsage(token, report({ cost_usd: 0.3 }));
    await waitForRows(userId, 2);
    const mail = await waitForMail(email, /budget alert/);
    expect(mail.subject).toBe("Modelify budget alert: 60% of your monthly budget used");
    await postUsage(token, report({ cost_usd: 0.3 }));
    await waitForRows(userId, 3);
    await queueSettled();
    // The ledger claimed this month's monthly alert once (there is no daily budget).
    expect(await alertsClaimed()).toEqual([{ kind: "monthly", period: monthKey(Date.now(), UTC) }]);
    const mails = await db.select().from(schema.outbox).where(eq(schema.outbox.to, email));
    expect(mails.filter((m) => /budget alert/.test(m.subject))).toHaveLength(1);
  });
});
