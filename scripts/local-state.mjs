// The local state `npm start`, `npm run dev` and the test sites serve: D1 migrations, the demo
// accounts (scripts/seed.mjs), the demo user's usage history in its usage ledger and the demo
// installer builds (scripts/release-publish.mjs), set up in this one process on one Miniflare
// (workerd) instance, instead of a wrangler process per step. Miniflare opens the same files
// `wrangler dev --persist-to <stateDir>` does (<stateDir>/v3/d1 and v3/r2, keyed by the database id
// and bucket name of wrangler.toml; v3/do/<worker name>-<class name>/<object id>.sqlite for the
// ledgers, so this instance runs the ledger class under the site Worker's name), and migrations
// are recorded in the table `wrangler d1 migrations apply` keeps, so wrangler sees them as applied.
// What is already there is left alone: a second start only looks.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { DEMO_VERSION, bindingTarget, publishDemoBuilds } from "./release-publish.mjs";
import { DEMO_USERS, demoTeamUsage, demoUsage, seedAccounts } from "./seed.mjs";
import { LEGACY_USAGE_DROP, moveLocalLegacyUsage } from "./local-usage-move.mjs";
import { bundleWorkerModule } from "./lib.mjs";

const LEDGER_BINDING = "USAGE_LEDGER";
const SEED_WORKER = "workers/local-seed.ts";

/**
 * workers/local-seed.ts (the demo accounts, the UsageLedger class and a handler that fills a ledger) as one ES module
 * for Miniflare, bundled with the esbuild wrangler installs: about 0.5 s (drizzle is most of it),
 * beside the other imports.
 */
function bundleSeedWorker() {
  return bundleWorkerModule(SEED_WORKER);
}

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
 * wrangler's own config reader and SQL splitter (the ones `wrangler d1 execute` uses), the
 * Miniflare it runs on, and the seed Worker. No request.cf download: there is no internet here.
 * wrangler is CommonJS: required, not import()ed, which would first parse its 15 MB bundle once
 * more to look for ESM syntax (about 0.25 s).
 */
async function loadTools() {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  const [
    { unstable_readConfig: readConfig, unstable_splitSqlQuery: splitSql, unstable_getDurableObjectClassNameToUseSQLiteMap: sqliteClasses },
    { Miniflare, convertV4MiniflareOptions },
    seedWorker,
  ] = await Promise.all([createRequire(import.meta.url)("wrangler"), import("miniflare"), bundleSeedWorker()]);
  return { readConfig, splitSql, sqliteClasses, Miniflare, convertV4MiniflareOptions, seedWorker };
}

/**
 * The bindings of `config` as wrangler dev keeps them in `stateDir`: its D1 database, the folder
 * of its ledgers, and the Miniflare options for a script (the seed Worker, or the mover of an old
 * state's usage).
 */
function localBindings({ readConfig, sqliteClasses, convertV4MiniflareOptions }, { stateDir, config }) {
  const wranglerConfig = readConfig({ config });
  const database = wranglerConfig.d1_databases.find((d) => d.binding === "DB");
  const bucketConfig = wranglerConfig.r2_buckets.find((b) => b.binding === "BUCKET");
  const ledgerClass = wranglerConfig.durable_objects.bindings.find((b) => b.name === LEDGER_BINDING)?.class_name;
  if (!ledgerClass) throw new Error(`${config} binds no ${LEDGER_BINDING} Durable Object`);
  // The ids wrangler dev gives local D1 (a preview id first) and R2 (the bucket name). The ledger
  // class runs under the site Worker's name: wrangler dev's Miniflare keys a Durable Object
  // namespace as "<worker name>-<class name>" (its storage folder, and the key idFromName derives
  // object ids from), so the objects written here are the ones the served site opens.
  const resourcePersistencePath = join(resolve(stateDir), "v3");
  const optionsFor = (script) =>
    convertV4MiniflareOptions({
      name: wranglerConfig.name,
      modules: true,
      script,
      compatibilityDate: wranglerConfig.compatibility_date,
      compatibilityFlags: wranglerConfig.compatibility_flags,
      resourcePersistencePath,
      d1Databases: { DB: database.preview_database_id ?? database.database_id },
      r2Buckets: { BUCKET: bucketConfig.bucket_name },
      durableObjects: { [LEDGER_BINDING]: { className: ledgerClass, useSQLite: sqliteClasses(wranglerConfig.migrations).get(ledgerClass) === true } },
    });
  return { database, ledgerFolder: join(resourcePersistencePath, "do", `${wranglerConfig.name}-${ledgerClass}`), optionsFor };
}

/**
 * Migrations, as `wrangler d1 migrations apply DB --local` applies them: the same table, each
 * migration with its row in one batch (one transaction), so a failed one leaves nothing behind.
 * `local` holds the instance and its D1 and R2 stubs, which are taken again if the mover ran
 * (setOptions poisons them). Returns what it did, a phrase each.
 */
