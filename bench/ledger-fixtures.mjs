// The usage ledger bench's state before the site starts (bench/ledger.mjs): the accounts in D1, the
// two measured ledgers filled through the app's own UsageLedger.ingest, and the consumer's queue
// handler measured alone. A small Worker (bench/ledger-harness.js) on Miniflare under the site
// Worker's name opens the same Durable Object files the served Worker will.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { importAppModule, readDevVars } from "../scripts/lib.mjs";
import { generateUsage, ledgerUsage } from "../scripts/usage-fixtures.mjs";
import {
  ACCOUNT_ZONE,
  HANDLER_BATCHES,
  HANDLER_MIX,
  INGEST_CALL,
  INGESTERS,
  LARGE,
  MIXERS,
  PASSWORD,
  REPETITIONS,
  reports,
  SMALL,
  USAGE_DAYS,
  DEVICES,
} from "./ledger-accounts.mjs";

/** The bench accounts' password (PASSWORD), hashed as the app hashes it. */
export async function benchPasswordHash() {
  const { hashSecret } = await importAppModule("app/lib/auth/password.ts");
  return hashSecret(PASSWORD);
}

/** A confirmed account and its profile in ACCOUNT_ZONE, for each of `accounts` ({ id, email }). */
export function accountStatements(db, accounts, hash, now) {
  return accounts.flatMap((u) => [
    db
      .prepare(
        "INSERT INTO users (id, email, password_hash, email_confirmed_at, role, metadata, created_at, updated_at) VALUES (?, ?, ?, ?, 'user', '{}', ?, ?)",
      )
      .bind(u.id, u.email, hash, now, now, now),
    db
      .prepare(
        "INSERT INTO user_profiles (id, user_id, email, first_name, last_name, timezone, created_at, updated_at) VALUES (?, ?, ?, 'Bench', 'User', ?, ?, ?)",
      )
      .bind(u.id, u.id, u.email, ACCOUNT_ZONE, now, now),
  ]);
}

async function insertUsers(db, now) {
  const statements = accountStatements(db, [LARGE, SMALL, ...MIXERS, ...HANDLER_MIX, ...INGESTERS], await benchPasswordHash(), now);
  // The mixing accounts watch their spend, as a real user would: the ledger decides budget alerts.
  for (const u of [...MIXERS, ...HANDLER_MIX]) {
    statements.push(
      db
        .prepare(
          "INSERT INTO budgets (user_id, monthly_budget, daily_budget, alert_threshold, notifications_enabled, updated_at) VALUES (?, 5000, 500, 80, 1, ?)",
        )
        .bind(u.id, now),
    );
  }
  await db.batch(statements);
}

/**
 * Fills `account`'s ledger with `account.rows` generated reports over the last USAGE_DAYS days,
 * INGEST_CALL a call (the next call's reports are generated while one is in the ledger).
 */
async function fillLedger(mf, { stateDir, workerName }, account, now) {
  const calls = Math.ceil(account.rows / INGEST_CALL);
  const make = (i) =>
    ledgerUsage(
      generateUsage({
        userId: account.id,
        days: USAGE_DAYS,
        count: Math.min(INGEST_CALL, account.rows - i * INGEST_CALL),
        now,
        seed: 7_000 + i,
        devices: DEVICES,
      }),
    );
  const callMs = [];
  let stored = 0;
  const started = performance.now();
  let next = make(0);
  for (let i = 0; i < calls; i++) {
    const sending = mf.dispatchFetch(`http://ledger/ingest?user=${account.id}`, {
      method: "POST",
      body: JSON.stringify({ usage: next, now, zone: ACCOUNT_ZONE }),
    });
    next = i + 1 < calls ? make(i + 1) : null;
    const response = await sending;
    if (!response.ok) throw new Error(`ledger ingest for ${account.id}: ${response.status} ${await response.text()}`);
    const r = await response.json();
    stored += r.stored;
    callMs.push(r.ms);
    if (calls >= 20 && (i + 1) % Math.ceil(calls / 10) === 0) {
      console.log(
        `  ${account.id}: ${(i + 1) * INGEST_CALL} reports in ${((performance.now() - started) / 1000).toFixed(0)} s (this call ${r.ms.toFixed(0)} ms in the ledger)`,
      );
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const size = await (await mf.dispatchFetch(`http://ledger/size?user=${account.id}`)).json();
  if (size.reports !== account.rows) throw new Error(`${account.id}'s ledger holds ${size.reports} reports, not ${account.rows}`);
  checkLedgerFile(stateDir, workerName, size, account.id);
  const tenth = Math.max(1, Math.floor(calls / 10));
  const mean = (values) => values.reduce((s, v) => s + v, 0) / values.length;
  return { rows: stored, calls, seconds, firstCallsMs: mean(callMs.slice(0, tenth)), lastCallsMs: mean(callMs.slice(-tenth)) };
}

/**
 * A Miniflare on `stateDir` (before workerd serves it) running bench/ledger-harness.js under the site
 * Worker's name, so the ledgers it writes are the files the served Worker opens, with the built
 * consumer bound beside it; `workerName`: that name, under which the ledgers' files lie. The caller
 * disposes of `mf`. The team bench (bench/teams.mjs) fills its team ledgers through it too.
 */
export async function openLedgerHarness(stateDir, buildDir) {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  const [{ build }, { Miniflare, convertV4MiniflareOptions }, { unstable_readConfig: readConfig }] = await Promise.all([
    import("esbuild"),
    import("miniflare"),
    import("wrangler"),
  ]);
  const config = readConfig({ config: "wrangler.toml" });
  const consumerConfig = JSON.parse(readFileSync(`${buildDir}/consumer/wrangler.json`, "utf8"));
  const database = config.d1_databases.find((d) => d.binding === "DB");
  const d1Databases = { DB: database.preview_database_id ?? database.database_id };
  const harness = resolve(".build/bench-ledger-harness/harness.mjs");
  await build({
    entryPoints: ["bench/ledger-harness.js"],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2023",
    external: ["cloudflare:*", "node:*"],
    tsconfig: "tsconfig.cloudflare.json",
    outfile: harness,
    logLevel: "warning",
  });
  const shared = { compatibilityDate: config.compatibility_date, compatibilityFlags: config.compatibility_flags, modules: true, d1Databases };
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      resourcePersistencePath: join(resolve(stateDir), "v3"),
      workers: [
        {
          ...shared,
          // The site Worker's name and class: the Durable Object namespace (and its files) is keyed by both.
          name: config.name,
          scriptPath: harness,
          durableObjects: { USAGE_LEDGER: { className: "UsageLedger", useSQLite: true } },
          r2Buckets: { BUCKET: config.r2_buckets.find((b) => b.binding === "BUCKET").bucket_name },
          serviceBindings: { CONSUMER: consumerConfig.name },
          // Fetcher.queue(), as the local queue broker calls a consumer.
          compatibilityFlags: [...config.compatibility_flags, "service_binding_extra_handlers"],
        },
        {
          // The built consumer, bound as wrangler.consumer.toml binds it.
          ...shared,
          name: consumerConfig.name,
          scriptPath: resolve(buildDir, "consumer", consumerConfig.main),
          bindings: { ...consumerConfig.vars, ...readDevVars(".dev.vars"), APP_ENV: "development" },
          durableObjects: { USAGE_LEDGER: { className: "UsageLedger", scriptName: config.name, useSQLite: true } },
          queueProducers: { EVENTS: { queueName: consumerConfig.queues.producers[0].queue } },
        },
      ],
    }),
  );
  return { mf, workerName: config.name };
}

