// The first section of bench/results.md ("load"): single usage reports' requests/s against an empty
// route, the D1 statements of the demo account's dashboard pages, Lighthouse on four pages served
// compressed, and the JavaScript of `/auth` and `/dashboard` against a bare React Router page.
// `npm run bench -- --only load` runs it alone (it builds first); a whole `npm run bench` runs it
// first, on the build the other parts share.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { buildDirFor, buildSite, importAppModule, run, sqlString } from "../scripts/lib.mjs";
import { floorJsBytes, readClientManifest, routeChain, routeJsBytes } from "../scripts/bundle-size.mjs";
import { startCompressingProxy } from "../scripts/compressing-proxy.mjs";
import { signInCookie } from "../scripts/lighthouse.mjs";
import { lighthouseScores } from "../scripts/lighthouse-runner.mjs";
import { serveTestSite } from "../scripts/serve-test-site.mjs";
import { CONCURRENCY, DURATION_MS, fetchRetry, paired, SLICES } from "./load.mjs";
import { REQUEST_LINES_LOG_LEVEL, requestIdOf, requestLines } from "./log-lines.mjs";
import { f, met, stats, three } from "./report.mjs";

const REPETITIONS = Number(process.env.BENCH_REPETITIONS ?? 3);
const PASSWORD = "Bench-Pass-2026";

// Single reports come from 20 accounts, so no account reaches its 1,000 requests a minute.
const senders = Array.from({ length: 20 }, (_, i) => ({ id: `bench-sender-${String(i).padStart(2, "0")}`, email: `bench-sender-${i}@modelify.dev` }));
const LIGHTHOUSE_PAGES = ["/", "/pricing", "/auth", "/dashboard"];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];

// ---------------------------------------------------------------------------------------------
// Fixtures

async function usersSql(now) {
  const { hashSecret } = await importAppModule("app/lib/auth/password.ts");
  const hash = await hashSecret(PASSWORD);
  const lines = [];
  for (const u of senders) {
    lines.push(
      `INSERT INTO users (id, email, password_hash, email_confirmed_at, role, metadata, created_at, updated_at) VALUES (${[u.id, u.email, hash, now, "user", "{}", now, now].map(sqlString).join(", ")});`,
      `INSERT INTO user_profiles (id, user_id, email, first_name, last_name, timezone, created_at, updated_at) VALUES (${[u.id, u.id, u.email, "Bench", "User", "UTC", now, now].map(sqlString).join(", ")});`,
    );
  }
  return lines.join("\n");
}

/** The single-report senders' accounts, in D1 before workerd opens it. */
async function fixtures(stateDir) {
  mkdirSync(".wrangler", { recursive: true });
  const file = ".wrangler/bench-fixtures.sql";
  writeFileSync(file, await usersSql(Date.now()));
  await run("wrangler", ["d1", "execute", "DB", "--local", "--persist-to", stateDir, "--file", file], { stdio: ["ignore", "ignore", "inherit"] });
}

// ---------------------------------------------------------------------------------------------
// Load

async function token(base, email) {
  const r = await fetchRetry(`${base}/api/v1/auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": "198.51.100.200" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!r.ok) throw new Error(`token for ${email}: ${r.status} ${await r.text()}`);
  return (await r.json()).access_token;
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

const postUsage = (base, accessToken, body) =>
  fetch(`${base}/api/v1/usage`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${accessToken}` },
    body: JSON.stringify(body),
  });

// ---------------------------------------------------------------------------------------------
// Figures

/** Single reports against the empty route, back to back. */
async function ingestion(base, tokens) {
  const [health, single] = await paired(
    () => fetch(`${base}/api/v1/health`),
    (i) => postUsage(base, tokens[i % tokens.length], report()),
  );
  return { health, single, ratio: single.perSecond / health.perSecond };
}

