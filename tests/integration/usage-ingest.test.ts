// The consumer's raw-row INSERTs, written by hand for speed, against drizzle's own insert.
import { env } from "cloudflare:test";
import { getTableColumns, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "~/lib/db.server";
import { toMicros } from "~/lib/usage/report";
import { USAGE_COLUMNS } from "~/lib/usage/aggregate-sql";
import { SECURE_COLUMNS, type SecureItem, type UsageItem, writeUsage } from "~/lib/usage/ingest.server";
import { metered, requestDb } from "~/server/db";
import { db, insertUser, uniqueEmail } from "./helpers";
import { report } from "./usage-helpers";

const user = async () => (await insertUser({ email: uniqueEmail("ingest"), passwordHash: "x", metadata: {}, confirmed: true })).id;

/** Reports covering every column's cases: nulls, booleans, JSON, a numeric conversation id, no occurred_at. */
function variedReports(): UsageItem["report"][] {
  const now = Date.now();
  return [
    { ...report(), occurred_at: now - 5000 },
    { ...report({ success: false, error_message: "rate limited", metadata: null, app_version: undefined }), occurred_at: now },
    { ...report({ metadata: { conversation_id: 42, nested: { list: [1, "two", null], emoji: "😀\u2028" } } }), occurred_at: now },
    { ...report({ report_id: crypto.randomUUID().toUpperCase(), metadata: undefined, app_instance_id: null }), occurred_at: now },
    report({ metadata: { conversation_id: "" }, request_type: "embedding" }),
    { ...report({ cost_usd: 1234.5678915, tokens_used: 0, tokens_input: 0, tokens_output: 0 }), occurred_at: now },
    { ...report({ metadata: { conversation_id: "x".repeat(201) } }), occurred_at: now },
  ] as UsageItem["report"][];
}

/** The rule for metadata.conversation_id: a non-empty string of at most 200 characters, or a number. */
function conversationId(value: unknown): string | null {
  if (typeof value === "number") return String(value);
  return typeof value === "string" && value.length > 0 && value.length <= 200 ? value : null;
}

/** The rows as stored, without the columns that differ by design (owner, batch). */
async function storedRows(table: "model_usage" | "secure_usage_reports", userId: string, order: string) {
  const { results } = await env.DB.prepare(`SELECT * FROM ${table} WHERE user_id = ? ORDER BY ${order}`).bind(userId).all<Record<string, unknown>>();
  return results.map(({ user_id, ingest_batch, id, ...rest }) => ({
    ...rest,
    ...(table === "model_usage" ? { id } : {}),
    types: Object.values(rest).map((v) => typeof v),
  }));
}

describe("usage rows written by the consumer", () => {
  it("lists the tables' columns in the schema's order", () => {
    expect(USAGE_COLUMNS).toEqual(Object.values(getTableColumns(schema.modelUsage)).map((c) => c.name));
    expect(SECURE_COLUMNS).toEqual(Object.values(getTableColumns(schema.secureUsageReports)).map((c) => c.name));
  });

  it("stores usage rows exactly as drizzle's insert stores them", async () => {
    const [viaDrizzle, viaConsumer] = [await user(), await user()];
    const receivedAt = Date.now();
    const reports = variedReports();
    // One row per statement: a reference insert of 7 rows would pass D1's 100 bound parameters.
    for (const r of reports) {
      await db.insert(schema.modelUsage).values({
        id: r.report_id.toLowerCase(),
        userId: viaDrizzle,
        modelName: r.model_name,
        modelProvider: r.model_provider,
        requestType: r.request_type,
        tokensUsed: r.tokens_used,
        tokensInput: r.tokens_input,
        tokensOutput: r.tokens_output,
        costMicros: toMicros(r.cost_usd),
        requestDurationMs: r.request_duration_ms,
        success: r.success,
        errorMessage: r.error_message ?? null,
        metadata: r.metadata ?? null,
        conversationId: conversationId(r.metadata?.conversation_id),
        appVersion: r.app_version ?? null,
        appInstanceId: r.app_instance_id ?? null,
        occurredAt: r.occurred_at ?? receivedAt,
        receivedAt,
        ingestBatch: "reference",
      });
    }
    await writeUsage(
      db,
      reports.map((report) => ({ userId: viaConsumer, receivedAt, report })),
      [],
    );
    const expected = await storedRows("model_usage", viaDrizzle, "id");
    expect(expected).toHaveLength(reports.length);
    expect(await storedRows("model_usage", viaConsumer, "id")).toEqual(expected);
    // And drizzle reads them back as what was reported.
    const read = await db
      .select()
      .from(schema.modelUsage)
      .where(inArray(schema.modelUsage.userId, [viaConsumer]));
    const byId = new Map(read.map((r) => [r.id, r]));
    for (const r of reports) {
      const row = byId.get(r.report_id.toLowerCase())!;
      expect(row.success).toBe(r.success);
      expect(row.metadata).toEqual(r.metadata ?? null);
    }
  });

  it("stores fallback reports exactly as drizzle's insert stores them, more than six in one transaction", async () => {
    const [viaDrizzle, viaConsumer] = [await user(), await user()];
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
    for (const r of reports) {
      await db.insert(schema.secureUsageReports).values({
        id: crypto.randomUUID(),
        userId: viaDrizzle,
        reportHash: r.report_hash,
        modelName: r.model_name,
        provider: r.provider,
        tokensUsed: r.tokens_used,
        costMicros: toMicros(r.cost),
        requestCount: r.request_count,
        successCount: r.success_count,
        errorCount: r.error_count,
        reportTimestamp: r.report_timestamp,
        appVersion: r.app_version ?? null,
        appInstanceId: r.app_instance_id ?? null,
        ingestBatch: "reference",
        createdAt: receivedAt,
      });
    }
    // One writeUsage is one transaction: with 7 rows × 15 columns in a statement it failed whole.
    await writeUsage(
      db,
      [],
      reports.map((report) => ({ userId: viaConsumer, receivedAt, report })),
    );
    const expected = await storedRows("secure_usage_reports", viaDrizzle, "report_hash");
    expect(expected).toHaveLength(13);
    expect(await storedRows("secure_usage_reports", viaConsumer, "report_hash")).toEqual(expected);
  });

  it("writes 100 reports and 13 fallback reports in one batch of 20 + 3 + 4 + 1 statements, and a repeat adds nothing", async () => {
    const userId = await user();
    const now = Date.now();
    const usage = Array.from({ length: 100 }, () => ({
      userId,
      receivedAt: now,
      report: { ...report({ cost_usd: 0.01 }), occurred_at: now } as UsageItem["report"],
    }));
    const secure = Array.from({ length: 13 }, (_, i) => ({
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
    }));
    const counted = requestDb(env.DB);
    expect((await metered(() => writeUsage(counted, usage, secure))).statements).toBe(20 + 3 + 4 + 1);
    await writeUsage(db, usage, secure);
    const { results } = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM model_usage WHERE user_id = ?1) AS raw, (SELECT count(*) FROM secure_usage_reports WHERE user_id = ?1) AS fallback, (SELECT sum(total_requests) FROM daily_usage_summary WHERE user_id = ?1) AS requests, (SELECT sum(total_cost_micros) FROM daily_usage_summary WHERE user_id = ?1) AS micros",
    )
      .bind(userId)
      .all();
    expect(results[0]).toEqual({ raw: 100, fallback: 13, requests: 113, micros: 113 * 10_000 });
  });
});
