// A ledger's raw rows in drizzle's terms: the one list of their columns, with each column's type.
// The ledger's inserts (store.ts) and the move of D1's history (move.server.ts) take their column
// lists from here (getTableColumns); the CREATE statements that made these tables are the ledger's
// migrations (schema.ts), and the ledger's tests read the rows back column by column.
import { getTableColumns } from "drizzle-orm";
import { integer, type SQLiteTable, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** One model call's report (the consumer's, or the move's from D1's model_usage). */
export const reports = sqliteTable("reports", {
  // The report_id, lower case.
  id: text("id").primaryKey(),
  occurredAt: integer("occurred_at").notNull(),
  receivedAt: integer("received_at").notNull(),
  modelName: text("model_name").notNull(),
  modelProvider: text("model_provider").notNull(),
  requestType: text("request_type").notNull(),
  tokensUsed: integer("tokens_used").notNull(),
  tokensInput: integer("tokens_input").notNull(),
  tokensOutput: integer("tokens_output").notNull(),
  costMicros: integer("cost_micros").notNull(),
  durationMs: integer("request_duration_ms").notNull(),
  success: integer("success", { mode: "boolean" }).notNull(),
  errorMessage: text("error_message"),
  // JSON text.
  metadata: text("metadata"),
  conversationId: text("conversation_id"),
  appVersion: text("app_version"),
  appInstanceId: text("app_instance_id"),
  deviceId: text("device_id"),
  // In a team's ledger: the member who sent it (ADR 0038). The column is NOT NULL DEFAULT '': an
  // account's own ledger, and the move of D1's history, leave it out.
  memberId: text("member_id"),
});

/** A fallback aggregate report (POST /api/v1/usage/secure-report). */
export const secureReports = sqliteTable("secure_reports", {
  reportHash: text("report_hash").primaryKey(),
  modelName: text("model_name").notNull(),
  provider: text("provider").notNull(),
  tokensUsed: integer("tokens_used").notNull(),
  costMicros: integer("cost_micros").notNull(),
  requestCount: integer("request_count").notNull(),
  successCount: integer("success_count").notNull(),
  errorCount: integer("error_count").notNull(),
  reportTimestamp: integer("report_timestamp").notNull(),
  appVersion: text("app_version"),
  appInstanceId: text("app_instance_id"),
  receivedAt: integer("received_at").notNull(),
  memberId: text("member_id"),
});

/** A table's column names, in the order of its definition. */
export function columnNames(table: SQLiteTable): string[] {
  return Object.values(getTableColumns(table)).map((column) => column.name);
}

/**
 * A raw row (column names, as SQL hands it over) as the table's record: each column read by its
 * own rule (an integer flag as a boolean), a missing one as null. `from` names a column the row
 * has under another name.
 */
export function fromRow<T extends SQLiteTable>(table: T, row: Record<string, unknown>, from: Record<string, string> = {}): T["$inferSelect"] {
  const record: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = row[from[column.name] ?? column.name];
    record[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return record as T["$inferSelect"];
}
