// The consumer side of usage reporting: raw rows and the aggregates the dashboard reads,
// written in one D1 batch (one transaction) per queue batch.
import { sql, type SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { toMicros, type SecureReport, type UsageReport } from "./report";

export type UsageItem = { userId: string; receivedAt: number; report: UsageReport & { occurred_at?: number } };
export type SecureItem = { userId: string; receivedAt: number; report: SecureReport };

// D1 allows 100 bound parameters per statement: 19 columns × 5 rows = 95.
const USAGE_ROWS_PER_STATEMENT = 5;
const SECURE_ROWS_PER_STATEMENT = 7; // 14 columns

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function conversationId(metadata: Record<string, unknown> | null | undefined): string | null {
  const value = metadata?.conversation_id;
  return typeof value === "string" && value.length > 0 && value.length <= 200 ? value : typeof value === "number" ? String(value) : null;
}

/**
 * Inserts the reports (a repeated report id changes nothing) and adds to the aggregates exactly
 * the rows this call inserted: they carry this call's ingest_batch id, and the aggregate
 * statements select by it inside the same transaction.
 */
export function usageStatements(db: Db, usage: UsageItem[], secure: SecureItem[], batchId: string = crypto.randomUUID()): D1PreparedStatement[] {
  // Plain D1 statements: drizzle's batch() cannot bind parameters of raw SQL (INSERT … SELECT).
  const statements: D1PreparedStatement[] = [];
  const d1 = db.$client;
  const add = (query: { toSQL(): { sql: string; params: unknown[] } } | SQL) => {
    const { sql: text, params } = "toSQL" in query ? query.toSQL() : dialect.sqlToQuery(query);
    statements.push(d1.prepare(text).bind(...params));
  };
  for (const chunk of chunks(usage, USAGE_ROWS_PER_STATEMENT)) {
    add(
      db
        .insert(schema.modelUsage)
        .values(
          chunk.map(({ userId, receivedAt, report: r }) => ({
            id: r.report_id.toLowerCase(),
            userId,
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
            conversationId: conversationId(r.metadata),
            appVersion: r.app_version ?? null,
            appInstanceId: r.app_instance_id ?? null,
            occurredAt: r.occurred_at ?? receivedAt,
            receivedAt,
            ingestBatch: batchId,
          })),
        )
        .onConflictDoNothing(),
    );
  }
  for (const chunk of chunks(secure, SECURE_ROWS_PER_STATEMENT)) {
    add(
      db
        .insert(schema.secureUsageReports)
        .values(
          chunk.map(({ userId, receivedAt, report: r }) => ({
            id: crypto.randomUUID(),
            userId,
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
            ingestBatch: batchId,
            createdAt: receivedAt,
          })),
        )
        .onConflictDoNothing(),
    );
  }
  if (usage.length) {
    add(sql`
        INSERT INTO daily_usage_summary (user_id, date, model_name, model_provider, total_requests, success_count, total_tokens,
          tokens_input, tokens_output, total_cost_micros, total_duration_ms, timed_requests, last_used_at)
        SELECT user_id, strftime('%Y-%m-%d', occurred_at / 1000, 'unixepoch'), model_name, model_provider, count(*), sum(success),
          sum(tokens_used), sum(tokens_input), sum(tokens_output), sum(cost_micros), sum(request_duration_ms), count(*), max(occurred_at)
        FROM model_usage WHERE ingest_batch = ${batchId} GROUP BY 1, 2, 3, 4
        ON CONFLICT (user_id, date, model_name, model_provider) DO UPDATE SET
          total_requests = total_requests + excluded.total_requests, success_count = success_count + excluded.success_count,
          total_tokens = total_tokens + excluded.total_tokens, tokens_input = tokens_input + excluded.tokens_input,
          tokens_output = tokens_output + excluded.tokens_output, total_cost_micros = total_cost_micros + excluded.total_cost_micros,
          total_duration_ms = total_duration_ms + excluded.total_duration_ms, timed_requests = timed_requests + excluded.timed_requests,
          last_used_at = max(last_used_at, excluded.last_used_at)`);
    add(sql`
        INSERT INTO hourly_usage (user_id, date, hour, total_requests, total_tokens, total_cost_micros)
        SELECT user_id, strftime('%Y-%m-%d', occurred_at / 1000, 'unixepoch'), CAST(strftime('%H', occurred_at / 1000, 'unixepoch') AS INTEGER),
          count(*), sum(tokens_used), sum(cost_micros)
        FROM model_usage WHERE ingest_batch = ${batchId} GROUP BY 1, 2, 3
        ON CONFLICT (user_id, date, hour) DO UPDATE SET total_requests = total_requests + excluded.total_requests,
          total_tokens = total_tokens + excluded.total_tokens, total_cost_micros = total_cost_micros + excluded.total_cost_micros`);
    add(sql`
        INSERT OR IGNORE INTO conversations (user_id, month, conversation_id)
        SELECT user_id, strftime('%Y-%m', occurred_at / 1000, 'unixepoch'), conversation_id
        FROM model_usage WHERE ingest_batch = ${batchId} AND conversation_id IS NOT NULL GROUP BY 1, 2, 3`);
  }
  if (secure.length) {
    add(sql`
        INSERT INTO daily_usage_summary (user_id, date, model_name, model_provider, total_requests, success_count, total_tokens,
          total_cost_micros, last_used_at)
        SELECT user_id, strftime('%Y-%m-%d', report_timestamp / 1000, 'unixepoch'), model_name, provider, sum(request_count), sum(success_count),
          sum(tokens_used), sum(cost_micros), max(report_timestamp)
        FROM secure_usage_reports WHERE ingest_batch = ${batchId} GROUP BY 1, 2, 3, 4
        ON CONFLICT (user_id, date, model_name, model_provider) DO UPDATE SET
          total_requests = total_requests + excluded.total_requests, success_count = success_count + excluded.success_count,
          total_tokens = total_tokens + excluded.total_tokens, total_cost_micros = total_cost_micros + excluded.total_cost_micros,
          last_used_at = max(last_used_at, excluded.last_used_at)`);
  }
  return statements;
}

const dialect = new SQLiteAsyncDialect();

/** One D1 batch: a single transaction, all or nothing. */
export async function writeUsage(db: Db, usage: UsageItem[], secure: SecureItem[]): Promise<void> {
  const statements = usageStatements(db, usage, secure);
  if (statements.length) await db.$client.batch(statements);
}
