// The pages' figures (issue 31), measured side by side in one run on the production build served
// by `wrangler dev` (as `npm start` serves it), on a port and state of its own, beside a peer:
// React Router's official Cloudflare template (bench/template, remix-run/react-router-templates'
// cloudflare/), built with this repository's versions into .build/bench-template and served by
// `wrangler dev` the same way, on a port of its own.
//   1. requests/s of each page ÷ `/favicon.svg` of the same server: `/` signed out from the edge
//      copy, `/` signed out rendered afresh (an address the copy does not have: `/?b=<n>`, a new
//      n for every request, as a cache miss is in production), `/`, `/dashboard` and
//      `/dashboard/usage` signed in as the demo account;
//   2. the uncached `/` requests/s ÷ the template's `/`;
//   3. CPU per request of the workerd process that runs each server's Workers (/proc/<pid>/stat),
//      the uncached `/` and `/dashboard` ÷ the template's `/` (issue 47: at most 2.5x and 3x).
// All loads take turns in the same alternating slices (bench/load.mjs), so every ratio's two sides
// meet the same machine. `npm run bench -- --only pages` runs this alone (it builds first, a few
// minutes in all, for re-measuring after a render change); a whole `npm run bench` runs it after
// the load figures, on the same build. It writes the "pages" section of bench/results.md.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import os from "node:os";
import { buildDirFor, buildSite, serveBuiltWorkers } from "../scripts/lib.mjs";
import { signInCookie } from "../scripts/lighthouse.mjs";
import { freePort, serveTestSite, waitFor } from "../scripts/serve-test-site.mjs";
import { alternating, CONCURRENCY, DURATION_MS, fetchRetry, SETTLE_MS, SLICES } from "./load.mjs";
import { cpuMeter, TICKS_PER_SECOND } from "./proc.mjs";
import { f, met, three } from "./report.mjs";

const REPETITIONS = Number(process.env.BENCH_REPETITIONS ?? 3);
const STATE = ".wrangler/bench-pages-state";
const TEMPLATE_PROJECT = "bench/template";
const TEMPLATE_BUILD = ".build/bench-template";
const TEMPLATE_STATE = ".wrangler/bench-template-state";
// app/server/page-cache.server.ts: PAGE_CACHE_HEADER, "hit" when the edge copy answered.
const PAGE_CACHE_HEADER = "X-Page-Cache";
const STATIC = "/favicon.svg";

/**
 * The loads of one repetition, in the order they take turns. `server` is the one that answers
 * ("app" or "template"); `signedIn` pages carry the demo account's session cookie; `goal` is the
 * least requests/s ÷ the static file for the figure (none for the template's own page).
 */
const LOADS = [
  { key: "static", label: `\`GET ${STATIC}\``, server: "app", path: STATIC },
  { key: "cached", label: "`GET /` signed out, from the edge copy", server: "app", path: "/", goal: 0.5 },
  { key: "uncached", label: "`GET /` signed out, uncached (`/?b=<n>`, a new n each time)", server: "app", path: "/", fresh: true, goal: 0.5 },
  { key: "template", label: "the template's `GET /`", server: "template", path: "/" },
  { key: "home", label: "`GET /` signed in", server: "app", path: "/", signedIn: true, goal: 0.4 },
  { key: "dashboard", label: "`GET /dashboard` signed in", server: "app", path: "/dashboard", signedIn: true, goal: 0.3 },
  { key: "usage", label: "`GET /dashboard/usage` signed in", server: "app", path: "/dashboard/usage", signedIn: true, goal: 0.3 },
];
const PAGES = LOADS.filter((l) => l.goal !== undefined);
const TEMPLATE_GOAL = 0.8; // the uncached `/` requests/s ÷ the template's `/`, at least
const CPU_GOAL = 2.5; // the uncached `/` CPU per request ÷ the template's `/`, at most (issue 47)
const DASHBOARD_CPU_GOAL = 3; // `/dashboard` signed in, the same, at most (issue 47)
const IDLE_MS = 5_000;

