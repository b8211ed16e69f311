// `npm run bench`: speed and size of usage reporting and of the dashboard, measured side by side
// in one run on the local runtime (workerd), written to bench/results.md.
//   1. /api/v1/usage requests per second against /api/v1/health (an empty route): the ratio.
//   2. The consumer: reports stored in D1 per second, through the real queue.
//   3. The overview page for a user with 100 usage rows and one with 100,000: time and D1 statements.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { buildDirFor, buildSite, hashSecret, run, sqlString } from "../scripts/lib.mjs";
import { serveTestSite } from "../scripts/serve-test-site.mjs";
import { generateUsage, usageSql } from "../scripts/usage-fixtures.mjs";

const PASSWORD = "Bench-Pass-2026";
const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 8) * 1000;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const SENDERS = 20; // accounts: each has its own 1,000 requests/minute allowance
const SMALL = { id: "bench-small-0000-4000-8000-000000000100", email: "bench-100@modelify.dev", rows: 100 };
const LARGE = { id: "bench-large-0000-4000-8000-000000100000", email: "bench-100k@modelify.dev", rows: 100_000 };
const senders = Array.from({ length: SENDERS }, (_, i) => ({ id: `bench-sender-${String(i).padStart(2, "0")}`, email: `bench-sender-${i}@modelify.dev` }));

function usersSql(now) {
  const hash = hashSecret(PASSWORD);
  return [SMALL, LARGE, ...senders]
    .map((u) =>
      [
        `INSERT INTO users (id, email, password_hash, email_confirmed_at, role, metadata, created_at, updated_at) VALUES (${[u.id, u.email, hash, now, "user", "{}", now, now].map(sqlString).join(", ")});`,
        `INSERT INTO user_profiles (id, user_id, email, first_name, last_name, timezone, created_at, updated_at) VALUES (${[u.id, u.id, u.email, "Bench", "User", "UTC", now, now].map(sqlString).join(", ")});`,
      ].join("\n"),
    )
    .join("\n");
}

async function fixtures(stateDir) {
  const now = Date.now();
  mkdirSync(".wrangler", { recursive: true });
  const file = ".wrangler/bench-fixtures.sql";
  const parts = [usersSql(now), usageSql(generateUsage({ userId: SMALL.id, days: 60, count: SMALL.rows, now, seed: 1 }), "bench-small")];
  // 100,000 rows in slices, so no single file is huge.
  writeFileSync(file, parts.join("\n"));
  await run("wrangler", ["d1", "execute", "DB", "--local", "--persist-to", stateDir, "--file", file], { stdio: ["ignore", "ignore", "inherit"] });
  const all = generateUsage({ userId: LARGE.id, days: 60, count: LARGE.rows, now, seed: 2 });
  for (let i = 0; i < all.length; i += 25_000) {
    writeFileSync(file, usageSql(all.slice(i, i + 25_000), `bench-large-${i}`));
    await run("wrangler", ["d1", "execute", "DB", "--local", "--persist-to", stateDir, "--file", file], { stdio: ["ignore", "ignore", "inherit"] });
  }
}

// The local server closes idle keep-alive sockets after 5 s; a request that lands on one just
// as it closes fails with "other side closed". Such a request is simply sent again.
async function fetchRetry(url, init, attempts = 3) {
  for (let i = 1; ; i++) {
    try {
      return await fetch(url, init);
    } catch (error) {
      if (i >= attempts) throw error;
    }
  }
}

