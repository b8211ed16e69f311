// The unit and Workers integration tests (vitest inside workerd), in two runs:
// - most files with isolation off: one workerd per vitest worker, reused by the files it runs one
//   after another, instead of a runtime started for each file (2.4 s each on 2 cores);
// - ISOLATED_TEST_FILES, which change the schema, empty a table or count rows across accounts,
//   each in a runtime and storage of its own (vitest's default).
// Measured 2026-11-26 on this 2-core machine: 237 s in one isolated run; 58 s for everything with
// isolation off, where these five files failed in a shuffled order; about 75 s this way.
// Both runs write a JSON report; the merged one goes where `npm test` reads it.
//
//   node scripts/unit-tests.mjs [report.json]
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { ISOLATED_TEST_FILES, QUIET_TEST_FILES } from "../tests/isolated-files.ts";
import { run } from "./lib.mjs";

const SECOND_RUN = [...ISOLATED_TEST_FILES, ...QUIET_TEST_FILES];
const reportArgs = (file) => ["--reporter=default", "--reporter=json", `--outputFile.json=${file}`];

/**
 * Runs both; resolves with whether both passed, having written the merged report to `reportPath`.
 * `beforeSecond` (work started beside the first run, e.g. `npm test`'s browser-test build) is
 * awaited before the second, which holds the timing comparisons (QUIET_TEST_FILES).
 */
export async function runUnitTests(reportPath, beforeSecond = Promise.resolve()) {
  const shared = `${reportPath}.shared`;
  const isolated = `${reportPath}.isolated`;
  for (const file of [reportPath, shared, isolated]) rmSync(file, { force: true });
  let ok = true;
  try {
    await run("vitest", ["run", "--no-isolate", ...SECOND_RUN.flatMap((file) => ["--exclude", file]), ...reportArgs(shared)]);
  } catch {
    ok = false;
  }
  await beforeSecond;
  try {
    // The second run adds to the first's log lines (vitest.config.ts), for the log scan.
    await run("vitest", ["run", ...SECOND_RUN, ...reportArgs(isolated)], { env: { ...process.env, VITEST_LOG_APPEND: "1" } });
  } catch {
    ok = false;
  }
  const reports = [shared, isolated].filter((file) => existsSync(file)).map((file) => JSON.parse(readFileSync(file, "utf8")));
  if (reports.length === 2) {
    const sum = (key) => reports.reduce((total, report) => total + (report[key] ?? 0), 0);
    const merged = {
      numTotalTests: sum("numTotalTests"),
      numPassedTests: sum("numPassedTests"),
      numFailedTests: sum("numFailedTests"),
      numPendingTests: sum("numPendingTests"),
      numTodoTests: sum("numTodoTests"),
      testResults: reports.flatMap((report) => report.testResults ?? []),
    };
    writeFileSync(reportPath, JSON.stringify(merged));
  }
  return ok && reports.length === 2;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const passed = await runUnitTests(process.argv[2] ?? ".wrangler/vitest-report.json");
  if (!passed) process.exit(1);
}
