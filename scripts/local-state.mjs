// The local D1 and R2 state `npm start`, `npm run dev` and the test sites serve: D1 migrations,
// the demo accounts (scripts/seed.mjs) and the demo installer builds (scripts/release-publish.mjs),
// set up in this one process on one Miniflare (workerd) instance, instead of a wrangler process per
// step. Miniflare opens the same files `wrangler dev --persist-to <stateDir>` does
// (<stateDir>/v3/d1 and v3/r2, keyed by the database id and bucket name of wrangler.toml), and
// migrations are recorded in the table `wrangler d1 migrations apply` keeps, so wrangler sees them
// as applied. What is already there is left alone: a second start only looks.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { DEMO_VERSION, bindingTarget, publishDemoBuilds } from "./release-publish.mjs";
import { DEMO_USERS, seedSql } from "./seed.mjs";

/** Migration files in wrangler's order (its default `*.sql` pattern): by leading number, then by name. */
export function migrationFiles(dir) {
  const number = (name) => Number.parseInt(name.split("_")[0], 10);
  const order = (a, b) => {
    const [x, y] = [number(a), number(b)];
    if (x !== y && (Number.isFinite(x) || Number.isFinite(y))) return !Number.isFinite(y) ? -1 : !Number.isFinite(x) ? 1 : x - y;
    return a < b ? -1 : a > b ? 1 : 0;
  };
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".sql"))
    .map((entry) => entry.name)
    .sort(order);
}

const escapeId = (id) => `"${id.replace(/"/g, '""')}"`;

/**
 * Applies what is missing to the local state in `stateDir` (default .wrangler/state, as `npm start`
 * serves it). Resolves to a one-line summary of what it did.
 * @param {{ stateDir?: string, config?: string }} [options]
 */
export async function prepareLocalState({ stateDir = ".wrangler/state", config = "wrangler.toml" } = {}) {
  const started = performance.now();
  // wrangler's own config reader and SQL splitter (the ones `wrangler d1 execute` uses), and the
  // Miniflare it runs on. No request.cf download: there is no internet here.
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  const [{ unstable_readConfig: readConfig, unstable_splitSqlQuery: splitSql }, { Miniflare, convertV4MiniflareOptions }] = await Promise.all([
    import("wrangler"),
    import("miniflare"),
  ]);
  const wranglerConfig = readConfig({ config });
  const database = wranglerConfig.d1_databases.find((d) => d.binding === "DB");
  const bucketConfig = wranglerConfig.r2_buckets.find((b) => b.binding === "BUCKET");
  // The ids wrangler dev gives local D1 (a preview id first) and R2 (the bucket name).
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: "export default {}",
      resourcePersistencePath: join(resolve(stateDir), "v3"),
      d1Databases: { DB: database.preview_database_id ?? database.database_id },
      r2Buckets: { BUCKET: bucketConfig.bucket_name },
    }),
  );
  const done = [];
  try {
    const db = await mf.getD1Database("DB");
    const bucket = await mf.getR2Bucket("BUCKET");
    const batch = (sql) => db.batch(splitSql(sql).map((statement) => db.prepare(statement)));

    // Migrations, as `wrangler d1 migrations apply DB --local` applies them: the same table, each
    // migration with its row in one batch (one transaction), so a failed one leaves nothing behind.
    const table = escapeId(database.migrations_table ?? "d1_migrations");
    const migrationsDir = resolve(database.migrations_dir ?? "migrations");
    await db
      .prepare(`CREATE TABLE IF NOT EXISTS ${table}(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`)
      .run();
    const applied = new Set((await db.prepare(`SELECT name FROM ${table} ORDER BY id`).all()).results.map((r) => r.name));
    const pending = migrationFiles(migrationsDir).filter((name) => !applied.has(name));
    for (const name of pending) {
      const migration = readFileSync(join(migrationsDir, name), "utf8");
      await batch(`${migration}\nINSERT INTO ${table} (name)\nvalues ('${name.replace(/'/g, "''")}');`);
    }
    done.push(pending.length ? `${pending.length} migration${pending.length === 1 ? "" : "s"} applied` : "migrations up to date");

    // The demo accounts and their usage history, unless both accounts are there.
    const emails = DEMO_USERS.map((u) => u.email);
    const present =
      (await db
        .prepare(`SELECT count(*) AS n FROM users WHERE email IN (${emails.map(() => "?").join(", ")})`)
        .bind(...emails)
        .first("n")) ?? 0;
    if (present < DEMO_USERS.length) {
      await batch(seedSql());
      done.push(`seeded ${emails.join(", ")}`);
    } else done.push("demo accounts present");

    // Demo installers for the download options that have none.
    const published = await publishDemoBuilds(bindingTarget({ db, bucket }));
    done.push(published.length ? `${published.length} demo builds (${DEMO_VERSION}) published` : "demo builds present");
  } finally {
    await mf.dispose();
  }
  return `Local state (${stateDir}): ${done.join(", ")} in ${((performance.now() - started) / 1000).toFixed(1)} s`;
}
