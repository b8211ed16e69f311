// Issue 27's acceptance tests of the usage ledger (ADR 0020), through the real runtime: the API,
// the local queue, the consumer and each account's Durable Object. Every report is stored exactly
// once per account however it arrives (in parallel, re-sent, mixed with other accounts), D1's
// rollup equals each ledger's day totals, and a poison message leaves the rest of its batch stored.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { handlers as worker } from "../worker";
import { handleEventBatch } from "~/lib/queue/dispatch.server";
import { MS } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { dayKey } from "~/lib/usage/dates";
import { UTC } from "~/lib/time-zone";
import { toLedgerUsage, type UsageItem } from "~/lib/usage/ingest.server";
import { toMicros } from "~/lib/usage/report";
import { parseConsumerEnv } from "../../workers/consumer-env";
import { db, insertUser, queueSettled, uniqueEmail } from "./helpers";
import { apiUser, dailyRows, ledger, ledgerDayTotals, postUsage, recordingLedgers, report, rollupDays, storedCount } from "./usage-helpers";

const account = async () => (await insertUser({ email: uniqueEmail("ledger"), passwordHash: "x", metadata: {}, confirmed: true })).id;

/** A usage message as the API enqueues it (occurred_at always set). */
function usageMessage(userId: string, overrides: Record<string, unknown> = {}, receivedAt = Date.now()) {
  return { type: "usage.report", userId, receivedAt, report: { ...report(overrides), occurred_at: receivedAt } } as {
    type: "usage.report";
    userId: string;
    receivedAt: number;
    report: UsageItem["report"];
  };
}

/** What must not change when reports are re-sent: raw rows, aggregates, D1's rollup and the account's first report. */
async function snapshot(userId: string) {
  const [size, daily, rollup, accountRow] = await Promise.all([
    ledger(userId).size(),
    dailyRows(userId),
    rollupDays(userId),
    db.query.usageAccounts.findFirst({ where: eq(schema.usageAccounts.userId, userId) }),
  ]);
  return { size, daily, rollup, firstReportAt: accountRow?.firstReportAt };
}

/** Day totals as they must be, added up from what was sent. */
function expectedDays(reports: Array<UsageItem["report"]>) {
  const byDay = new Map<string, { requests: number; tokens: number; costMicros: number }>();
  for (const r of reports) {
    const date = dayKey(r.occurred_at!, UTC);
    const t = byDay.get(date) ?? { requests: 0, tokens: 0, costMicros: 0 };
    t.requests += 1;
    t.tokens += r.tokens_used;
    t.costMicros += toMicros(r.cost_usd);
    byDay.set(date, t);
  }
  return [...byDay].sort(([a], [b]) => (a < b ? -1 : 1)).map(([date, t]) => ({ date, ...t }));
}

describe("the usage ledger of one account", () => {
  it("stores 1,000 reports sent concurrently (10 parallel requests of 100) exactly once; re-sent in parallel, nothing changes", {
    timeout: 60_000,
  }, async () => {
    const { token, userId } = await apiUser();
    const requests = Array.from({ length: 10 }, () => Array.from({ length: 100 }, () => report()));
    const sendAll = () => Promise.all(requests.map((reports) => postUsage(token, { reports })));
    const first = await sendAll();
    expect(first.map((r) => r.status)).toEqual(Array(10).fill(202));
    await queueSettled(30_000);
    expect(await ledger(userId).size()).toMatchObject({ reports: 1000, secure: 0 });
    const days = await ledgerDayTotals(userId);
    expect(days.reduce((sum, d) => sum + d.requests, 0)).toBe(1000);
    expect(days.reduce((sum, d) => sum + d.tokens, 0)).toBe(1000 * 1500);
    expect(days.reduce((sum, d) => sum + d.costMicros, 0)).toBe(1000 * 12_500);
    expect(await rollupDays(userId)).toEqual(days);
    const before = await snapshot(userId);
    expect(before.firstReportAt).toBeGreaterThan(0);

    // The same 1,000 report_ids again, in parallel: the ledger stores none of them.
    const again = await sendAll();
    expect(again.map((r) => r.status)).toEqual(Array(10).fill(202));
    await queueSettled(30_000);
    expect(await snapshot(userId)).toEqual(before);
  });

  it("stores 1,000 reports exactly once when parallel ingest calls overlap (each report in two of 20 calls)", { timeout: 60_000 }, async () => {
    const userId = await account();
    const now = Date.now();
    const reports = Array.from({ length: 1000 }, (_, i) =>
      toLedgerUsage({
        userId,
        receivedAt: now,
        report: { ...report({ cost_usd: 0.001 * (i % 7) }), occurred_at: now - (i % 3) * MS.DAY } as UsageItem["report"],
      }),
    );
    // Call k takes reports [50k, 50k + 100): every report is in two calls that run side by side.
    const calls = Array.from({ length: 20 }, (_, k) => Array.from({ length: 100 }, (_, j) => reports[(50 * k + j) % 1000]!));
    const ingest = (usage: typeof reports) => ledger(userId).ingest({ usage, secure: [], budget: null, now });
    const results = await Promise.all(calls.map(ingest));
    expect(results.reduce((sum, r) => sum + r.stored, 0)).toBe(1000);
    expect(results.reduce((sum, r) => sum + r.duplicates, 0)).toBe(1000);
    expect(await storedCount(userId)).toBe(1000);
    const expected = expectedDays(
      reports.map((r) => ({ occurred_at: r.occurredAt, tokens_used: r.tokensUsed, cost_usd: r.costMicros / 1e6 }) as UsageItem["report"]),
    );
    expect(await ledgerDayTotals(userId)).toEqual(expected);
    const before = await ledgerDayTotals(userId);

    // All of them again, 10 calls in parallel: nothing stored, the totals stay.
    const repeats = await Promise.all(Array.from({ length: 10 }, (_, k) => ingest(reports.slice(100 * k, 100 * k + 100))));
    expect(repeats.map((r) => r.stored)).toEqual(Array(10).fill(0));
    expect(repeats.reduce((sum, r) => sum + r.duplicates, 0)).toBe(1000);
    expect(await storedCount(userId)).toBe(1000);
    expect(await ledgerDayTotals(userId)).toEqual(before);
  });
});

