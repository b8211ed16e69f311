// `npm run bench -- --only start` (also the last part of a whole `npm run bench`): `npm start` on a
// fresh clone, from spawning `npm start` to the first 200 on `/`, the build included (issue 26's
// goal: at most 12 s), then a second start on the state the first one left.
//
// Each repetition clones the committed HEAD into a temporary directory and runs a real
// `npm install` there (timed apart: the goal counts the build, not the install; the clone gets no
// caches from this checkout's node_modules), so what is timed is what a new checkout does. The
// clone's node_modules also shows whether each heavy tool is still installed once (ADR 0014).
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import { join } from "node:path";
import { ensureDevVars, run, STANDIN_PORT, setDevVars } from "../scripts/lib.mjs";
import { met, stats } from "./report.mjs";

const GOAL_SECONDS = 12;
// Packages that must be installed once (ADR 0014); the Vite plugin keeps its own miniflare by design.
const HEAVY = { workerd: 1, node: 1, "@biomejs/biome": 1, esbuild: 1, wrangler: 1, miniflare: 2 };

function listenOn(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(null));
    server.listen(port, "127.0.0.1", () => {
      const { port: bound } = server.address();
      server.close(() => resolve(bound));
    });
  });
}
const freePort = () => listenOn(0);

/** The environment of a shell outside this npm script: npm's own variables and its PATH entries removed. */
export function shellEnv(extra = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== "INIT_CWD"));
  env.PATH = (env.PATH ?? "")
    .split(":")
    .filter((p) => !p.includes("/node_modules/") && !p.endsWith("/node_modules/.bin"))
    .join(":");
  return { ...env, ...extra };
}

/** The share of CPU time the whole machine spent idle over `ms` (Linux /proc/stat; null elsewhere). */
async function idleShare(ms = 2_000) {
  const sample = () => {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    return { idle: fields[3] + fields[4], total: fields.reduce((a, b) => a + b, 0) };
  };
  try {
    const a = sample();
    await new Promise((r) => setTimeout(r, ms));
    const b = sample();
    return (b.idle - a.idle) / (b.total - a.total);
  } catch {
    return null;
  }
}

/**
 * Linux's CPU pressure (PSI, /proc/pressure/cpu): the share of the last 60 s in which some task
 * waited for a CPU. Idle CPUs with pressure mean the virtual machine's host gave it less than its
 * cores: then every figure here runs slower. Null where the kernel does not report it.
 */
function cpuPressure() {
  try {
    const some = readFileSync("/proc/pressure/cpu", "utf8")
      .split("\n")
      .find((line) => line.startsWith("some "));
    const avg60 = /avg60=([\d.]+)/.exec(some ?? "")?.[1];
    return avg60 === undefined ? null : Number(avg60);
  } catch {
    return null;
  }
}

/**
 * The machine is shared (other people's test runs): before a timed start, wait up to 5 minutes
 * for 2 s in which the CPUs were at least 85 % idle. Resolves to the last idle share seen.
 */
async function quietMachine() {
  const deadline = Date.now() + 5 * 60_000;
  let idle = await idleShare();
  while (idle !== null && idle < 0.85 && Date.now() < deadline) idle = await idleShare();
  return idle;
}

