// The test site's D1 database, read straight from its SQLite file (read-only): what the site
// stored, seen without going through the site.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

/** The one D1 database file under `<stateDir>/v3/d1` (the one holding the migrations table); by default this worker's site's (fixtures.ts). */
export function findDatabase(stateDir = process.env.STATE_DIR): string {
  if (!stateDir) throw new Error("No test site state: STATE_DIR is set by the worker's site (tests/e2e/fixtures.ts)");
  const root = join(stateDir, "v3", "d1");
  if (!existsSync(root)) throw new Error(`No local D1 state under ${root} (STATE_DIR=${stateDir})`);
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".sqlite")) files.push(path);
    }
  };
  walk(root);
  const databases = files.filter((file) => {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'd1_migrations'").get() !== undefined;
    } finally {
      db.close();
    }
  });
  if (databases.length !== 1) throw new Error(`Expected one D1 database under ${root}, found: ${databases.join(", ") || "none"}`);
  return databases[0]!;
}

/** One read-only query against this worker's site's database. */
export function queryLocalD1<T>(sql: string, ...params: Array<string | number>): T[] {
  return queryD1In<T>(undefined, sql, ...params);
}

/** One read-only query against the database of the site whose state is in `stateDir` (default: this worker's). */
export function queryD1In<T>(stateDir: string | undefined, sql: string, ...params: Array<string | number>): T[] {
  const db = new DatabaseSync(findDatabase(stateDir), { readOnly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/**
 * One write to this worker's site's database, for a test's setup that no page makes yet (a team of
 * issue 50 before its pages existed in this branch). SQLite serialises it with the site's writes.
 */
export function writeLocalD1(sql: string, ...params: Array<string | number>): void {
  const db = new DatabaseSync(findDatabase());
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}