describe("many accounts through the queue", () => {
  it("stores 10,000 reports over 20 accounts (batches of 100 mixing accounts): every ledger exact, D1's rollup equal to each", {
    timeout: 120_000,
  }, async () => {
    const accounts = await Promise.all(Array.from({ length: 20 }, () => account()));
    const now = Date.now();
    const sent = new Map<string, Array<UsageItem["report"]>>(accounts.map((id) => [id, []]));
    const messages = Array.from({ length: 10_000 }, (_, i) => {
      // Consecutive messages belong to different accounts, so each sendBatch of 100 mixes all 20.
      const userId = accounts[i % 20]!;
      const occurredAt = now - (i % 4) * MS.DAY - (i % 1000);
      const message = usageMessage(
        userId,
        { cost_usd: (i % 11) * 0.001, tokens_input: i % 50, tokens_output: i % 30, tokens_used: (i % 50) + (i % 30) + (i % 5) },
        now,
      );
      message.report.occurred_at = occurredAt;
      sent.get(userId)!.push(message.report);
      return { body: message };
    });
    for (let i = 0; i < messages.length; i += 100) await env.EVENTS.sendBatch(messages.slice(i, i + 100));
    await queueSettled(90_000);

    for (const userId of accounts) {
      expect(await ledger(userId).size()).toMatchObject({ reports: 500, secure: 0 });
      const expected = expectedDays(sent.get(userId)!);
      expect(expected.reduce((sum, d) => sum + d.requests, 0)).toBe(500);
      expect(await ledgerDayTotals(userId)).toEqual(expected);
      expect(await rollupDays(userId)).toEqual(expected);
    }
  });
});