// ---------------------------------------------------------------------------------------------
// The peer

/** Builds React Router's Cloudflare template with this repository's versions and serves it on a free port. */
async function serveTemplate() {
  rmSync(TEMPLATE_BUILD, { recursive: true, force: true });
  execFileSync("react-router", ["build", TEMPLATE_PROJECT], { stdio: ["ignore", "ignore", "inherit"] });
  // As scripts/serve-test-site.mjs starts the app: a port found free can be taken again before
  // workerd binds it, so a start that fails on "Address already in use" is retried on a fresh one.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const child = serveBuiltWorkers({
      port,
      configs: [`${TEMPLATE_BUILD}/server/wrangler.json`],
      stateDir: TEMPLATE_STATE,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let log = "";
    child.stdout.on("data", (d) => (log += d));
    child.stderr.on("data", (d) => (log += d));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    const stop = () => {
      try {
        process.kill(-(/** @type {number} */ (child.pid)), "SIGTERM");
      } catch {
        // already gone
      }
    };
    const baseUrl = `http://localhost:${port}`;
    try {
      await waitFor(baseUrl, exited);
    } catch (error) {
      stop();
      if (attempt < 4 && /Address already in use/.test(log)) continue;
      console.error(log);
      throw error;
    }
    return { baseUrl, port, pid: /** @type {number} */ (child.pid), stop };
  }
}

// ---------------------------------------------------------------------------------------------
// Statistics and the report

/** CPU per request of both workerd processes of a server (the runtime and wrangler dev's proxy in front of it). */
const workerdMs = (load) => load.cpuMsPerRequest.runtime + load.cpuMsPerRequest.proxy;

/** Every request of every load answered 200 (no redirect, no error), else the run stops here. */
function assertAll200(results) {
  for (const [k, r] of results.entries()) {
    const other = Object.entries(r.statuses).filter(([status]) => status !== "200");
    if (other.length > 0) throw new Error(`${LOADS[k].label} answered other than 200: ${JSON.stringify(r.statuses)}`);
  }
}

// ---------------------------------------------------------------------------------------------

/** Both servers: React Router's Cloudflare template (built first) and the site on a state of its own. */
async function serveBoth(buildDir) {
  console.log("Building and serving React Router's Cloudflare template, serving the site...");
  const template = await serveTemplate();
  try {
    const site = await serveTestSite({ buildDir, stateDir: STATE });
    return { template, site };
  } catch (error) {
    template.stop();
    throw error;
  }
}

/** A repetition's figures from its loads' `results` (in LOADS' order): each ratio of the goals. */
function figuresOf(results) {
  const r = Object.fromEntries(LOADS.map((l, k) => [l.key, results[k]]));
  for (const page of PAGES) r[page.key].ratio = r[page.key].perSecond / r.static.perSecond;
  r.versusTemplate = r.uncached.perSecond / r.template.perSecond;
  r.cpuVersusTemplate = r.uncached.cpuMsPerRequest.runtime / r.template.cpuMsPerRequest.runtime;
  r.cpuBothVersusTemplate = workerdMs(r.uncached) / workerdMs(r.template);
  r.dashboardCpuVersusTemplate = r.dashboard.cpuMsPerRequest.runtime / r.template.cpuMsPerRequest.runtime;
  return r;
}

/**
 * The repetitions, after a check that the figures are what their labels say and a warm-up; `idle`
 * is each server's CPU with no load, for scale.
 */
