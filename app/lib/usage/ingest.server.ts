// The consumer side of usage reporting: raw rows and the aggregates the dashboard reads,
// written in one D1 batch (one transaction) per queue batch.
import { SECURE_AGGREGATES, USAGE_AGGREGATES, USAGE_COLUMNS } from "./aggregate-sql";
import type { Db } from "../db.server";
import { chunks } from "../db.server";
import { toMicros, type SecureReport, type UsageReport } from "./report";

export type UsageItem = {
  userId: string;
  receivedAt: number;
  report: UsageReport & { occurred_at?: number };
  /** The device key (desktop session) that sent it, and the country the request came from. */
  deviceId?: string | null;
  country?: string | null;
};
export type SecureItem = { userId: string; receivedAt: number; report: SecureReport };

// The raw rows' INSERTs are written here rather than with drizzle's query builder, which took
// half the consumer's JavaScript time for 100 reports. Columns and values stay in the order
// drizzle used, encoded as its column modes encode them (boolean as 0/1, JSON as
// JSON.stringify); the tests compare the stored rows with drizzle's own insert. (USAGE_COLUMNS is
// in aggregate-sql.ts: the seed writes the same columns.)
export const SECURE_COLUMNS = [
  "id",
  "user_id",
  "report_hash",
  "model_name",
  "provider",
  "tokens_used",
  "cost_micros",
  "request_count",
  "success_count",
  "error_count",
  "report_timestamp",
  "app_version",
  "app_instance_id",
  "ingest_batch",
  "created_at",
];

// D1 binds at most 100 parameters per statement: 5 × 20 = 100, 6 × 15 = 90.
const USAGE_ROWS_PER_STATEMENT = Math.floor(100 / USAGE_COLUMNS.length);
const SECURE_ROWS_PER_STATEMENT = Math.floor(100 / SECURE_COLUMNS.length);

/** `INSERT … VALUES (?, …), … ON CONFLICT DO NOTHING` for a table, per number of rows (cached). */
function insertSql(table: string, columns: string[]) {
  const head = `INSERT INTO ${table} (${columns.join(", ")}) VALUES `;
  const row = `(${columns.map(() => "?").join(", ")})`;
  const byRows = new Map<number, string>();
  return (rows: number) => {
    let text = byRows.get(rows);
    if (!text) {
      text = `${head}${Array(rows).fill(row).join(", ")} ON CONFLICT DO NOTHING`;
      byRows.set(rows, text);
    }
    return text;
  };
}
const usageInsert = insertSql("model_usage", USAGE_COLUMNS);
const secureInsert = insertSql("secure_usage_reports", SECURE_COLUMNS);

function conversationId(metadata: Record<string, unknown> | null | undefined): string | null {
  const value = metadata?.conversation_id;
  return typeof value === "string" && value.length > 0 && value.length <= 200 ? value : typeof value === "number" ? String(value) : null;
}

function usageValues({ userId, receivedAt, report: r, deviceId }: UsageItem, batchId: string): unknown[] {
  return [
    r.report_id.toLowerCase(),
    userId,
    r.model_name,
    r.model_provider,
    r.request_type,
    r.tokens_used,
    r.tokens_input,
    r.tokens_output,
    toMicros(r.cost_usd),
    r.request_duration_ms,
    r.success ? 1 : 0,
    r.error_message ?? null,
    r.metadata == null ? null : JSON.stringify(r.metadata),
    conversationId(r.metadata),
    r.app_version ?? null,
    r.app_instance_id ?? null,
    deviceId ?? null,
    r.occurred_at ?? receivedAt,
    receivedAt,
    batchId,
  ];
}

function secureValues({ userId, receivedAt, report: r }: SecureItem, batchId: string): unknown[] {
  return [
    crypto.randomUUID(),
    userId,
    r.report_hash,
    r.model_name,
    r.provider,
    r.tokens_used,
    toMicros(r.cost),
    r.request_count,
    r.success_count,
    r.error_count,
    r.report_timestamp,
    r.app_version ?? null,
    r.app_instance_id ?? null,
    batchId,
    receivedAt,
  ];
}

/**
 * Inserts the reports (a repeated report id changes nothing) and adds to the aggregates exactly
 * the rows this call inserted: they carry this call's ingest_batch id, and the aggregate
 * statements select by it inside the same transaction.
 */
function usageStatements(db: Db, usage: UsageItem[], secure: SecureItem[], batchId: string = crypto.randomUUID()): D1PreparedStatement[] {
  const statements: D1PreparedStatement[] = [];
  const d1 = db.$client;
  for (const chunk of chunks(usage, USAGE_ROWS_PER_STATEMENT)) {
    statements.push(d1.prepare(usageInsert(chunk.length)).bind(...chunk.flatMap((item) => usageValues(item, batchId))));
  }
  for (const chunk of chunks(secure, SECURE_ROWS_PER_STATEMENT)) {
    statements.push(d1.prepare(secureInsert(chunk.length)).bind(...chunk.flatMap((item) => secureValues(item, batchId))));
  }
  if (usage.length) for (const text of USAGE_AGGREGATES) statements.push(d1.prepare(text).bind(batchId));
  const devices = lastUseByDevice(usage);
  if (devices.length) statements.push(d1.prepare(deviceUseSql(devices.length)).bind(...devices.slice(0, MAX_DEVICES_PER_BATCH).flat()));
  if (secure.length) for (const text of SECURE_AGGREGATES) statements.push(d1.prepare(text).bind(batchId));
  return statements;
}

/** Each device's latest report of the batch: when, and from which country (if known). */
function lastUseByDevice(usage: UsageItem[]): Array<[string, number, string | null]> {
  const latest = new Map<string, [string, number, string | null]>();
  for (const { deviceId, receivedAt, country } of usage) {
    if (!deviceId) continue;
    const seen = latest.get(deviceId);
    if (!seen || receivedAt >= seen[1]) latest.set(deviceId, [deviceId, receivedAt, country ?? seen?.[2] ?? null]);
  }
  return [...latest.values()];
}

// Redelivered reports change nothing: the time only moves forward. 33 devices × 3 values fit
// D1's 100 parameters; a queue batch of 100 reports has at most that many devices in practice,
// and more are cut (their last use shows at their next batch).
const MAX_DEVICES_PER_BATCH = 33;
function deviceUseSql(devices: number) {
  const rows = Array(Math.min(devices, MAX_DEVICES_PER_BATCH)).fill("(?, ?, ?)").join(", ");
  return `UPDATE sessions SET last_used_at = max(coalesce(sessions.last_used_at, 0), v.column2), last_country = coalesce(v.column3, sessions.last_country)
    FROM (VALUES ${rows}) AS v WHERE sessions.id = v.column1`;
}

/** One D1 batch: a single transaction, all or nothing. */
export async function writeUsage(db: Db, usage: UsageItem[], secure: SecureItem[]): Promise<void> {
  const statements = usageStatements(db, usage, secure);
  if (statements.length) await db.$client.batch(statements);
}
