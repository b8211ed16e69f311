// The consumer's writes of raw usage rows.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type SecureItem, writeUsage } from "~/lib/usage/ingest.server";
import { db, insertUser, uniqueEmail } from "./helpers";

const user = async () => (await insertUser({ email: uniqueEmail("ingest"), passwordHash: "x", metadata: {}, confirmed: true })).id;

describe("usage rows written by the consumer", () => {
  it("writes 13 fallback reports in one transaction (15 columns: 6 rows per statement)", async () => {
    const userId = await user();
    const now = Date.now();
    const secure: SecureItem[] = Array.from({ length: 13 }, (_, i) => ({
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
    await writeUsage(db, [], secure);
    const row = await env.DB.prepare("SELECT count(*) AS n FROM secure_usage_reports WHERE user_id = ?").bind(userId).first<{ n: number }>();
    expect(row?.n).toBe(13);
  });
});
