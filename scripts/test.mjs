// `npm test`: every suite, nothing skipped. Unit and Workers integration tests run inside
// workerd (vitest); the browser end-to-end tests run Chromium against the built site.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { run } from "./lib.mjs";

const vitestReport = ".wrangler/vitest-report.json";
const e2eReport = ".wrangler/e2e-summary.json";
rmSync(vitestReport, { force: true });
rmSync(e2eReport, { force: true });

let failedStep = null;
try {
  await run("vitest", ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestReport}`]);
} catch {
  failedStep = "unit and integration tests";
}
try {
  await run("node", ["scripts/e2e.mjs"]);
} catch {
  failedStep ??= "browser end-to-end tests";
}

const unit = existsSync(vitestReport) ? JSON.parse(readFileSync(vitestReport, "utf8")) : null;
const e2e = existsSync(e2eReport) ? JSON.parse(readFileSync(e2eReport, "utf8")) : null;
const passed = (unit?.numPassedTests ?? 0) + (e2e?.passed ?? 0);
const failed = (unit?.numFailedTests ?? 0) + (e2e?.failed ?? 0);
const skipped = (unit?.numPendingTests ?? 0) + (unit?.numTodoTests ?? 0) + (e2e?.skipped ?? 0);

console.log(`\nunit + integration (workerd): ${unit?.numPassedTests ?? 0} passed; browser end-to-end (Chromium): ${e2e?.passed ?? 0} passed`);
if (skipped > 0) {
  failedStep ??= "skipped tests";
  console.error(`${skipped} test(s) were skipped: the suite must run everything.`);
}
if (!unit || !e2e) failedStep ??= "missing test report";
console.log(`${passed} passed, ${failed} failed`);
if (failedStep) {
  console.error(`npm test failed: ${failedStep}`);
  process.exit(1);
}