/** The D1 statements of a signed-in page view, as its request line counts them. */
async function pageStatements(site, cookie, path) {
  const r = await fetchRetry(`${site.baseUrl}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
  await r.text();
  if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
  const [line] = await requestLines(site, [requestIdOf(r)]);
  return Number(line.d1Statements);
}

/**
 * The D1 statements of the demo account's overview and usage tab, each repetition with a fresh
 * sign-in, on a site of their own served at REQUEST_LINES_LOG_LEVEL, which prints the Workers' lines.
 * Printing every line (each usage report's and the consumer's too) weighs on the load figures: side
 * by side with a site served without, single reports' requests/s came out at 0.96x and 0.78x of its
 * (the empty route's at 1.03x and 1.08x), two runs on a busy 2-core machine.
 */
async function countStatements(buildDir) {
  const site = await serveTestSite({ buildDir, stateDir: ".wrangler/bench-statements-state", logLevel: REQUEST_LINES_LOG_LEVEL });
  try {
    const counts = [];
    for (let rep = 1; rep <= REPETITIONS; rep++) {
      const demo = await signInCookie(site.baseUrl);
      counts.push({ overview: await pageStatements(site, demo, "/dashboard"), usage: await pageStatements(site, demo, "/dashboard/usage?range=30d") });
    }
    return counts;
  } finally {
    await site.stop();
  }
}

/** One repetition: the usage ratio and Lighthouse on LIGHTHOUSE_PAGES. */
async function repetition(site, proxy, tokens) {
  const r = {};
  r.ingestion = await ingestion(site.baseUrl, tokens);
  // `/dashboard` as the seeded demo account, with a fresh session (its access token lasts 15 minutes).
  const demo = await signInCookie(site.baseUrl);
  const audits = await lighthouseScores({ baseUrl: proxy.url, paths: LIGHTHOUSE_PAGES, cookie: demo, chromeFlags: proxy.chromeFlags });
  r.lighthouse = Object.fromEntries(audits.map((a) => [a.path, a.scores]));
  return r;
}

// ---------------------------------------------------------------------------------------------
// The report

/** The table of goals: each figure, its goal, min / median / max over `runs`, and whether it is met. */
function goalRows(runs, js, floor) {
  const lighthouseCell = (path) =>
    CATEGORIES.map((c) => {
      const { min, max } = stats(runs.map((r) => r.lighthouse[path][c]));
      return min === max ? String(min) : `${min}–${max}`;
    });
  const allLighthouse = runs.flatMap((r) => LIGHTHOUSE_PAGES.flatMap((p) => CATEGORIES.map((c) => r.lighthouse[p][c])));
  const ratioAuth = js.auth / floor;
  const ratioDashboard = js.dashboard / floor;
  const statementsMax = Math.max(...runs.flatMap((r) => [r.statements.overview, r.statements.usage]));
  const min = (values) => Math.min(...values);
  return [
    [
      "single-report `POST /api/v1/usage` requests/s ÷ `GET /api/v1/health`",
      "≥ 0.7x",
      three(
        runs.map((r) => r.ingestion.ratio),
        2,
      ),
      met(min(runs.map((r) => r.ingestion.ratio)) >= 0.7),
    ],
    [
      "D1 statements per dashboard page (overview, usage)",
      "≤ 6",
      `${three(runs.map((r) => r.statements.overview))} and ${three(runs.map((r) => r.statements.usage))}`,
      met(statementsMax <= 6),
    ],
    [
      "Lighthouse mobile (performance / accessibility / best practices / SEO), served compressed",
      "100 on all four",
      LIGHTHOUSE_PAGES.map((p) => `\`${p}\` ${lighthouseCell(p).join("/")}`).join(", "),
      met(allLighthouse.every((s) => s === 100)),
    ],
    [
      `JavaScript on \`/auth\` and \`/dashboard\` ÷ a bare React Router page (${f(floor / 1024, 1)} KiB gzip)`,
      "≤ 1.25x",
      `${f(ratioAuth, 2)} and ${f(ratioDashboard, 2)} (${f(js.auth / 1024, 1)} and ${f(js.dashboard / 1024, 1)} KiB)`,
      met(ratioAuth <= 1.25 && ratioDashboard <= 1.25),
    ],
  ];
}

