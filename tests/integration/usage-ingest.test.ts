// A report's way from the consumer into its account's ledger (ADR 0020): every field stored as
// reported (read back with rawReports, as the data export reads it), one ledger call per account
// and batch, and the shared figures written to D1 in one batch of a known number of statements.
// (The D1-era tests of this file checked the hand-written INSERTs of model_usage and
// secure_usage_reports against drizzle's; those tables are gone, and these are their equivalents.)
import { createMessageBatch, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { handleEventBatch } from "~/lib/queue/dispatch.server";
import { MS } from "~/lib/constants";
import { type SecureItem, ingestAccount, type UsageItem } from "~/lib/usage/ingest.server";
import { toMicros } from "~/lib/usage/report";
import { parseConsumerEnv } from "../../workers/consumer-env";
import { insertUser, uniqueEmail } from "./helpers";
import { countingD1, dailyRows, ledger, ledgerDayTotals, rawReports, recordingLedgers, recordingQueue, report, rollupDays } from "./usage-helpers";

const user = async () => (await insertUser({ email: uniqueEmail("ingest"), passwordHash: "x", metadata: {}, confirmed: true })).id;

/** Reports covering every column's cases: nulls, booleans, JSON, a numeric conversation id (occurred_at is always set: the API sets it). */
function variedReports(): UsageItem["report"][] {
  const now = Date.now();
  return [
    { ...report(), occurred_at: now - 5000 },
    { ...report({ success: false, error_message: "rate limited", metadata: null, app_version: undefined }), occurred_at: now },
    { ...report({ metadata: { conversation_id: 42, nested: { list: [1, "two", null], emoji: "😀\u2028" } } }), occurred_at: now },
    { ...report({ report_id: crypto.randomUUID().toUpperCase(), metadata: undefined, app_instance_id: null }), occurred_at: now },
    { ...report({ metadata: { conversation_id: "" }, request_type: "embedding" }), occurred_at: now },
    { ...report({ cost_usd: 1234.5678915, tokens_used: 0, tokens_input: 0, tokens_output: 0 }), occurred_at: now },
    { ...report({ metadata: { conversation_id: "x".repeat(201) } }), occurred_at: now },
  ] as UsageItem["report"][];
}

/** The rule for metadata.conversation_id: a non-empty string of at most 200 characters, or a number. */
function conversationId(value: unknown): string | null {
  if (typeof value === "number") return String(value);
  return typeof value === "string" && value.length > 0 && value.length <= 200 ? value : null;
}

/** What the ledger must hold for a report: written from the report's fields, not from the app's mapping. */
function expectedUsageRow(r: UsageItem["report"], receivedAt: number, deviceId: string | null) {
  return {
    kind: "usage",
    id: r.report_id.toLowerCase(),
    occurred_at: r.occurred_at,
    received_at: receivedAt,
    model_name: r.model_name,
    model_provider: r.model_provider,
    request_type: r.request_type,
    tokens_used: r.tokens_used,
    tokens_input: r.tokens_input,
    tokens_output: r.tokens_output,
    cost_micros: toMicros(r.cost_usd),
    request_duration_ms: r.request_duration_ms,
    success: r.success,
    error_message: r.error_message ?? null,
    metadata: r.metadata ?? null,
    conversation_id: conversationId(r.metadata?.conversation_id),
    app_version: r.app_version ?? null,
    app_instance_id: r.app_instance_id ?? null,
    device_id: deviceId,
    // An account's own ledger keeps no member (ADR 0038: a team's ledger names who sent each report).
    member_id: "",
  };
}

const byKey = (a: Record<string, unknown>, b: Record<string, unknown>) => String(a.id ?? a.report_hash).localeCompare(String(b.id ?? b.report_hash));

describe("usage stored in the ledger by the consumer", () => {
  it("stores each report's fields as reported, read back with rawReports(month, userId)", async () => {
    const userId = await user();
    const receivedAt = Date.now();
    const reports = variedReports();
    const items: UsageItem[] = reports.map((r, i) => ({ userId, receivedAt, report: r, deviceId: i % 2 ? "device-a" : null }));
    const result = await ingestAccount(env.USAGE_LEDGER, userId, items, [], null, receivedAt);
    expect(result).toMatchObject({ stored: reports.length, duplicates: 0, expired: 0 });
    const expected = reports.map((r, i) => expectedUsageRow(r, receivedAt, i % 2 ? "device-a" : null)).sort(byKey);
    // toEqual compares types too: a boolean read back as 1, a number as a string, fails it.
    expect((await rawReports(userId, receivedAt - 5000)).sort(byKey)).toEqual(expected);
    // And what the pages read: each report counted once, in its day and model.
    expect((await dailyRows(userId)).reduce((sum, r) => sum + r.totalRequests, 0)).toBe(reports.length);
  });

  it("stores fallback reports' fields as reported, 13 in one ledger call", async () => {
    const userId = await user();
    const receivedAt = Date.now();
    const reports: SecureItem["report"][] = Array.from({ length: 13 }, (_, i) => ({
      report_hash: `hash-${crypto.randomUUID()}`,
      model_name: `model-${i % 3}`,
      provider: "mistral",
      tokens_used: 100 * i,
      cost: 0.0001 * i,
      request_count: i + 1,
      success_count: i,
      error_count: 1,
      report_timestamp: receivedAt - i * 1000,
      ...(i % 2 ? { app_version: "1.0.5" } : { app_instance_id: null }),
    }));
    const result = await ingestAccount(
      env.USAGE_LEDGER,
      userId,
      [],
      reports.map((report) => ({ userId, receivedAt, report })),
      null,
      receivedAt,
    );
    expect(result).toMatchObject({ stored: 13, duplicates: 0, expired: 0 });
    const expected = reports
      .map((r) => ({
        kind: "secure",
        report_hash: r.report_hash,
        model_name: r.model_name,
        provider: r.provider,
        tokens_used: r.tokens_used,
        cost_micros: toMicros(r.cost),
        request_count: r.request_count,
        success_count: r.success_count,
        error_count: r.error_count,
        report_timestamp: r.report_timestamp,
        app_version: r.app_version ?? null,
        app_instance_id: r.app_instance_id ?? null,
        received_at: receivedAt,
        member_id: "",
      }))
      .sort(byKey);
    expect((await rawReports(userId, receivedAt - 13_000)).sort(byKey)).toEqual(expected);
    expect(await ledger(userId).size()).toMatchObject({ reports: 0, secure: 13 });
  });

  it("makes one ledger call per account of a batch and writes D1 in one batch of 1 + 5 + 2 + 2 statements; a redelivery adds nothing", async () => {
    // 34 accounts: the first reports 20 calls today, 1 yesterday and 13 fallback reports; the 33
    // others one call today and one yesterday, each account from its own device. 100 messages.
    const users = await Promise.all(Array.from({ length: 34 }, () => user()));
    const now = Date.now();
    const yesterday = now - MS.DAY;
    let n = 0;
    const usage = (userId: string, device: string, at: number) => ({
      id: `ingest-${n++}`,
      timestamp: new Date(),
      attempts: 1,
      body: { type: "usage.report", userId, receivedAt: now, deviceId: device, report: { ...report({ cost_usd: 0.01 }), occurred_at: at } } as unknown,
    });
    const secure = (userId: string, i: number) => ({
      id: `ingest-${n++}`,
      timestamp: new Date(),
      attempts: 1,
      body: {
        type: "usage.secure",
        userId,
        receivedAt: now,
        report: {
          report_hash: `h-${crypto.randomUUID()}`,
          model_name: "m",
          provider: "p",
          tokens_used: 1,
          cost: 0.01,
          request_count: 1,
          success_count: 1,
          error_count: 0,
          report_timestamp: now - i,
        },
      } as unknown,
    });
    const [first, ...others] = users as [string, ...string[]];
    const messages = [
      ...Array.from({ length: 20 }, () => usage(first, "device-0", now)),
      usage(first, "device-0", yesterday),
      ...Array.from({ length: 13 }, (_, i) => secure(first, i)),
      ...others.flatMap((userId, i) => [usage(userId, `device-${i + 1}`, now), usage(userId, `device-${i + 1}`, yesterday)]),
    ];
    expect(messages).toHaveLength(100);
    // Shuffled, as accounts' reports arrive mixed.
    const mixed = messages
      .map((m, i) => ({ m, k: (i * 37) % 101 }))
      .sort((a, b) => a.k - b.k)
      .map(({ m }) => m);

    const run = async (attempts: number) => {
      const { ledgers, calls } = recordingLedgers();
      const { db: counted, counts } = countingD1();
      const { queue } = recordingQueue();
      const batch = createMessageBatch(
        "modelify-events",
        mixed.map((m) => ({ ...m, attempts })),
      );
      await handleEventBatch({ db: counted, env: parseConsumerEnv(env), queue, ledgers }, batch);
      return { calls, counts };
    };

    const once = await run(1);
    // One call per account, carrying all of that account's reports of the batch.
    expect(once.calls).toHaveLength(34);
    expect(new Set(once.calls.map((c) => c.userId))).toEqual(new Set(users));
    const callOf = (userId: string) => once.calls.find((c) => c.userId === userId)!;
    expect([callOf(first).usage.length, callOf(first).secure.length]).toEqual([21, 13]);
    for (const userId of others) expect([callOf(userId).usage.length, callOf(userId).secure.length]).toEqual([2, 0]);
    // D1: the batch's accounts and budgets in one read, then one batch (one transaction): the
    // rollup's 68 account-days in 5 statements (16 rows each: D1 binds at most 100 parameters),
    // the 34 accounts' first and last report in 2 (33 each), the 34 devices' last use in 2 (33 each).
    expect(once.counts).toEqual({ prepared: 1 + 5 + 2 + 2, batches: [5 + 2 + 2] });

    const stored = async () =>
      Promise.all(users.map(async (userId) => ({ size: await ledger(userId).size(), days: await ledgerDayTotals(userId), rollup: await rollupDays(userId) })));
    const before = await stored();
    expect(before[0]!.size).toMatchObject({ reports: 21, secure: 13 });
    expect(before[0]!.days.reduce((sum, d) => sum + d.requests, 0)).toBe(34);
    expect(before[0]!.days.reduce((sum, d) => sum + d.costMicros, 0)).toBe(34 * 10_000);
    for (const s of before.slice(1)) {
      expect(s.size).toMatchObject({ reports: 2, secure: 0 });
      expect(s.days.map((d) => d.requests)).toEqual([1, 1]);
    }
    // The rollup in D1 holds exactly each ledger's day totals.
    for (const s of before) expect(s.rollup).toEqual(s.days);

    // The same messages again, as a redelivery brings them: the same calls, nothing new stored,
    // and D1 gets the same figures again (absolute totals, not increments).
    const again = await run(2);
    expect(again.calls).toHaveLength(34);
    expect(again.counts).toEqual({ prepared: 1 + 5 + 2 + 2, batches: [5 + 2 + 2] });
    expect(await stored()).toEqual(before);
  });
});
