// The log scan: finds what must never be in a log line (issue 30: "the log scan finds no secret,
// token, code or e-mail address in the whole suite's output"). vitest.config.ts writes every
// console line of the Workers tests to a file; scripts/log-scan.ts runs this over it after the
// suite (npm test). The rules are written apart from the logger's own (app/lib/log/redact.ts) on
// purpose: a gap in the logger's rules must not be the same gap here. Pure, so that
// tests/log-scan.test.ts proves each rule catches a bad line.

/** Where vitest.config.ts writes the suite's console lines, one per line. */
export const VITEST_LOG_FILE = ".wrangler/vitest-logs.ndjson";

/**
 * `wrangler dev`'s own lines that echo a request's URL: its access line for each request it serves
 * ("[wrangler:info] GET /path?query 200 OK (12ms)") and its proxy's report of a client that went
 * away mid-request ("Error inside ProxyWorker ...: POST http://localhost:1234/path?query ...").
 * They exist only on a local server (a deployed Worker's logs hold what the Worker writes), and the
 * URLs carry by design the one-time tokens of the links the site e-mails, or whatever the tests sent.
 */
const LOCAL_URL_LINES = [
  /^\[wrangler:info\] [A-Z]+ \S+ \d{3}\b/,
  /^✘ \[ERROR\] Error inside ProxyWorker \(the affected request failed[^)]*\): [A-Z]+ http:\/\/localhost:\d+\//,
];

/** Terminal colours and styles (wrangler colours its output when it thinks a terminal reads it). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character is what is matched
const ANSI_ESCAPE = /\u001b\[[0-9;]*m/g;

/**
 * A local server's output as plain text, with wrangler's URL-echoing lines blanked (kept as empty
 * lines, so findings keep their line numbers).
 */
export function withoutLocalAccessLines(text: string): string {
  return text
    .replace(ANSI_ESCAPE, "")
    .split("\n")
    .map((line) => (LOCAL_URL_LINES.some((pattern) => pattern.test(line)) ? "" : line))
    .join("\n");
}

/** How many of the lines are the Workers' request lines (a scan with none has read the wrong output). */
export const countRequestLines = (text: string) => text.split("\n").filter((line) => line.includes('"event":"request"') && line.includes('"requestId"')).length;

export type Finding = { line: number; rule: string; excerpt: string };

type Rule = { name: string; pattern: RegExp };

const RULES: Rule[] = [
  { name: "e-mail address", pattern: /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/ },
  { name: "JWT", pattern: /eyJ[A-Za-z0-9_-]{8,}/ },
  { name: "bearer credential", pattern: /\b(?:Bearer|Basic)\s+(?!\[)[A-Za-z0-9._~+/-]{8,}/i },
  // Refresh tokens, device codes, link tokens: 32 random bytes in base64url (43 characters) or more.
  { name: "random token", pattern: /(?<![A-Za-z0-9_-])(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{43,}(?![A-Za-z0-9_-])/ },
  { name: "password hash", pattern: /pbkdf2_sha256\$/ },
  { name: "Stripe secret", pattern: /\b(?:sk|rk)_(?:test|live)_[A-Za-z0-9]+|\bwhsec_[A-Za-z0-9]+/ },
  // A one-time code beside a word or key that names it: "code": "123456", code=123456, "your code is 123456".
  { name: "one-time code", pattern: /\b(?:code|otp|passcode|pin|user_?code|verification_?code)\b["']?\s*(?:[:=]|\bis\b)\s*["']?\d{6}\b/i },
  // A device sign-in code (eight letters as XXXX-XXXX) beside a code-ish word.
  { name: "device user code", pattern: /\b(?:code|user_?code)\b["']?\s*[:=]\s*["']?[A-Z]{4}-[A-Z]{4}\b/i },
  // An account id as it is (the logger writes a salted hash under "account").
  { name: "raw account id", pattern: /"(?:userId|user_id|accountId|adminId)"\s*:\s*"(?!\[)[^"]+"/ },
  {
    name: "secret-named field",
    pattern:
      /"(?:password|newPassword|passwordHash|token|accessToken|access_token|refreshToken|refresh_token|secret|apiKey|cookie)"\s*:\s*"(?!\[redacted\])[^"]+"/i,
  },
];

/** The part of a line around a finding, with the finding itself masked (the report must not leak it either). */
function excerpt(line: string, index: number, length: number): string {
  const start = Math.max(0, index - 40);
  return `${line.slice(start, index)}<${length} characters>${line.slice(index + length, index + length + 40)}`;
}

/** Every finding in `text` (one log line per line); `secrets` are values that must appear nowhere. */
export function scanLogLines(text: string, secrets: readonly string[]): Finding[] {
  const findings: Finding[] = [];
  const known = secrets.filter((s) => s.length >= 8);
  text.split("\n").forEach((line, i) => {
    for (const rule of RULES) {
      const match = rule.pattern.exec(line);
      if (match) findings.push({ line: i + 1, rule: rule.name, excerpt: excerpt(line, match.index, match[0].length) });
    }
    for (const secret of known) {
      const at = line.indexOf(secret);
      if (at >= 0) findings.push({ line: i + 1, rule: "configured secret", excerpt: excerpt(line, at, secret.length) });
    }
  });
  return findings;
}

/** The secret-looking values of a `KEY = "value"` / `KEY=value` file (wrangler vars, .dev.vars). */
export function secretsOfVarsFile(text: string): string[] {
  const values: string[] = [];
  for (const line of text.split("\n")) {
    const match = /^\s*([A-Z][A-Z0-9_]*)\s*=\s*"?([^"\n]*)"?\s*$/.exec(line);
    if (match && /SECRET|TOKEN|KEY|SALT|PASSWORD/.test(match[1]!) && match[2]) values.push(match[2]);
  }
  return values;
}
