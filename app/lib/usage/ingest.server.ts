// The consumer side of usage reporting: raw rows and the aggregates the dashboard reads,
// written in one D1 batch (one transaction) per queue batch.
import { USAGE_AGGREGATES, SECURE_AGGREGATES } from "./aggregate-sql";
import type { Db } from "../db.server";
import { chunks, schema } from "../db.server";
import { toMicros, type SecureReport, type UsageReport } from "./report";

export type UsageItem = { userId: string; receivedAt: number; report: UsageReport & { occurred_at?: number } };
export type SecureItem = { userId: string; receivedAt: number; report: SecureReport };

// D1 allows 100 bound parameters per statement: 19 columns × 5 rows = 95, 15 columns × 6 rows = 90.
const USAGE_ROWS_PER_STATEMENT = 5;
const SECURE_ROWS_PER_STATEMENT = 6;

function conversationId(metadata: Record<string, unknown> | null | undefined): string | null {
  const value = metadata?.conversation_id;
  return typeof value === "string" && value.length > 0 && value.length <= 200 ? value : typeof value === "number" ? String(value) : null;
}

/**
 * Inserts the reports (a repeated report id changes nothing) and adds to the aggregates exactly
 * the rows this call inserted: they carry this call's ingest_batch id, and the aggregate
 * statements select by it inside the same transaction.
 */
function usageStatements(db: Db, usage: UsageItem[], secure: SecureItem[], batchId: string = crypto.randomUUID()): D1PreparedStatement[] {
  // Plain D1 statements: drizzle's batch() cannot bind parameters of raw SQL (INSERT … SELECT).
  const statements: D1PreparedStatement[] = [];
  const d1 = db.$client;
  const add = (query: { toSQL(): { sql: string; params: unknown[] } }) => {
    const { sql: text, params } = query.toSQL();
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
  if (usage.length) for (const text of USAGE_AGGREGATES) statements.push(d1.prepare(text).bind(batchId));
  if (secure.length) for (const text of SECURE_AGGREGATES) statements.push(d1.prepare(text).bind(batchId));
  return statements;
}

/** One D1 batch: a single transaction, all or nothing. */
export async function writeUsage(db: Db, usage: UsageItem[], secure: SecureItem[]): Promise<void> {
  const statements = usageStatements(db, usage, secure);
  if (statements.length) await db.$client.batch(statements);
}
