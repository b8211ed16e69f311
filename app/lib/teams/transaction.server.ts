// Several conditional statements as one D1 transaction (a batch): each later statement checks
// `changes() = 1`, the rows the one before it wrote, so they all act or none does. Raw D1
// statements, since drizzle's batch() takes only its query builders, not `sql` templates.
import type { SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Db } from "../db.server";

const dialect = new SQLiteAsyncDialect();

/** Runs the statements in one transaction: how many rows each wrote, in order. */
export async function inTransaction(db: Db, statements: SQL[]): Promise<number[]> {
  const d1 = db.$client;
  const results = await d1.batch(
    statements.map((statement) => {
      const query = dialect.sqlToQuery(statement);
      return d1.prepare(query.sql).bind(...query.params);
    }),
  );
  return results.map((r) => r.meta.changes);
}
