// Scans the log lines the Workers test suite wrote (vitest.config.ts keeps every console line in
// .wrangler/vitest-logs.ndjson) for secrets, tokens, codes and e-mail addresses: issue 30's
// acceptance. Run by `npm test` after vitest; fails when it finds one, or when there is nothing to
// scan (the capture would be broken). Usage: node scripts/log-scan.ts [file]
import { existsSync, readFileSync } from "node:fs";
import { scanLogLines, secretsOfVarsFile, VITEST_LOG_FILE } from "../tests/log-scan.ts";
import { TEST_SECRETS } from "../tests/test-secrets.ts";

const file = process.argv[2] ?? VITEST_LOG_FILE;
if (!existsSync(file)) {
  console.error(`log scan: ${file} does not exist: run the Workers tests first (npx vitest run).`);
  process.exit(1);
}
const text = readFileSync(file, "utf8");
const secrets = [
  ...Object.values(TEST_SECRETS),
  ...secretsOfVarsFile(readFileSync("tests/wrangler.test.toml", "utf8")),
  ...(existsSync(".dev.vars") ? secretsOfVarsFile(readFileSync(".dev.vars", "utf8")) : []),
];
const lines = text.split("\n").filter(Boolean);
const requestLines = lines.filter((line) => line.includes('"event":"request"') && line.includes('"requestId"')).length;
if (requestLines === 0) {
  console.error(`log scan: no request line among the ${lines.length} lines of ${file}: the capture is broken.`);
  process.exit(1);
}
const findings = scanLogLines(text, secrets);
if (findings.length > 0) {
  console.error(`log scan: ${findings.length} finding(s) in ${file}:`);
  for (const f of findings.slice(0, 50)) console.error(`  line ${f.line}: ${f.rule}: ${f.excerpt}`);
  process.exit(1);
}
console.log(`log scan: ${lines.length} lines (${requestLines} request lines), no secret, token, code or e-mail address.`);
