// `npm test`: every suite, nothing skipped. Unit and Workers integration tests run inside
// workerd (vitest), then their log lines are scanned for secrets (scripts/log-scan.ts); the
// browser end-to-end tests run Chromium against the built site (Playwright,
// playwright.config.ts), and what their servers printed is scanned the same way. Both suites
// write JSON reports, read here for one summary.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { relative } from "node:path";
import { prepareBrowserTests } from "../tests/e2e/global-setup.ts";
import { E2E_LOG_DIR } from "../tests/e2e/sites.ts";
import { ensureDevVars, run } from "./lib.mjs";
import { runUnitTests } from "./unit-tests.mjs";

const started = Date.now();

const vitestReport = ".wrangler/vitest-report.json";
const e2eReport = ".wrangler/e2e-report.json";
rmSync(vitestReport, { force: true });
rmSync(e2eReport, { force: true });

let failedStep = null;
// The browser tests' build and seeded state (tests/e2e/global-setup.ts) are made while the first
// vitest run runs (its tests mostly wait); the timing comparisons run after (unit-tests.mjs).
ensureDevVars();
const e2ePrepared = prepareBrowserTests().then(
  () => true,
  (error) => {
    console.error(error);
    return false;
  },
);
// Two vitest runs, most files sharing a runtime, a few isolated (scripts/unit-tests.mjs).
if (!(await runUnitTests(vitestReport, e2ePrepared))) failedStep = "unit and integration tests";
const e2eReady = await e2ePrepared;
// Issue 30: no secret, token, code or e-mail address in any log line the Workers tests wrote.
try {
  await run("node", ["scripts/log-scan.ts"]);
} catch {
  failedStep ??= "log scan";
}
try {
  if (!e2eReady) throw new Error("the browser tests' build or state failed");
  await run("playwright", ["test"], { env: { ...process.env, E2E_PREPARED: "1" } });
} catch {
  failedStep ??= "browser end-to-end tests";
}
// The same scan over everything the browser tests' servers printed (tests/e2e/sites.ts).
if (e2eReady) {
  try {
    await run("node", ["scripts/log-scan.ts", E2E_LOG_DIR]);
  } catch {
    failedStep ??= "log scan of the browser tests' servers";
  }
}

const unit = existsSync(vitestReport) ? JSON.parse(readFileSync(vitestReport, "utf8")) : null;
const e2e = existsSync(e2eReport) ? JSON.parse(readFileSync(e2eReport, "utf8")).stats : null;
const e2ePassed = e2e?.expected ?? 0;
const passed = (unit?.numPassedTests ?? 0) + e2ePassed;
const failed = (unit?.numFailedTests ?? 0) + (e2e?.unexpected ?? 0);
const skipped = (unit?.numPendingTests ?? 0) + (unit?.numTodoTests ?? 0) + (e2e?.skipped ?? 0);

/** Each test file's time: vitest's per-file start and end, Playwright's tests' durations added up. */
function fileTimes() {
  const times = [];
  for (const file of unit?.testResults ?? []) times.push({ file: relative(process.cwd(), file.name), ms: file.endTime - file.startTime });
  const walk = (suite, file, sum) => {
    for (const spec of suite.specs ?? []) for (const t of spec.tests ?? []) for (const r of t.results ?? []) sum.ms += r.duration ?? 0;
    for (const child of suite.suites ?? []) walk(child, file, sum);
    return sum;
  };
  const report = existsSync(e2eReport) ? JSON.parse(readFileSync(e2eReport, "utf8")) : null;
  for (const suite of report?.suites ?? []) times.push(walk(suite, suite.file, { file: `tests/e2e/${suite.file}`, ms: 0 }));
  return times.sort((a, b) => b.ms - a.ms);
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
console.log("\nslowest test files:");
for (const { file, ms } of fileTimes().slice(0, 10)) console.log(`  ${seconds(ms).padStart(8)}  ${file}`);
const wall = Date.now() - started;
console.log(`\nunit + integration (workerd): ${unit?.numPassedTests ?? 0} passed; browser end-to-end (Chromium): ${e2ePassed} passed`);
// Rounded to whole seconds first: 359.6 s is "6 min 0 s", not "5 min 60 s".
const wallSeconds = Math.round(wall / 1000);
console.log(`npm test took ${Math.floor(wallSeconds / 60)} min ${wallSeconds % 60} s (budget: 8 min)`);
if (skipped > 0) {
  failedStep ??= "skipped tests";
  console.error(`${skipped} test(s) were skipped: the suite must run everything.`);
}
// Retries are off (playwright.config.ts); a test marked flaky passed only on a second try.
if ((e2e?.flaky ?? 0) > 0) failedStep ??= "flaky end-to-end tests";
if (!unit || !e2e || unit.numTotalTests === 0 || e2ePassed === 0) failedStep ??= "missing test report";
console.log(`${passed} passed, ${failed} failed`);
if (failedStep) {
  console.error(`npm test failed: ${failedStep}`);
  process.exit(1);
}
