// Issue 50's scale goal, measured side by side in one run on the production build served by wrangler
// dev (as `npm start` serves it), on a port and state of its own: each page of a team with 1,000
// members ÷ the same page of a team with 10, both teams owned by the signed-in bench account and
// holding the same usage (TEAM_REPORTS reports over TEAM_DAYS days, spread over their members, 8
// models, two devices a member). Goal: ≤ 1.2x, the usage tab's budget (bench/ledger.mjs).
// `npm run bench -- --only teams` runs this alone (it builds first); a whole `npm run bench` runs it
// after the ledger figures, on the same build. It writes the "teams" section of bench/results.md.
//
// The state is written before the site starts: the accounts, teams and memberships in D1, and each
// team's ledger (the UsageLedger named `team:<id>`, ADR 0038) filled through the consumer's own team
// ingest on Miniflare (bench/ledger-harness.js), as the consumer fills it from the queue.
import os from "node:os";
import { buildDirFor, buildSite } from "../scripts/lib.mjs";
import { signInCookie } from "../scripts/lighthouse.mjs";
import { serveTestSite } from "../scripts/serve-test-site.mjs";
import { generateUsage, queuedUsage } from "../scripts/usage-fixtures.mjs";
import { ACCOUNT_ZONE, INGEST_CALL, PAGE_REQUESTS, PASSWORD, REPETITIONS } from "./ledger-accounts.mjs";
import { p50, pageMs } from "./ledger-figures.mjs";
import { accountStatements, benchPasswordHash, checkLedgerFile, openLedgerHarness } from "./ledger-fixtures.mjs";
import { REQUEST_LINES_LOG_LEVEL, requestIdOf, requestLines } from "./log-lines.mjs";
import { fetchRetry } from "./load.mjs";
import { groupEnded } from "./proc.mjs";
import { f, met, three } from "./report.mjs";

const STATE_DIR = ".wrangler/bench-teams-state";
const TEAM_DAYS = 30;
const TEAM_REPORTS = Number(process.env.BENCH_TEAM_REPORTS ?? 100_000);
const OWNER = { id: "bench-teams-owner", email: "bench-teams-owner@modelify.dev" };
const OWNER_LOGIN = { email: OWNER.email, password: PASSWORD };
// Both teams are the owner's; about one member in fifty is an admin.
const TEAMS_BENCHED = [
  { size: "small", id: "bench-team-of-10", slug: "bench-team-of-10", name: "Bench Team of 10", members: 10 },
  { size: "large", id: "bench-team-of-1000", slug: "bench-team-of-1000", name: "Bench Team of 1000", members: 1_000 },
];
const SIZES = ["small", "large"];
// Every page of a team, as its owner sees it; the usage tab at its default range (TEAMS.usageDefaultDays).
const PAGES = [
  { key: "overview", path: "", label: "overview `/dashboard/teams/:slug`" },
  { key: "usage", path: "/usage", label: "usage `/dashboard/teams/:slug/usage` (last 30 days, the default)" },
  { key: "members", path: "/members", label: "members `/dashboard/teams/:slug/members`" },
  { key: "activity", path: "/activity", label: "activity `/dashboard/teams/:slug/activity`" },
  { key: "budget", path: "/budget", label: "budget `/dashboard/teams/:slug/budget`" },
  { key: "billing", path: "/billing", label: "billing `/dashboard/teams/:slug/billing`" },
];
const pathOf = (team, page) => `/dashboard/teams/${team.slug}${page.path}`;

// ---------------------------------------------------------------------------------------------
// The state

/** The team's members, the owner first; each (but the owner) an account of its own. */
function membersOf(team) {
  const others = Array.from({ length: team.members - 1 }, (_, i) => ({
    id: `${team.id}-member-${String(i + 1).padStart(4, "0")}`,
    email: `${team.id}-${i + 1}@modelify.dev`,
    role: i % 50 === 0 ? "admin" : "member",
  }));
  return [{ ...OWNER, role: "owner" }, ...others];
}

