// Bounded storage (issue 27, "Archiving"; ADR 0020): the hourly cron moves a ledger's raw rows
// past retention to R2, one gzipped NDJSON object per account and month; the ledger's row count
// drops by exactly those, its aggregates (and so the pages and the CSV) stay, a second run changes
// nothing, and the data export's path still returns the archived rows.
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { LEDGER, MS } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { usageCsv } from "~/lib/usage/analytics.server";
import { archiveOldUsage } from "~/lib/usage/archive.server";
import { monthKey, startOfMonth } from "~/lib/usage/dates";
import { UTC } from "~/lib/time-zone";
import { writeShared } from "~/lib/usage/ingest.server";
import { archiveKey } from "~/lib/usage/ledger/api";
import type { LedgerSecure } from "~/lib/usage/ledger/types";
import { handlers } from "../worker";
import { db, uniqueEmail } from "./helpers";
import { ledger, oldUsageAt } from "./usage-helpers";

const sources = { ledgers: env.USAGE_LEDGER };

async function newAccount() {
  const id = crypto.randomUUID();
  await env.DB.prepare("INSERT INTO users (id, email, password_hash, role, metadata, created_at, updated_at) VALUES (?1, ?2, 'x', 'user', '{}', ?3, ?3)")
    .bind(id, uniqueEmail("archive"), Date.now() - 365 * MS.DAY)
    .run();
  return id;
}

function secureAt(reportTimestamp: number): LedgerSecure {
  return {
    reportHash: crypto.randomUUID().replaceAll("-", "").padEnd(64, "a"),
    modelName: "gpt-4o",
    provider: "openai",
    tokensUsed: 5000,
    costMicros: 70_000,
    requestCount: 5,
    successCount: 5,
    errorCount: 0,
    reportTimestamp,
    appVersion: "1.0.5",
    appInstanceId: "archive-test",
    receivedAt: reportTimestamp + 1000,
  };
}

async function archived(userId: string, month: string): Promise<Array<Record<string, unknown>> | null> {
  const object = await env.BUCKET.get(archiveKey(userId, month));
  if (!object) return null;
  const text = await new Response(object.body.pipeThrough(new DecompressionStream("gzip"))).text();
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function runCron(scheduledTime: number) {
  const ctx = createExecutionContext();
  await handlers.scheduled(createScheduledController({ scheduledTime, cron: "0 * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

async function aggregates(userId: string, now: number) {
  return ledger(userId).read({ now, dailyFrom: "0000-00-00", hourlyFrom: "0000-00-00", models: true });
}

describe("archiving old raw usage", () => {
  it("moves rows past retention to R2 per month, keeps the aggregates, changes nothing the second time, and still exports them", async () => {
    const now = Date.now();
    const userId = await newAccount();
    // Two months of old rows (well past the 100 days), and recent ones that stay.
    // Each old month's rows lie within its first days: two months, whatever today's date.
    const [startA, startB] = [startOfMonth(now - 200 * MS.DAY, UTC) + MS.DAY, startOfMonth(now - 140 * MS.DAY, UTC) + MS.DAY];
    const oldA = Array.from({ length: 30 }, (_, i) => oldUsageAt(startA + i * 3 * MS.HOUR, i));
    const oldB = Array.from({ length: 20 }, (_, i) => oldUsageAt(startB + i * 5 * MS.HOUR, i));
    const recent = Array.from({ length: 10 }, (_, i) => oldUsageAt(now - 3 * MS.DAY + i * MS.HOUR, i));
    const oldSecure = secureAt(startA + 2 * MS.HOUR);
    const [monthA, monthB] = [monthKey(oldA[0]!.occurredAt, UTC), monthKey(oldB[0]!.occurredAt, UTC)];
    expect(new Set([...oldA.map((r) => monthKey(r.occurredAt, UTC)), monthKey(oldSecure.reportTimestamp, UTC)])).toEqual(new Set([monthA]));
    expect(new Set(oldB.map((r) => monthKey(r.occurredAt, UTC)))).toEqual(new Set([monthB]));

    // The ledger takes rows of any age when importing (the move from D1), and D1 learns of the account.
    const usage = [...oldA, ...oldB, ...recent];
    const result = await ledger(userId).ingest({ usage, secure: [oldSecure], budget: null, now, importing: true });
    expect(result).toMatchObject({ stored: 61, expired: 0 });
    await writeShared(db, [{ userId, result, usage, secure: [oldSecure] }]);
    expect(await db.query.usageAccounts.findFirst({ where: eq(schema.usageAccounts.userId, userId) })).toMatchObject({
      firstReportAt: oldA[0]!.receivedAt,
      archivedAt: null,
    });
    const before = await aggregates(userId, now);
    const csvInA = await usageCsv(sources, { id: userId, email: "archive@example.com", profile: { timeZone: UTC } }, oldA.at(-1)!.occurredAt);
    const exportA = await ledger(userId).rawReports(monthA, userId);
    expect(exportA).toHaveLength(31);

    await runCron(now);

    // One object per month with exactly that month's old rows.
    const inA = await archived(userId, monthA);
    const inB = await archived(userId, monthB);
    expect(inA?.map((r) => String(r.kind === "secure" ? r.report_hash : r.id)).sort()).toEqual([...oldA.map((r) => r.id), oldSecure.reportHash].sort());
    expect(inB?.map((r) => r.id).sort()).toEqual(oldB.map((r) => r.id).sort());
    expect(await archived(userId, monthKey(now, UTC))).toBeNull();
    const size = await ledger(userId).size();
    expect(size).toMatchObject({ reports: recent.length, secure: 0 });
    expect(size.archivedMonths).toEqual([
      { month: monthA, rows: 31 },
      { month: monthB, rows: 20 },
    ]);
    // The cutoff is the retention window.
    for (const row of [...inA!, ...inB!]) expect(Number(row.occurred_at ?? row.report_timestamp)).toBeLessThan(now - LEDGER.rawRetentionDays * MS.DAY);

    // The aggregates stay, and so do the pages' figures: the CSV of a day in an archived month.
    expect(await aggregates(userId, now)).toEqual(before);
    const csvAfter = await usageCsv(sources, { id: userId, email: "archive@example.com", profile: { timeZone: UTC } }, oldA.at(-1)!.occurredAt);
    expect(csvAfter).toBe(csvInA);
    expect(csvAfter).toMatch(/"gpt-4o","openai",\d+,/);

    // The data export's path reads the archive back: the same rows as before archiving.
    expect(await ledger(userId).rawReports(monthA, userId)).toEqual(expect.arrayContaining(exportA));
    expect(await ledger(userId).rawReports(monthA, userId)).toHaveLength(31);
    expect((await ledger(userId).rawReports(monthB, userId)).map((r) => r.id).sort()).toEqual(oldB.map((r) => r.id).sort());

    // A second run (the same hour, and a day later when the account is due again) changes nothing.
    await runCron(now);
    expect(await archiveOldUsage(db, env.USAGE_LEDGER, now + MS.DAY + MS.HOUR)).toMatchObject({ rows: 0, failed: 0 });
    expect(await ledger(userId).size()).toEqual(size);
    expect(await archived(userId, monthA)).toEqual(inA);
    expect(await archived(userId, monthB)).toEqual(inB);
    expect(await aggregates(userId, now)).toEqual(before);
  });
});