describe("a poison message in a batch of 100", () => {
  it("of an account deleted since: dead-lettered at once (account_not_found), the other 99 stored", async () => {
    const [a, b, c, gone] = await Promise.all([account(), account(), account(), account()]);
    await db.delete(schema.users).where(eq(schema.users.id, gone));
    const owners = [...Array(33).fill(a), ...Array(33).fill(b), ...Array(33).fill(c), gone] as string[];
    const batch = createMessageBatch(
      "modelify-events",
      owners.map((userId, i) => ({ id: `deleted-${i}`, timestamp: new Date(), attempts: 1, body: usageMessage(userId) as unknown })),
    );
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.retryMessages).toEqual([]);
    expect(result.explicitAcks).toHaveLength(100);
    for (const userId of [a, b, c]) {
      expect(await storedCount(userId)).toBe(33);
      expect(await rollupDays(userId)).toEqual(await ledgerDayTotals(userId));
    }
    expect(await storedCount(gone)).toBe(0);
    const letter = await db.query.deadLetters.findFirst({ where: eq(schema.deadLetters.id, "deleted-99") });
    expect(letter).toMatchObject({ queue: "modelify-events", attempts: 1 });
    expect(JSON.parse(letter!.body)).toMatchObject({ kind: "usage.report", reason: "account_not_found" });
    const letters = await db.select({ id: schema.deadLetters.id }).from(schema.deadLetters);
    expect(letters.filter((l) => l.id.startsWith("deleted-")).map((l) => l.id)).toEqual(["deleted-99"]);
  });

  it("that its ledger cannot take: retried alone, the other 99 stored and acknowledged, other accounts' calls untouched", async () => {
    const [a, b, c] = await Promise.all([account(), account(), account()]);
    const owners = [...Array(34).fill(a), ...Array(33).fill(b), ...Array(33).fill(c)] as string[];
    const messages = owners.map((userId, i) => ({ id: `refused-${i}`, timestamp: new Date(), attempts: 1, body: usageMessage(userId) }));
    const poison = messages[10]!;
    const poisonId = poison.body.report.report_id.toLowerCase();
    // A stand-in for a ledger that throws on one report (no valid report makes the real one
    // throw): every call holding that report fails; every other call goes to the real ledger.
    const { ledgers, calls } = recordingLedgers((input) => input.usage.some((u) => u.id === poisonId));
    // Budget alerts' mails (the default daily budget is crossed) are not this test's subject.
    const queue = { send: async () => {}, sendBatch: async () => {} } as unknown as Queue;
    const batch = createMessageBatch("modelify-events", messages as Array<{ id: string; timestamp: Date; attempts: number; body: unknown }>);
    const ctx = createExecutionContext();
    await handleEventBatch({ db, env: parseConsumerEnv(env), queue, ledgers }, batch);
    const result = await getQueueResult(batch, ctx);

    expect(result.retryMessages.map((m) => m.msgId)).toEqual([poison.id]);
    expect(result.explicitAcks.sort()).toEqual(
      messages
        .filter((m) => m !== poison)
        .map((m) => m.id)
        .sort(),
    );
    expect(await storedCount(a)).toBe(33);
    expect(await storedCount(b)).toBe(33);
    expect(await storedCount(c)).toBe(33);
    for (const userId of [a, b, c]) expect(await rollupDays(userId)).toEqual(await ledgerDayTotals(userId));
    // The other accounts were written with their one call; the poison's account was tried whole,
    // then report by report (33 stored, the poison's call failed).
    for (const userId of [b, c]) expect(calls.filter((x) => x.userId === userId).map((x) => [x.usage.length, x.failed])).toEqual([[33, false]]);
    const ofA = calls.filter((x) => x.userId === a);
    expect(ofA[0]).toMatchObject({ failed: true });
    expect(ofA[0]!.usage).toHaveLength(34);
    expect(ofA.slice(1).map((x) => x.usage.length)).toEqual(Array(34).fill(1));
    expect(
      ofA
        .slice(1)
        .filter((x) => x.failed)
        .map((x) => x.usage),
    ).toEqual([[poisonId]]);

    // Its retries exhausted, the queue moves it to the dead-letter queue, whose consumer records it.
    const dlq = createMessageBatch("modelify-events-dlq", [{ id: poison.id, timestamp: poison.timestamp, attempts: 4, body: poison.body }]);
    const dlqCtx = createExecutionContext();
    await worker.queue(dlq, env, dlqCtx);
    expect((await getQueueResult(dlq, dlqCtx)).explicitAcks).toEqual([poison.id]);
    const letter = await db.query.deadLetters.findFirst({ where: eq(schema.deadLetters.id, poison.id) });
    expect(JSON.parse(letter!.body)).toMatchObject({ kind: "usage.report", reason: "retries_exhausted" });

    // Had a retry found the ledger able to take it, it would have been stored once, with the rest.
    const retry = createMessageBatch("modelify-events", [{ id: poison.id, timestamp: poison.timestamp, attempts: 2, body: poison.body }]);
    const retryCtx = createExecutionContext();
    await worker.queue(retry, env, retryCtx);
    expect((await getQueueResult(retry, retryCtx)).explicitAcks).toEqual([poison.id]);
    expect(await storedCount(a)).toBe(34);
    expect(await rollupDays(a)).toEqual(await ledgerDayTotals(a));
  });
});

/** A request's reports in one message, as the API enqueues them (ADR 0020). */
function reportsMessage(userId: string, count: number, receivedAt = Date.now()) {
  return { type: "usage.reports", userId, receivedAt, reports: Array.from({ length: count }, () => ({ ...report(), occurred_at: receivedAt })) };
}

