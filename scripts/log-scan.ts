// Scans log lines for secrets, tokens, codes and e-mail addresses: issue 30's acceptance. `npm test`
// runs it twice: after vitest over the Workers tests' lines (vitest.config.ts keeps every console
// line in .wrangler/vitest-logs.ndjson), and after Playwright over everything the browser tests'
// servers printed (tests/e2e/sites.ts: one file per site in .wrangler/e2e-logs). Fails when it finds
// one, or when there is no request line to scan (the capture would be broken).
// Usage: node scripts/log-scan.ts [file or directory ...]   (default: the vitest file)
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { countRequestLines, scanLogLines, secretsOfVarsFile, VITEST_LOG_FILE, withoutLocalAccessLines } from "../tests/log-scan.ts";
import { TEST_SECRETS } from "../tests/test-secrets.ts";
import { LOCAL_STRIPE } from "./lib.mjs";

const targets = process.argv.slice(2);
const files = (targets.length ? targets : [VITEST_LOG_FILE]).flatMap((target) => {
  if (!existsSync(target)) {
    console.error(`log scan: ${target} does not exist: run the tests that write it first (npm test).`);
    process.exit(1);
  }
  return statSync(target).isDirectory() ? readdirSync(target).map((name) => join(target, name)) : [target];
});

const secrets = [
  ...Object.values(TEST_SECRETS),
  LOCAL_STRIPE.STRIPE_SECRET_KEY,
  LOCAL_STRIPE.STRIPE_WEBHOOK_SECRET,
  ...secretsOfVarsFile(readFileSync("tests/wrangler.test.toml", "utf8")),
  ...(existsSync(".dev.vars") ? secretsOfVarsFile(readFileSync(".dev.vars", "utf8")) : []),
];

let lines = 0;
let requestLines = 0;
let failed = false;
for (const file of files) {
  const text = withoutLocalAccessLines(readFileSync(file, "utf8"));
  lines += text.split("\n").filter(Boolean).length;
  requestLines += countRequestLines(text);
  const findings = scanLogLines(text, secrets);
  if (findings.length === 0) continue;
  failed = true;
  console.error(`log scan: ${findings.length} finding(s) in ${file}:`);
  for (const f of findings.slice(0, 50)) console.error(`  line ${f.line}: ${f.rule}: ${f.excerpt}`);
}
if (failed) process.exit(1);
const where = files.length === 1 ? files[0] : `${files.length} files (${targets.join(", ")})`;
if (requestLines === 0) {
  console.error(`log scan: no request line among the ${lines} lines of ${where}: the capture is broken.`);
  process.exit(1);
}
console.log(`log scan: ${lines} lines of ${where} (${requestLines} request lines), no secret, token, code or e-mail address.`);
