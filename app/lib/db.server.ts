import { drizzle } from "drizzle-orm/d1";
import * as schema from "~drizzle/schema";

export type Db = ReturnType<typeof createDb>;

function createDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

// Building drizzle's relational config from the schema is most of the cost of a small request:
// one instance per D1 binding (per isolate) is enough.
const instances = new WeakMap<D1Database, Db>();

export function getDb(d1: D1Database): Db {
  let db = instances.get(d1);
  if (!db) {
    db = createDb(d1);
    instances.set(d1, db);
  }
  return db;
}

/**
 * Splits rows (or ids) into groups for one statement each: D1 binds at most 100 parameters per
 * statement, so a multi-row INSERT or an `IN (…)` takes as many as fit.
 */
export function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export { schema };