async function token(base, email) {
  const r = await fetchRetry(`${base}/api/v1/auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": "198.51.100.200" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!r.ok) throw new Error(`token for ${email}: ${r.status} ${await r.text()}`);
  return (await r.json()).access_token;
}

/** Sends requests from `concurrency` loops for `ms`; returns completed count and status tally. */
async function load(makeRequest, { ms = DURATION_MS, concurrency = CONCURRENCY } = {}) {
  const deadline = performance.now() + ms;
  const statuses = {};
  let done = 0;
  let i = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        try {
          const response = await makeRequest(i++);
          await response.arrayBuffer();
          statuses[response.status] = (statuses[response.status] ?? 0) + 1;
          done++;
        } catch {
          // A connection the local server closed under load: counted, not fatal.
          statuses.network_error = (statuses.network_error ?? 0) + 1;
        }
      }
    }),
  );
  return { perSecond: done / ((performance.now() - started) / 1000), statuses, done };
}

function report() {
  return {
    report_id: crypto.randomUUID(),
    model_name: "gpt-4o-mini",
    model_provider: "openai",
    tokens_used: 1200,
    tokens_input: 900,
    tokens_output: 300,
    cost_usd: 0.0004,
    request_duration_ms: 850,
    success: true,
    metadata: { conversation_id: "bench" },
  };
}

function d1Count(stateDir, sql) {
  const out = execFileSync("npx", ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", stateDir, "--json", "--command", sql], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  return Number(Object.values(JSON.parse(out)[0].results[0])[0]);
}

async function timePage(base, accessToken, path, runs = 25) {
  const times = [];
  let statements = null;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const r = await fetchRetry(`${base}${path}`, { headers: { Cookie: `mfy_access=${accessToken}` }, redirect: "manual" });
    await r.text();
    if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
    times.push(performance.now() - t);
    const timing = r.headers.get("Server-Timing") ?? "";
    statements = Number(/d1;desc="statements";dur=(\d+)/.exec(timing)?.[1] ?? NaN);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], p90: times[Math.floor(times.length * 0.9)], statements };
}

const stateDir = ".wrangler/bench-state";
console.log("Building and preparing fixtures (100,000 usage rows take a minute)...");
const buildDir = buildDirFor("bench");
await buildSite(buildDir, { stdio: ["ignore", "ignore", "inherit"] });
const site = await serveTestSite({ buildDir, stateDir, beforeStart: fixtures });
const base = site.baseUrl;
try {
  const tokens = await Promise.all(senders.map((s) => token(base, s.email)));

  console.log("1. ingestion against the empty route");
  // 1. Ingestion against the empty route, side by side.
  await load(() => fetch(`${base}/api/v1/health`), { ms: 1500 }); // warm-up
  const health = await load(() => fetch(`${base}/api/v1/health`));
  const single = await load((i) =>
    fetch(`${base}/api/v1/usage`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${tokens[i % tokens.length]}` },
      body: JSON.stringify(report()),
    }),
  );
  const batchStart = performance.now();
  const batched = await load((i) =>
    fetch(`${base}/api/v1/usage`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${tokens[(i + 7) % tokens.length]}` },
      body: JSON.stringify({ reports: Array.from({ length: 100 }, report) }),
    }),
  );
  const accepted = (single.statuses[202] ?? 0) + (batched.statuses[202] ?? 0) * 100;

  console.log("2. waiting for the consumer");
  // 2. Consumer: time until every accepted report is in D1.
  const senderIds = senders.map((s) => sqlString(s.id)).join(", ");
  let stored = 0;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    stored = d1Count(stateDir, `SELECT count(*) FROM model_usage WHERE user_id IN (${senderIds})`);
    if (stored >= accepted) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const consumerSeconds = (performance.now() - batchStart) / 1000;
  const aggregated = d1Count(stateDir, `SELECT coalesce(sum(total_requests), 0) FROM daily_usage_summary WHERE user_id IN (${senderIds})`);

  console.log("3. dashboard pages");
  // 3. The overview for 100 rows against 100,000 rows.
  const [smallToken, largeToken] = await Promise.all([token(base, SMALL.email), token(base, LARGE.email)]);
  const rows = {
    small: d1Count(stateDir, `SELECT count(*) FROM model_usage WHERE user_id = '${SMALL.id}'`),
    large: d1Count(stateDir, `SELECT count(*) FROM model_usage WHERE user_id = '${LARGE.id}'`),
  };
  await timePage(base, smallToken, "/dashboard", 5); // warm-up
  const overviewSmall = await timePage(base, smallToken, "/dashboard");
  const overviewLarge = await timePage(base, largeToken, "/dashboard");
  const usageSmall = await timePage(base, smallToken, "/dashboard?tab=usage&range=30d");
  const usageLarge = await timePage(base, largeToken, "/dashboard?tab=usage&range=30d");

  const f = (n, d = 0) => n.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });
  const md = `# Benchmarks

Run with \`npm run bench\` on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, Node ${process.version}, local workerd
(the production build on \`wrangler dev\`), ${CONCURRENCY} concurrent clients, ${DURATION_MS / 1000} s per load test. Everything below ran in this one process, side by side.

## 1. Usage ingestion against an empty Worker route

| route | requests/s | reports/s | statuses |
|---|---:|---:|---|
| \`GET /api/v1/health\` (empty baseline) | ${f(health.perSecond)} | – | ${JSON.stringify(health.statuses)} |
| \`POST /api/v1/usage\`, 1 report | ${f(single.perSecond)} | ${f(single.perSecond)} | ${JSON.stringify(single.statuses)} |
| \`POST /api/v1/usage\`, batch of 100 | ${f(batched.perSecond)} | ${f(batched.perSecond * 100)} | ${JSON.stringify(batched.statuses)} |

**Ratio:** a single-report request runs at **${f(single.perSecond / health.perSecond, 2)}×** the empty route's rate
(it authenticates the bearer token against D1, applies the rate limit, validates and enqueues);
batches of 100 accept **${f((batched.perSecond * 100) / health.perSecond, 1)}×** as many reports per second as the empty route serves requests.

## 2. Consumer into D1

${f(accepted)} reports accepted; ${f(stored)} raw rows stored and ${f(aggregated)} requests aggregated (count in = count stored: **${stored === accepted && aggregated === accepted ? "yes" : "NO"}**)
within ${f(consumerSeconds, 1)} s of the first batch: **${f(stored / consumerSeconds)} rows/s** through the queue, including the daily, hourly and conversation aggregates.

## 3. Dashboard cost against the number of raw rows

| page | user with ${f(rows.small)} rows | user with ${f(rows.large)} rows |
|---|---:|---:|
| overview: median / p90 ms | ${f(overviewSmall.median, 1)} / ${f(overviewSmall.p90, 1)} | ${f(overviewLarge.median, 1)} / ${f(overviewLarge.p90, 1)} |
| overview: D1 statements | ${overviewSmall.statements} | ${overviewLarge.statements} |
| usage tab (30 days): median / p90 ms | ${f(usageSmall.median, 1)} / ${f(usageSmall.p90, 1)} | ${f(usageLarge.median, 1)} / ${f(usageLarge.p90, 1)} |
| usage tab: D1 statements | ${usageSmall.statements} | ${usageLarge.statements} |

The pages read the daily and hourly aggregates (at most days × models rows) and the 10 most recent
raw rows through the \`(user_id, occurred_at)\` index, so the statement count is the same and the
time does not grow with the number of raw rows (ratio large/small: ${f(overviewLarge.median / overviewSmall.median, 2)}×).
Statements are counted by the Worker and reported in the \`Server-Timing\` header.
`;
  writeFileSync("bench/results.md", md);
  console.log(md);
} finally {
  await site.stop();
}