/** The section's markdown. */
function loadSection(runs, js, floor) {
  const detail = (label, pick, d = 0) => `| ${label} | ${runs.map((r) => f(pick(r), d)).join(" | ")} |`;
  return `# Benchmarks

\`npm run bench\` (alone: \`npm run bench -- --only load\`) on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, Node ${process.version}.
The production build on \`wrangler dev\` (local workerd, D1, Queue), as \`npm start\` serves it, on a port and state of its own.
${REPETITIONS} repetitions; each figure below is min / median / max, every ratio taken side by side within one repetition
(${CONCURRENCY} concurrent clients, ${DURATION_MS / 1000} s per load test; the two sides of a ratio alternate in ${SLICES} slices of
${DURATION_MS / SLICES / 1000} s each, so a slow moment of the machine falls on both).

| figure | goal | measured (min / median / max) | met |
|---|---|---|---|
${goalRows(runs, js, floor)
  .map((r) => `| ${r.join(" | ")} |`)
  .join("\n")}

## Each repetition

| | ${runs.map((_, i) => `#${i + 1}`).join(" | ")} |
|---|${runs.map(() => "---:").join("|")}|
${detail("`GET /api/v1/health` requests/s", (r) => r.ingestion.health.perSecond)}
${detail("single-report `POST /api/v1/usage` requests/s", (r) => r.ingestion.single.perSecond)}
${detail("ratio", (r) => r.ingestion.ratio, 2)}

Statuses of the single reports: ${runs.map((r) => JSON.stringify(r.ingestion.single.statuses)).join(", ")}.

## How

- **Usage:** 20 accounts' desktop tokens in turn (none reaches its 1,000 requests a minute), one report per request,
  alternating with the same clients hitting \`/api/v1/health\` (a route that does nothing).
- **Statements:** counted by the Worker and written in each request's log line (\`d1Statements\`), read from the site's output
  by the answer's \`X-Request-Id\` (bench/log-lines.mjs), on the demo account's pages (usage itself is read from the account's
  ledger, not from D1), after a fresh sign-in per repetition. They are counted on a site of their own, served at wrangler's log
  level \`log\`, which prints the Workers' lines: printing every line weighs on the load figures. The consumer, and the pages
  against the size of a ledger: the "Usage ledger" section (bench/ledger.mjs).
- **Lighthouse:** \`npm run lighthouse\`'s code (scripts/lighthouse-runner.mjs): mobile, default throttling, Debian's Chromium,
  through a proxy that compresses (brotli or gzip) and speaks HTTP/2, as the edge does (scripts/compressing-proxy.mjs);
  \`/dashboard\` signed in as the demo account.
- **JavaScript:** gzip (level 9) of every script a page loads before it hydrates (the entry, each matched route's module
  and imports; scripts/bundle-size.mjs), against the page of React Router's default template built with the same
  versions (bench/floor). Sizes do not vary between repetitions.

The pages' requests/s (each against a static file, and against React Router's Cloudflare template): the "Pages" section (bench/pages.mjs).
`;
}

/**
 * Builds (unless `buildDir` holds a build already made by the caller), serves and measures;
 * resolves to the markdown of the section.
 * @param {{ buildDir?: string }} [options]
 */
export async function benchLoad({ buildDir } = {}) {
  if (!buildDir) {
    buildDir = buildDirFor("bench");
    console.log("Building the site...");
    await buildSite(buildDir, { stdio: ["ignore", "ignore", "inherit"] });
  }
  console.log("Building the baseline page, preparing fixtures...");
  const floor = floorJsBytes();
  const site = await serveTestSite({ buildDir, stateDir: ".wrangler/bench-state", beforeStart: fixtures });
  const proxy = await startCompressingProxy(site.baseUrl, { http2: true });
  const runs = [];
  try {
    const tokens = await Promise.all(senders.map((s) => token(site.baseUrl, s.email)));
    // Warm-up: every figure's work once, so no repetition pays for the first compile. The usage
    // figure is run whole: after a 1.5 s warm-up the first repetition came out about 0.1 lower than
    // the other two in each of four runs.
    await ingestion(site.baseUrl, tokens);
    for (let rep = 1; rep <= REPETITIONS; rep++) {
      console.log(`Repetition ${rep} of ${REPETITIONS}`);
      const r = await repetition(site, proxy, tokens);
      runs.push(r);
      console.log(`  usage ${f(r.ingestion.ratio, 2)}x`);
    }
  } finally {
    await proxy.close();
    await site.stop();
  }
  console.log("The dashboard's D1 statements, on a site that prints its request lines...");
  for (const [i, counts] of (await countStatements(buildDir)).entries()) runs[i].statements = counts;
  console.log(`  statements ${runs.map((r) => `${r.statements.overview}/${r.statements.usage}`).join(", ")}`);
  const client = `${buildDir}/client`;
  const manifest = readClientManifest(client);
  const js = {
    auth: routeJsBytes(client, routeChain(manifest, "routes/auth/index")),
    dashboard: routeJsBytes(client, routeChain(manifest, "routes/dashboard/index")),
  };
  return loadSection(runs, js, floor);
}