async function measure(site, template) {
  const app = site.baseUrl;
  const meters = { app: cpuMeter(site.pid, Number(new URL(app).port), "site"), template: cpuMeter(template.pid, template.port, "template") };
  // The query of the uncached loads: a new address each time.
  let fresh = 0;
  /** The loads of `alternating`, with a fresh session (the demo account's access token lasts 15 minutes). */
  const loads = async () => {
    const cookie = await signInCookie(app);
    return LOADS.map((l) => {
      const base = l.server === "app" ? app : template.baseUrl;
      const init = { headers: { ...(l.signedIn ? { Cookie: cookie } : {}) }, redirect: /** @type {const} */ ("manual") };
      const url = () => (l.fresh ? `${base}${l.path}?b=${++fresh}` : `${base}${l.path}`);
      return { request: () => fetchRetry(url(), init), cpu: meters[l.server].read };
    });
  };
  // The figures are what their labels say: the edge copy answers `/`, and an address it does not have is rendered.
  const probe = async (path) => {
    const r = await fetchRetry(`${app}${path}`);
    await r.arrayBuffer();
    return r.headers.get(PAGE_CACHE_HEADER);
  };
  await probe("/");
  if ((await probe("/")) !== "hit") throw new Error("A signed-out `/` was not answered from the edge copy");
  if ((await probe(`/?b=${++fresh}`)) !== "miss") throw new Error("A signed-out `/?b=<n>` was not rendered afresh");

  // Warm-up: every load once, so no repetition pays for a first compile.
  assertAll200(await alternating(await loads(), { ms: LOADS.length * 500, slices: 1 }));
  // Each server's CPU with no load, for scale: what a slice counts besides its requests.
  const before = { app: meters.app.read(), template: meters.template.read() };
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const used = (server) => Object.fromEntries(Object.entries(meters[server].read()).map(([name, ms]) => [name, ms - before[server][name]]));
  const idle = { app: used("app"), template: used("template") };

  const runs = [];
  for (let rep = 1; rep <= REPETITIONS; rep++) {
    console.log(`Repetition ${rep} of ${REPETITIONS}`);
    const results = await alternating(await loads());
    assertAll200(results);
    const r = figuresOf(results);
    runs.push(r);
    console.log(
      `  ÷ static: ${PAGES.map((p) => `${p.key} ${f(r[p.key].ratio, 2)}x`).join(", ")} · uncached / ÷ template ${f(r.versusTemplate, 2)}x · CPU ${f(r.uncached.cpuMsPerRequest.runtime, 2)} ÷ ${f(r.template.cpuMsPerRequest.runtime, 2)} ms = ${f(r.cpuVersusTemplate, 2)}x · /dashboard CPU ${f(r.dashboardCpuVersusTemplate, 2)}x`,
    );
  }
  return { runs, idle };
}