async function applyMigrations(local, { splitSql, seedWorker }, { database, optionsFor }) {
  const done = [];
  const table = escapeId(database.migrations_table ?? "d1_migrations");
  const migrationsDir = resolve(database.migrations_dir ?? "migrations");
  await local.db
    .prepare(`CREATE TABLE IF NOT EXISTS ${table}(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`)
    .run();
  const applied = new Set((await local.db.prepare(`SELECT name FROM ${table} ORDER BY id`).all()).results.map((r) => r.name));
  const pending = migrationFiles(migrationsDir).filter((name) => !applied.has(name));
  for (const name of pending) {
    // An old local state's usage from before the usage ledger goes into its ledgers first, as
    // `npm run usage:move` does in production: the migration that drops it refuses until then.
    if (name === LEGACY_USAGE_DROP) {
      const moved = await moveLocalLegacyUsage({ mf: local.mf, db: local.db, optionsFor, restore: seedWorker });
      if (moved) {
        done.push(moved);
        [local.db, local.bucket] = [await local.mf.getD1Database("DB"), await local.mf.getR2Bucket("BUCKET")];
      }
    }
    const migration = readFileSync(join(migrationsDir, name), "utf8");
    const statements = splitSql(`${migration}\nINSERT INTO ${table} (name)\nvalues ('${name.replace(/'/g, "''")}');`);
    await local.db.batch(statements.map((statement) => local.db.prepare(statement)));
  }
  done.push(pending.length ? `${pending.length} migration${pending.length === 1 ? "" : "s"} applied` : "migrations up to date");
  return done;
}

/** The demo accounts, unless both are there. */
async function seedDemoAccounts({ mf, db }) {
  const emails = DEMO_USERS.map((u) => u.email);
  const present =
    (await db
      .prepare(`SELECT count(*) AS n FROM users WHERE email IN (${emails.map(() => "?").join(", ")})`)
      .bind(...emails)
      .first("n")) ?? 0;
  if (present >= DEMO_USERS.length) return "demo accounts present";
  await seedAccounts(mf);
  return `seeded ${emails.join(", ")}`;
}

/** The demo user's usage history, in its ledger, unless D1 already knows it reported (usage_accounts). */
async function seedDemoUsage({ mf, db }, { ledgerFolder }) {
  const now = Date.now();
  const demo = demoUsage(now);
  if (await db.prepare("SELECT 1 AS found FROM usage_accounts WHERE user_id = ?").bind(demo.userId).first("found")) return "demo usage present";
  const response = await mf.dispatchFetch("http://local-seed/", { method: "POST", body: JSON.stringify({ ...demo, now }) });
  if (!response.ok) throw new Error(`Seeding the demo user's usage ledger failed: ${response.status} ${await response.text()}`);
  const { id, stored, skipped } = await response.json();
  // What wrangler dev will open for this account. Fails loudly if the layout ever changes
  // instead of serving an empty dashboard (tests/e2e/demo-usage.test.ts checks it is read).
  const file = join(ledgerFolder, `${id}.sqlite`);
  if (!existsSync(file)) {
    throw new Error(`The demo user's usage ledger is not where wrangler dev looks for it (${file}): see ${SEED_WORKER} and scripts/local-state.mjs`);
  }
  return skipped ? "demo usage already in its ledger" : `${stored} demo usage reports in its ledger`;
}

/** The demo team's month (issue 50), in its members' ledgers and the team's, unless the team's ledger holds it. */
async function seedDemoTeamUsage({ mf }, { ledgerFolder }) {
  const now = Date.now();
  const response = await mf.dispatchFetch("http://local-seed/team-usage", { method: "POST", body: JSON.stringify({ ...demoTeamUsage(now), now }) });
  if (!response.ok) throw new Error(`Seeding the demo team's usage failed: ${response.status} ${await response.text()}`);
  const { id, stored, skipped } = await response.json();
  if (!existsSync(join(ledgerFolder, `${id}.sqlite`)))
    throw new Error(`The demo team's usage ledger is not where wrangler dev looks for it: see ${SEED_WORKER}`);
  return skipped ? "demo team usage present" : `${stored} demo team usage reports in its ledger`;
}

/**
 * Applies what is missing to the local state in `stateDir` (default .wrangler/state, as `npm start`
 * serves it). Resolves to a one-line summary of what it did.
 * @param {{ stateDir?: string, config?: string }} [options]
 */
export async function prepareLocalState({ stateDir = ".wrangler/state", config = "wrangler.toml" } = {}) {
  const started = performance.now();
  const tools = await loadTools();
  const bindings = localBindings(tools, { stateDir, config });
  const mf = new tools.Miniflare(bindings.optionsFor(tools.seedWorker));
  const done = [];
  try {
    const local = { mf, db: await mf.getD1Database("DB"), bucket: await mf.getR2Bucket("BUCKET") };
    done.push(...(await applyMigrations(local, tools, bindings)));
    done.push(await seedDemoAccounts(local));
    done.push(await seedDemoUsage(local, bindings));
    done.push(await seedDemoTeamUsage(local, bindings));
    // Demo installers for the download options that have none.
    const published = await publishDemoBuilds(bindingTarget({ db: local.db, bucket: local.bucket }));
    done.push(published.length ? `${published.length} demo builds (${DEMO_VERSION}) published` : "demo builds present");
  } finally {
    await mf.dispose();
  }
  return `Local state (${stateDir}): ${done.join(", ")} in ${((performance.now() - started) / 1000).toFixed(1)} s`;
}

/**
 * Applies the D1 migrations, the seed and the demo builds to the local state (default
 * .wrangler/state) in this process; skips what is already there. Prints and returns a one-line summary.
 */
export async function migrateAndSeed(persistTo) {
  const summary = await prepareLocalState(persistTo ? { stateDir: persistTo } : {});
  console.log(summary);
  return summary;
}

// `npm run seed [-- --persist-to DIR]`: the whole local state (as `npm run setup`), in .wrangler/state
// or DIR. Run from here, not from seed.mjs: this module imports seed.mjs, so a seed.mjs still
// evaluating its own top-level await as the entry point would wait on itself.
if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf("--persist-to");
  console.log(await prepareLocalState(at === -1 ? {} : { stateDir: process.argv[at + 1] }));
}