/** Spawns `npm start` in `dir` and times it to the first 200 on `/`; then stops it (its whole process group). */
async function timedStart(dir, port) {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  const child = spawn("npm", ["start"], { cwd: dir, env: shellEnv({ PORT: String(port) }), stdio: ["ignore", "pipe", "pipe"], detached: true });
  const lines = [];
  const collect = (chunk) => {
    for (const line of String(chunk).split("\n")) if (line.trim()) lines.push({ at: seconds(), line });
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  let exitCode;
  const exited = new Promise((resolve) =>
    child.once("exit", (code, signal) => {
      exitCode = code ?? signal;
      resolve();
    }),
  );
  let firstOk = null;
  while (exitCode === undefined && seconds() < 180) {
    try {
      const response = await fetch(`http://localhost:${port}/`, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      if (response.status === 200) {
        firstOk = seconds();
        break;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    // already gone
  }
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  if (firstOk === null) throw new Error(`npm start in ${dir} did not answer 200 (exit ${exitCode}):\n${lines.map((l) => l.line).join("\n")}`);
  const state = lines.find((l) => l.line.startsWith("Local state ("));
  // start.mjs prints its address as it starts wrangler dev, once the build and the set-up are done.
  const serving = lines.find((l) => l.line.startsWith("Modelify: http"));
  return {
    seconds: firstOk,
    readyAt: serving?.at ?? Number.NaN,
    setup: state?.line.replace(/^Local state \([^)]*\): /, "") ?? "(no set-up line)",
  };
}

/** How many copies of each package npm installed, anywhere under node_modules. */
function copies(nodeModules, names) {
  const counts = Object.fromEntries(names.map((n) => [n, 0]));
  const walk = (dir) => {
    for (const entry of readdirSync(dir)) {
      if (entry.startsWith(".")) continue;
      const packages = entry.startsWith("@") ? readdirSync(join(dir, entry)).map((sub) => `${entry}/${sub}`) : [entry];
      for (const name of packages) {
        if (name in counts) counts[name]++;
        if (existsSync(join(dir, name, "node_modules"))) walk(join(dir, name, "node_modules"));
      }
    }
  };
  walk(nodeModules);
  return counts;
}

const f = (n, d = 1) => n.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });
const three = (values, d = 1) => {
  const { min, median, max } = stats(values);
  return `${f(min, d)} / ${f(median, d)} / ${f(max, d)}`;
};

/**
 * One repetition in `dir`: a clone of `root`, its install, and two timed starts of `npm start`
 * (the first builds and sets up, the second finds the state there).
 */
async function measureFreshClone(root, dir) {
  await run("git", ["clone", "-q", root, dir]);
  const installStarted = performance.now();
  // From a shell the install runs on the machine's Node 20, which npm warns about (EBADENGINE)
  // before the `node` package puts Node 24 into node_modules: its output is shown only if it fails.
  execFileSync("npm", ["install", "--no-audit", "--no-fund"], { cwd: dir, env: shellEnv(), stdio: "pipe" });
  const install = (performance.now() - installStarted) / 1000;
  const heavy = copies(join(dir, "node_modules"), Object.keys(HEAVY));
  // A running `npm start` holds the Stripe stand-in's port: then this clone's stand-in gets
  // another one, written where start.mjs reads it (.dev.vars), before the start.
  if ((await listenOn(STANDIN_PORT)) === null) {
    const vars = join(dir, ".dev.vars");
    ensureDevVars(vars);
    setDevVars(vars, { STRIPE_API_BASE: `http://localhost:${await freePort()}` });
  }
  const idleFirst = await quietMachine();
  const pressureFirst = cpuPressure();
  const first = await timedStart(dir, await freePort());
  const idleSecond = await quietMachine();
  const second = await timedStart(dir, await freePort());
  return { install, idleFirst, pressureFirst, idleSecond, first, second, heavy };
}

/** The section of bench/results.md for `runs` (measureFreshClone's) of `commit`. */
function startSection(runs, { commit, repetitions }) {
  const firsts = runs.map((r) => r.first.seconds);
  const seconds = runs.map((r) => r.second.seconds);
  const heavyCell = Object.keys(HEAVY)
    .map((name) => `${name} ${Math.max(...runs.map((r) => r.heavy[name]))}`)
    .join(", ");
  const heavyMet = Object.entries(HEAVY).every(([name, allowed]) => runs.every((r) => r.heavy[name] <= allowed));
  const detail = (label, pick, d = 1) => `| ${label} | ${runs.map((r) => (typeof pick(r) === "number" ? f(pick(r), d) : pick(r))).join(" | ")} |`;
  return `## \`npm start\` on a fresh clone

\`npm run bench -- --only start\` on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, commit ${commit}: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}.
${repetitions} fresh clones, each started twice: min / median / max, in seconds.

| figure | goal | measured (min / median / max) | met |
|---|---|---|---|
| \`npm start\` on a fresh clone, to the first 200 on \`/\` (build included) | ≤ ${GOAL_SECONDS} s | ${three(firsts)} | ${met(Math.max(...firsts) <= GOAL_SECONDS)} |
| \`npm start\` again on that clone's state (set-up skipped, build again) | | ${three(seconds)} | |
| heavy tools installed once (copies in the clone's \`node_modules\`; miniflare twice by design, ADR 0014) | one each | ${heavyCell} | ${met(heavyMet)} |

| | ${runs.map((_, i) => `#${i + 1}`).join(" | ")} |
|---|${runs.map(() => "---:").join("|")}|
${detail("`npm install` (not in the figure)", (r) => r.install)}
${detail("CPU idle in the 2 s before the first start", (r) => (r.idleFirst === null ? "?" : `${Math.round(r.idleFirst * 100)} %`))}
${detail("CPU pressure before the first start (PSI some, 60 s)", (r) => (r.pressureFirst === null ? "?" : `${f(r.pressureFirst)} %`))}
${detail("first start: build and set-up done", (r) => r.first.readyAt)}
${detail("first start: first 200", (r) => r.first.seconds)}
${detail("first start: the set-up's line", (r) => r.first.setup)}
${detail("CPU idle in the 2 s before the second start", (r) => (r.idleSecond === null ? "?" : `${Math.round(r.idleSecond * 100)} %`))}
${detail("second start: first 200", (r) => r.second.seconds)}
${detail("second start: the set-up's line", (r) => r.second.setup)}

- **How:** \`git clone\` of the commit into a temporary directory, \`npm install --no-audit --no-fund\` there, then
  \`npm start\` with a free \`PORT\`, spawned from an environment without this npm script's variables and PATH entries
  (as from a shell), and \`GET /\` every 50 ms until it answers 200; the clock runs from the spawn. The site is then stopped
  (SIGTERM to its process group) and started again on the same state. If the Stripe stand-in's port ${STANDIN_PORT} is taken,
  the clone's \`.dev.vars\` names another port before the start. The machine is shared, so each start waits (up to 5 minutes)
  for 2 s in which the CPUs were at least 85 % idle; what else runs during the start is not controlled. Idle CPUs can still
  be short of time: Linux's CPU pressure (PSI) beside each run says how often a task waited for a CPU in the minute before
  (on 2026-11-26 it read 18-43 % with nothing running, and single fresh starts then took 10.5-15.7 s).
- **What the start does** (scripts/start.mjs): the build (\`react-router build\`: client, site and consumer) and, at the
  same time in a process of its own at a lower priority, the local state (scripts/local-state.mjs: D1 migrations, demo
  accounts, demo builds on one Miniflare), then \`wrangler dev\` with both Workers.
`;
}

/** Runs the measurement and returns its section of bench/results.md. */
export async function benchStart({ repetitions = Number(process.env.BENCH_REPETITIONS ?? 3) } = {}) {
  const root = execFileSync("git", ["rev-parse", "--show-toplevel"], { encoding: "utf8" }).trim();
  const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
  const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: root, encoding: "utf8" }).trim() !== "";
  if (dirty) console.log(`Note: the clones get commit ${commit}; uncommitted changes here are not measured.`);
  const runs = [];
  for (let rep = 1; rep <= repetitions; rep++) {
    const dir = mkdtempSync(join(os.tmpdir(), "modelify-start-"));
    try {
      console.log(`Start ${rep} of ${repetitions}: git clone and npm install in ${dir}`);
      const measured = await measureFreshClone(root, dir);
      runs.push(measured);
      const { install, first, second } = measured;
      console.log(
        `  npm install ${f(install)} s · first start ${f(first.seconds)} s (built and set up at ${f(first.readyAt)} s) · second start ${f(second.seconds)} s`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return startSection(runs, { commit, repetitions });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { writeResultsSection } = await import("./results-file.mjs");
  const section = await benchStart();
  writeResultsSection("start", section);
  console.log(section);
}