describe("a request's reports in one message (usage.reports)", () => {
  it("a poison report among 100: the other 99 stored, the message acknowledged, the poison sent again as a message of its own", async () => {
    const a = await account();
    const body = reportsMessage(a, 100);
    const poisonId = (body.reports[42]!.report_id as string).toLowerCase();
    const { ledgers, calls } = recordingLedgers((input) => input.usage.some((u) => u.id === poisonId));
    const sent: unknown[] = [];
    const queue = {
      send: async (message: unknown) => void sent.push(message),
      sendBatch: async (messages: Array<{ body: unknown }>) => void sent.push(...messages.map((m) => m.body)),
    } as unknown as Queue;
    const batch = createMessageBatch("modelify-events", [{ id: "packed-1", timestamp: new Date(), attempts: 1, body }]);
    const ctx = createExecutionContext();
    await handleEventBatch({ db, env: parseConsumerEnv(env), queue, ledgers }, batch);
    const result = await getQueueResult(batch, ctx);

    expect(result.retryMessages).toEqual([]);
    expect(result.explicitAcks).toEqual(["packed-1"]);
    expect(await storedCount(a)).toBe(99);
    expect(await rollupDays(a)).toEqual(await ledgerDayTotals(a));
    // One call for the whole message, then report by report; only the poison's call failed.
    expect(calls[0]).toMatchObject({ failed: true });
    expect(
      calls
        .slice(1)
        .filter((c) => c.failed)
        .map((c) => c.usage),
    ).toEqual([[poisonId]]);
    // The poison alone, as the API would have sent it by itself: its retries and dead letter are its own.
    const resent = sent.filter((m) => (m as { type: string }).type === "usage.report") as Array<{ userId: string; report: { report_id: string } }>;
    expect(resent).toHaveLength(1);
    expect(resent[0]).toMatchObject({ userId: a });
    expect(resent[0]!.report.report_id.toLowerCase()).toBe(poisonId);
  });

  it("a malformed report among 5: dead-lettered alone (redacted), the other 4 stored", async () => {
    const a = await account();
    const body = reportsMessage(a, 5);
    (body.reports[3] as Record<string, unknown>).tokens_input = -1;
    const batch = createMessageBatch("modelify-events", [{ id: "packed-malformed", timestamp: new Date(), attempts: 1, body }]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(["packed-malformed"]);
    expect(await storedCount(a)).toBe(4);
    const letter = await db.query.deadLetters.findFirst({ where: eq(schema.deadLetters.id, "packed-malformed.3") });
    const kept = JSON.parse(letter!.body);
    expect(kept).toMatchObject({ kind: "usage.report", userId: a, reason: "malformed" });
    expect(kept.error).toContain("tokens_input");
    expect(letter!.body).not.toContain("gpt-4o");
  });

  it("10,000 reports of one account in one batch: ledger calls of at most 5,000, every report stored once", async () => {
    const a = await account();
    const messages = Array.from({ length: 100 }, (_, i) => ({ id: `big-${i}`, timestamp: new Date(), attempts: 1, body: reportsMessage(a, 100) as unknown }));
    const { ledgers, calls } = recordingLedgers();
    const queue = { send: async () => {}, sendBatch: async () => {} } as unknown as Queue;
    const batch = createMessageBatch("modelify-events", messages);
    const ctx = createExecutionContext();
    await handleEventBatch({ db, env: parseConsumerEnv(env), queue, ledgers }, batch);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toHaveLength(100);
    expect(calls.map((c) => c.usage.length)).toEqual([5000, 5000]);
    expect(await storedCount(a)).toBe(10_000);
    expect(await rollupDays(a)).toEqual(await ledgerDayTotals(a));
  });

  it("the API sends a request of 100 reports as one message, and one with 100 × 6 KB of metadata in messages under 128 KB", async () => {
    const { token, userId } = await apiUser();
    // The EVENTS binding the Worker gets is this object (tests/setup.ts wraps it once): its sends are watched here.
    const events = env.EVENTS as unknown as Record<"send" | "sendBatch", (...args: unknown[]) => Promise<unknown>>;
    const { send, sendBatch } = events;
    const bodies: Array<{ type: string; reports?: unknown[] }> = [];
    events.send = (body, ...rest) => {
      bodies.push(body as never);
      return send.call(events, body, ...rest);
    };
    events.sendBatch = (list, ...rest) => {
      bodies.push(...(list as Array<{ body: never }>).map((m) => m.body));
      return sendBatch.call(events, list, ...rest);
    };
    try {
      expect((await postUsage(token, { reports: Array.from({ length: 100 }, () => report()) })).status).toBe(202);
      expect(bodies.map((b) => [b.type, b.reports?.length])).toEqual([["usage.reports", 100]]);
      bodies.length = 0;
      const large = Array.from({ length: 100 }, () => report({ metadata: { note: "x".repeat(6000) } }));
      expect((await postUsage(token, { reports: large })).status).toBe(202);
      expect(bodies.length).toBeGreaterThan(4);
      expect(bodies.reduce((sum, b) => sum + (b.reports?.length ?? 0), 0)).toBe(100);
      for (const b of bodies) expect(JSON.stringify(b).length).toBeLessThan(128 * 1024);
    } finally {
      events.send = send;
      events.sendBatch = sendBatch;
    }
    await queueSettled();
    expect(await storedCount(userId)).toBe(200);
  });
});