/** The served Worker must find the ledger `size` describes (the harness's /size answer): its file, under the site Worker's name. */
export function checkLedgerFile(stateDir, workerName, size, label) {
  const file = join(stateDir, "v3/do", `${workerName}-UsageLedger`, `${size.id}.sqlite`);
  if (!existsSync(file)) throw new Error(`${label}'s ledger is not where wrangler dev will look for it (${file})`);
}

/**
 * Before workerd serves `stateDir`: the accounts in D1, the two measured ledgers filled, and the
 * consumer's queue handler measured alone (`out.fill`, `out.handler`).
 */
export async function fixtures(stateDir, { buildDir, now, out }) {
  const { mf, workerName } = await openLedgerHarness(stateDir, buildDir);
  try {
    await insertUsers(await mf.getD1Database("DB"), now);
    console.log(
      `Filling one ledger with ${LARGE.rows.toLocaleString("en-US")} reports over ${USAGE_DAYS} days, ${INGEST_CALL.toLocaleString("en-US")} a call...`,
    );
    const where = { stateDir, workerName };
    out.fill = { large: await fillLedger(mf, where, LARGE, now), small: await fillLedger(mf, where, SMALL, now) };
    console.log("The consumer's queue handler alone...");
    out.handler = await handlerAlone(mf);
  } finally {
    await mf.dispose();
  }
}

/** A queue batch of 100 usage messages from `accounts` in turn, as the API enqueues them. */
function mixedBatch(accounts, now) {
  return reports(100).map((report, i) => ({
    type: "usage.report",
    userId: accounts[i % accounts.length].id,
    receivedAt: now,
    report: { ...report, request_type: "chat", occurred_at: now },
  }));
}

/**
 * Figure 2 without the API and the local queue: the built consumer's queue handler on batches of
 * 100 messages mixing 5 accounts, one batch after another, in the same workerd as D1 and the
 * ledgers; a warm-up, then REPETITIONS runs of HANDLER_BATCHES batches.
 */
async function handlerAlone(mf) {
  const consume = async (batches) => {
    const r = await mf.dispatchFetch("http://ledger/consume", { method: "POST", body: JSON.stringify({ batches }) });
    if (!r.ok) throw new Error(`the consumer harness answered ${r.status}: ${await r.text()}`);
    return r.json();
  };
  await consume(Array.from({ length: 20 }, () => mixedBatch(HANDLER_MIX, Date.now())));
  const runs = [];
  for (let rep = 0; rep < REPETITIONS; rep++) {
    const batches = Array.from({ length: HANDLER_BATCHES }, () => mixedBatch(HANDLER_MIX, Date.now()));
    const { acked, ms } = await consume(batches);
    if (acked !== HANDLER_BATCHES * 100) throw new Error(`the consumer acknowledged ${acked} of ${HANDLER_BATCHES * 100} messages`);
    runs.push({ rows: acked, seconds: ms / 1000, rowsPerSecond: acked / (ms / 1000) });
  }
  let stored = 0;
  for (const a of HANDLER_MIX) stored += (await (await mf.dispatchFetch(`http://ledger/size?user=${a.id}`)).json()).reports;
  const expected = (20 + REPETITIONS * HANDLER_BATCHES) * 20 * HANDLER_MIX.length;
  if (stored !== expected) throw new Error(`the handler's accounts hold ${stored} reports in their ledgers, not ${expected}`);
  return runs;
}