/** The accounts, both teams, their memberships and each membership's "joined" line of the activity log. */
async function insertTeams(db, now) {
  const others = TEAMS_BENCHED.flatMap((team) => membersOf(team).slice(1));
  const statements = accountStatements(db, [OWNER, ...others], await benchPasswordHash(), now);
  for (const team of TEAMS_BENCHED) {
    statements.push(
      db
        .prepare("INSERT INTO teams (id, slug, name, owner_id, seats, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
        .bind(team.id, team.slug, team.name, OWNER.id, team.members, now, now),
      db
        .prepare("INSERT INTO team_activity (id, team_id, actor_id, action, subject_id, details, at) VALUES (?, ?, ?, 'team_created', NULL, '{}', ?)")
        .bind(crypto.randomUUID(), team.id, OWNER.id, now - TEAM_DAYS * 86_400_000),
    );
    membersOf(team).forEach((m, i) => {
      const joined = now - TEAM_DAYS * 86_400_000 + i;
      statements.push(db.prepare("INSERT INTO team_members (team_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)").bind(team.id, m.id, m.role, joined));
      if (m.role !== "owner") {
        statements.push(
          db
            .prepare(
              "INSERT INTO team_activity (id, team_id, actor_id, action, subject_id, details, at) VALUES (?, ?, ?, 'member_joined', ?, json_object('role', ?), ?)",
            )
            .bind(crypto.randomUUID(), team.id, m.id, m.id, m.role, joined),
        );
      }
    });
  }
  // D1's batches stay small enough for Miniflare's request size.
  for (let i = 0; i < statements.length; i += 500) await db.batch(statements.slice(i, i + 500));
}

/**
 * The team's TEAM_REPORTS reports over the last TEAM_DAYS days as the queue carries them, oldest
 * first, each member sending a share between 1 and 10 parts (so shares differ tenfold), from two
 * devices of their own; scripts/usage-fixtures.mjs's usage (8 models, weekday and working-hour peaks).
 */
function teamReports(team, now) {
  const members = membersOf(team);
  const weights = members.map((_, i) => 1 + (i % 10));
  const whole = weights.reduce((s, w) => s + w, 0);
  const counts = weights.map((w) => Math.floor((TEAM_REPORTS * w) / whole));
  counts[0] += TEAM_REPORTS - counts.reduce((s, n) => s + n, 0);
  const usage = members.flatMap((m, i) => {
    const rows = generateUsage({
      userId: m.id,
      days: TEAM_DAYS,
      count: counts[i],
      now,
      seed: 50_000 + team.members * 10_000 + i,
      devices: [`${m.id}-laptop`, `${m.id}-desktop`],
    });
    return queuedUsage(rows, team.id).map((item, j) => ({ ...item, deviceId: rows[j].device_id }));
  });
  return usage.sort((a, b) => a.report.occurred_at - b.report.occurred_at);
}

/** Fills the team's ledger through the consumer's team ingest, INGEST_CALL reports a call. */
async function fillTeam(mf, { stateDir, workerName }, team, now) {
  const usage = teamReports(team, now);
  const started = performance.now();
  let ledgerMs = 0;
  for (let i = 0; i < usage.length; i += INGEST_CALL) {
    const response = await mf.dispatchFetch("http://ledger/team-ingest", {
      method: "POST",
      body: JSON.stringify({ teamId: team.id, usage: usage.slice(i, i + INGEST_CALL), now }),
    });
    if (!response.ok) throw new Error(`team ingest for ${team.id}: ${response.status} ${await response.text()}`);
    ledgerMs += (await response.json()).ms;
  }
  const seconds = (performance.now() - started) / 1000;
  const size = await (await mf.dispatchFetch(`http://ledger/size?user=team:${team.id}`)).json();
  if (size.reports !== TEAM_REPORTS) throw new Error(`${team.id}'s ledger holds ${size.reports} reports, not ${TEAM_REPORTS}`);
  checkLedgerFile(stateDir, workerName, size, team.id);
  return { reports: size.reports, calls: Math.ceil(usage.length / INGEST_CALL), seconds, ledgerMs };
}

async function teamFixtures(stateDir, { buildDir, now, out }) {
  const { mf, workerName } = await openLedgerHarness(stateDir, buildDir);
  try {
    await insertTeams(await mf.getD1Database("DB"), now);
    out.fill = {};
    for (const team of TEAMS_BENCHED) {
      console.log(`Filling the ledger of ${team.name} with ${f(TEAM_REPORTS)} reports over ${TEAM_DAYS} days, ${f(INGEST_CALL)} a call...`);
      out.fill[team.size] = await fillTeam(mf, { stateDir, workerName }, team, now);
    }
  } finally {
    await mf.dispose();
  }
}

// ---------------------------------------------------------------------------------------------
// Measuring

const teamOf = (size) => TEAMS_BENCHED.find((t) => t.size === size);

/**
 * Warm-up: every page of both teams three times (the first view of each, timed, opens the team's
 * ledger and compiles the page), so no repetition pays for a first compile or a first open.
 */
async function warmUp(base) {
  const cookie = await signInCookie(base, OWNER_LOGIN);
  const first = {};
  for (const page of PAGES) {
    first[page.key] = {};
    for (const size of SIZES) {
      first[page.key][size] = await pageMs(base, cookie, pathOf(teamOf(size), page));
      for (let i = 0; i < 2; i++) await pageMs(base, cookie, pathOf(teamOf(size), page));
    }
  }
  return first;
}

/** One repetition: every page of both teams in turn, PAGE_REQUESTS times; p50 of each and the ratio. */
async function repetition(base) {
  const cookie = await signInCookie(base, OWNER_LOGIN);
  const times = Object.fromEntries(PAGES.flatMap((page) => SIZES.map((size) => [`${page.key}.${size}`, []])));
  for (let i = 0; i < PAGE_REQUESTS; i++) {
    for (const page of PAGES) for (const size of SIZES) times[`${page.key}.${size}`].push(await pageMs(base, cookie, pathOf(teamOf(size), page)));
  }
  const out = {};
  for (const page of PAGES) {
    const small = p50(times[`${page.key}.small`]);
    const large = p50(times[`${page.key}.large`]);
    out[page.key] = { small, large, ratio: large / small };
  }
  return out;
}

/**
 * What one view of each page does, once the timed figures are done: the site is served again on its
 * state at REQUEST_LINES_LOG_LEVEL (whose printing would weigh on the timed figures), and each view's
 * request line gives its D1 statements and ledger calls; the answer gives its size.
 */
async function viewFacts(site) {
  await groupEnded(site.pid);
  const again = await serveTestSite({ buildDir: site.buildDir, stateDir: site.stateDir, keepState: true, logLevel: REQUEST_LINES_LOG_LEVEL });
  try {
    const cookie = await signInCookie(again.baseUrl, OWNER_LOGIN);
    const out = {};
    for (const page of PAGES) {
      out[page.key] = {};
      for (const size of SIZES) {
        const r = await fetchRetry(`${again.baseUrl}${pathOf(teamOf(size), page)}`, { headers: { Cookie: cookie }, redirect: "manual" });
        const html = await r.text();
        if (r.status !== 200) throw new Error(`${pathOf(teamOf(size), page)} answered ${r.status}`);
        const [line] = await requestLines(again, [requestIdOf(r)]);
        out[page.key][size] = { d1: Number(line.d1Statements), ledger: Number(line.ledgerCalls), kb: Buffer.byteLength(html) / 1024 };
      }
    }
    return out;
  } finally {
    await again.stop();
  }
}

/**
 * Builds (unless `buildDir` holds a build already made by the caller), fills, serves and measures;
 * resolves to the markdown of the section.
 * @param {{ buildDir?: string }} [options]
 */
export async function benchTeams({ buildDir } = {}) {
  if (!buildDir) {
    buildDir = buildDirFor("bench");
    console.log("Building the site...");
    await buildSite(buildDir, { stdio: ["ignore", "ignore", "inherit"] });
  }
  const out = {};
  const site = await serveTestSite({
    buildDir,
    stateDir: STATE_DIR,
    beforeStart: (stateDir) => teamFixtures(stateDir, { buildDir, now: Date.now(), out }),
  });
  const runs = [];
  let first;
  try {
    first = await warmUp(site.baseUrl);
    for (let rep = 1; rep <= REPETITIONS; rep++) {
      console.log(`Teams: repetition ${rep} of ${REPETITIONS}`);
      const r = await repetition(site.baseUrl);
      runs.push(r);
      console.log(`  1,000 ÷ 10 members: ${PAGES.map((page) => `${page.key} ${f(r[page.key].ratio, 2)}x`).join(", ")}`);
    }
  } finally {
    await site.stop();
  }
  const facts = await viewFacts(site);
  return teamsSection(runs, out.fill, first, facts);
}

// ---------------------------------------------------------------------------------------------
// Report

const both = (pick) => SIZES.map((size) => pick(size)).join(" / ");

function teamsSection(runs, fill, first, facts) {
  const cpus = os.cpus();
  const all = (pick) => runs.map(pick);
  const detail = (label, pick, d = 1) => `| ${label} | ${runs.map((r) => f(pick(r), d)).join(" | ")} |`;
  return `## Teams

\`npm run bench\` (alone: \`npm run bench -- --only teams\`) on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC: ${cpus.length} × ${cpus[0]?.model ?? "CPU"}, Node ${process.version}.
The production build on \`wrangler dev\` as \`npm start\` serves it, on a port and state of its own: one local workerd process runs the Workers, every
Durable Object and D1 on **one thread**. ${REPETITIONS} repetitions; each figure is min / median / max, each ratio's two sides measured in turn within
one repetition.

Fill, before the site starts: ${f(TEAM_REPORTS)} reports over ${TEAM_DAYS} days into each team's ledger through the consumer's team ingest, ${f(INGEST_CALL)} a
call: **${f(fill.small.seconds, 1)} s** for the team of 10 (${f(fill.small.ledgerMs / fill.small.calls)} ms a call in the ledger), **${f(fill.large.seconds, 1)} s** for
the team of 1,000 (${f(fill.large.ledgerMs / fill.large.calls)} ms a call).

| figure | goal | measured (min / median / max) | met |
|---|---|---|---|
${PAGES.map(
  (page) =>
    `| ${page.label} p50, 1,000 members ÷ 10 | ≤ 1.2x | ${three(
      all((r) => r[page.key].ratio),
      2,
    )} | ${met(Math.max(...all((r) => r[page.key].ratio)) <= 1.2)} |`,
).join("\n")}

### Each repetition

| | ${runs.map((_, i) => `#${i + 1}`).join(" | ")} |
|---|${runs.map(() => "---:").join("|")}|
${PAGES.map((page) =>
  [detail(`${page.key}, 10 members: p50 ms`, (r) => r[page.key].small), detail(`${page.key}, 1,000 members: p50 ms`, (r) => r[page.key].large)].join("\n"),
).join("\n")}

### What one view does (10 members / 1,000 members)

| page | D1 statements | ledger calls | HTML KB | first view after the start, ms |
|---|---|---|---|---|
${PAGES.map(
  (page) =>
    `| ${page.key} | ${both((s) => facts[page.key][s].d1)} | ${both((s) => facts[page.key][s].ledger)} | ${both((s) => f(facts[page.key][s].kb, 1))} | ${both((s) => f(first[page.key][s]))} |`,
).join("\n")}

### How

- **Teams:** one bench account (time zone ${ACCOUNT_ZONE}, +5:45, so the usage tab's days are drawn from quarter hours and its range's ends are
  partial UTC days, ADR 0038) owns two teams, one of 10 members and one of 1,000 (itself included; one member in fifty an admin), each
  membership with its "joined" line in the team's activity log. Both teams' ledgers hold the same usage: ${f(TEAM_REPORTS)} reports over the last
  ${TEAM_DAYS} days (scripts/usage-fixtures.mjs: 8 models, weekday and working-hour peaks, three request types, some failures), each member
  sending a share of 1 to 10 parts (the team of 1,000: about 18 to 180 reports a member; of 10: about 1,800 to 18,000) from two devices of
  their own. They are written before the site starts through the consumer's own team ingest (\`teamParts\`, \`ingestTeams\`,
  bench/ledger-harness.js on Miniflare under the site Worker's name, so the served Worker opens the same objects; each ledger's file is
  checked); the members' own ledgers are not filled (no team page reads them).
- **Pages:** every page of both teams as their owner sees it, signed in, the usage tab at its default range (the last 30 days of the owner's
  zone); ${PAGE_REQUESTS} views of each page of each team per repetition, the pages and the teams in turn; p50 of each. The first three
  views of each are a warm-up (the first is shown above: for the usage tab it includes ranking the range's members, once per range and
  day, ADR 0038).
- **Where a page could grow with the team:** the members page and the activity log show 25 rows a page (keyset pages; the team of 10
  fits on one, so the team of 1,000's page has 15 more rows: its HTML above); the usage tab's members' table 25 a page from the
  team ledger's ranking; the budget page's member cap takes an address, not a list of every member.
- **What one view does:** after the timed figures, the state is served again at wrangler's log level \`log\` (which prints the Workers'
  request lines, and would weigh on the timed figures), and one view of each page of each team is matched with its line by its
  \`X-Request-Id\` (bench/log-lines.mjs): its D1 statements and ledger calls.
`;
}