export async function benchPages({ buildDir } = {}) {
  if (!buildDir) {
    buildDir = buildDirFor("bench");
    console.log("Building the site...");
    await buildSite(buildDir, { stdio: ["ignore", "ignore", "inherit"] });
  }
  const { template, site } = await serveBoth(buildDir);
  try {
    const { runs, idle } = await measure(site, template);
    return pagesSection(runs, idle);
  } finally {
    await site.stop();
    template.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// The report

/** The table of goals: each figure, its goal, min / median / max over `runs`, and whether it is met. */
function goalRows(runs) {
  const all = (pick) => runs.map(pick);
  const min = (values) => Math.min(...values);
  const max = (values) => Math.max(...values);
  return [
    ...PAGES.map((page) => [
      `${page.label}: requests/s ÷ \`${STATIC}\` of the same server`,
      `≥ ${page.goal}x`,
      three(
        all((r) => r[page.key].ratio),
        2,
      ),
      met(min(all((r) => r[page.key].ratio)) >= /** @type {number} */ (page.goal)),
    ]),
    [
      "`GET /` signed out, uncached: requests/s ÷ React Router's Cloudflare template's `GET /`",
      `≥ ${TEMPLATE_GOAL}x`,
      three(
        all((r) => r.versusTemplate),
        2,
      ),
      met(min(all((r) => r.versusTemplate)) >= TEMPLATE_GOAL),
    ],
    [
      "`GET /` signed out, uncached: isolate CPU per request (the workerd process that runs the Workers) ÷ the template's `GET /`",
      `≤ ${CPU_GOAL}x`,
      `${three(
        all((r) => r.cpuVersusTemplate),
        2,
      )} (ms: ${three(
        all((r) => r.uncached.cpuMsPerRequest.runtime),
        2,
      )} against ${three(
        all((r) => r.template.cpuMsPerRequest.runtime),
        2,
      )})`,
      met(max(all((r) => r.cpuVersusTemplate)) <= CPU_GOAL),
    ],
    [
      "`GET /dashboard` signed in: isolate CPU per request ÷ the template's `GET /`",
      `≤ ${DASHBOARD_CPU_GOAL}x`,
      `${three(
        all((r) => r.dashboardCpuVersusTemplate),
        2,
      )} (ms: ${three(
        all((r) => r.dashboard.cpuMsPerRequest.runtime),
        2,
      )})`,
      met(max(all((r) => r.dashboardCpuVersusTemplate)) <= DASHBOARD_CPU_GOAL),
    ],
    [
      "the same with wrangler dev's proxy process in front (both workerd processes of each server)",
      "none (reference)",
      `${three(
        all((r) => r.cpuBothVersusTemplate),
        2,
      )} (ms: ${three(
        all((r) => workerdMs(r.uncached)),
        2,
      )} against ${three(
        all((r) => workerdMs(r.template)),
        2,
      )})`,
      "",
    ],
  ];
}

/** The "How" part: what each load is and how its CPU is counted. */
function howSection(idle) {
  return `### How

- **Static:** \`${STATIC}\` of the site's own server, answered by the runtime's asset handling without the site's Worker; each page's requests/s is divided by it.
- **Edge copy:** \`/\` for a signed-out visitor, answered from the copy the Worker keeps after its first render (app/server/page-cache.server.ts, the \`X-Page-Cache: hit\` answer).
- **Uncached:** \`/?b=<n>\` with a new n for every request: an address the edge copy does not have, so the page is rendered (and stored, as a miss is in
  production); checked before the repetitions (\`X-Page-Cache: miss\`). Nothing a client sends can make the site skip its copy.
- **Signed in:** the seeded demo account's session cookies (\`signInCookie\` of scripts/lighthouse.mjs, a fresh sign-in each repetition, as its
  access token lasts 15 minutes); \`/dashboard/usage\` at its default range. Redirects are not followed: each page must answer 200.
- **Template:** React Router's official Cloudflare template (remix-run/react-router-templates, \`cloudflare/\`), its files as published in bench/template
  (its v7 \`future\` flags dropped: they are v8's defaults; its build directory .build/bench-template), built by \`react-router build bench/template\` with this
  repository's react-router, @react-router/dev, @cloudflare/vite-plugin, vite, react and Tailwind, and served by \`wrangler dev\` with the flags the site gets
  (scripts/lib.mjs's serveBuiltWorkers). Its \`/\` runs a loader (a var of its Worker) and renders its welcome page. Its Worker hands React Router a function
  for the build, as published, so React Router derives its routes on every request (the site derives them once per isolate).
- **CPU per request:** user + system CPU (fields 14 and 15 of /proc/<pid>/stat, ${TICKS_PER_SECOND} ticks a second, all threads) of each server's processes,
  found as the descendants of the wrangler process it was started as, read before and after each slice of a load on that server (${SETTLE_MS} ms after its last
  response, for work a response leaves behind), divided by the requests the slice completed. \`wrangler dev\` runs two workerd processes: the **runtime**,
  which runs the Workers (the site's runs both of its Workers, with their assets, D1 and Durable Objects), and a **proxy** bound to the port, whose
  ProxyWorker takes each request and forwards it to the runtime, a local hop that production does not have. The goal is judged on the runtime: the
  isolate's JavaScript plus workerd's own HTTP handling, which is alike for both servers; the proxy's share is shown beside it. Only that load runs during
  its slice, so those processes' CPU is its requests' CPU. Not counted: wrangler's Node processes (not on a request's path; shown in brackets, mostly the
  site's log lines reaching wrangler) and the load generator (this Node process, not a descendant of either server). With no load, in ${IDLE_MS / 1000} s before
  the repetitions, the site's runtime and proxy used ${f(idle.app.runtime)} and ${f(idle.app.proxy)} ms of CPU, the template's ${f(idle.template.runtime)} and ${f(idle.template.proxy)}
  (a clock tick is ${f(1000 / TICKS_PER_SECOND)} ms). Production Workers run on other machines: the ratio, not the milliseconds, is the figure.
`;
}

/** The section's markdown. */
function pagesSection(runs, idle) {
  const all = (pick) => runs.map(pick);
  const detail = (label, pick, d = 0) => `| ${label} | ${runs.map((r) => f(pick(r), d)).join(" | ")} |`;
  const detailText = (label, pick) => `| ${label} | ${runs.map(pick).join(" | ")} |`;
  const cpus = os.cpus();
  const requests = all((r) => LOADS.reduce((sum, l) => sum + r[l.key].done, 0));
  return `## Pages

\`npm run bench\` (alone: \`npm run bench -- --only pages\`) on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC: ${cpus.length} × ${cpus[0]?.model ?? "CPU"}, Node ${process.version}.
The production build on \`wrangler dev\` as \`npm start\` serves it, on a port and state of its own, beside React Router's Cloudflare template
(bench/template) built with the same versions and served by \`wrangler dev\` the same way. ${REPETITIONS} repetitions; each figure is min / median / max.
In each repetition the ${LOADS.length} loads below take turns in ${SLICES} rounds of ${f(DURATION_MS / SLICES / 1000, 1)} s slices (${CONCURRENCY} concurrent clients,
${f(DURATION_MS / 1000, 1)} s per load in all), so every ratio's two sides meet the same machine.

| figure | goal | measured (min / median / max) | met |
|---|---|---|---|
${goalRows(runs)
  .map((r) => `| ${r.join(" | ")} |`)
  .join("\n")}

### Each repetition

| | ${runs.map((_, i) => `#${i + 1}`).join(" | ")} |
|---|${runs.map(() => "---:").join("|")}|
${detail(`${LOADS[0].label}: requests/s`, (r) => r.static.perSecond)}
${PAGES.map((page) => [detail(`${page.label}: requests/s`, (r) => r[page.key].perSecond), detail(`ratio to \`${STATIC}\``, (r) => r[page.key].ratio, 2)].join("\n")).join("\n")}
${detail("the template's `GET /`: requests/s", (r) => r.template.perSecond)}
${detail("uncached `GET /` ÷ the template's `GET /`", (r) => r.versusTemplate, 2)}
${LOADS.map((l) =>
  detailText(
    `${l.label}: CPU ms per request, runtime + proxy (+ wrangler's Node, not counted)`,
    (r) => `${f(r[l.key].cpuMsPerRequest.runtime, 2)} + ${f(r[l.key].cpuMsPerRequest.proxy, 2)} (+ ${f(r[l.key].cpuMsPerRequest.wrangler, 2)})`,
  ),
).join("\n")}
${detail("isolate CPU per request, uncached `GET /` ÷ the template's `GET /`", (r) => r.cpuVersusTemplate, 2)}
${detail("the same, runtime + proxy", (r) => r.cpuBothVersusTemplate, 2)}
${detail("isolate CPU per request, `GET /dashboard` signed in ÷ the template's `GET /`", (r) => r.dashboardCpuVersusTemplate, 2)}

Every request answered 200 (${requests.map((n) => f(n)).join(", ")} requests in the ${REPETITIONS} repetitions; any other status, a redirect included, stops the run).

${howSection(idle)}`;
}
