// The features dialog's "Security Score" (the spec's "100/100"), as something that can be checked:
// the grade a page's security headers earn, one equal share for each header that header graders
// (such as securityheaders.com) look at, given only when it is set as strictly as they ask. The
// dialog shows the grade of the headers the site's pages carry (server/security-headers.ts); a
// test fetches a page and grades what it really got, so the claim cannot outlive the headers.

type Check = { header: string; passes: (value: string) => boolean };

const directives = (csp: string) =>
  new Map(
    csp
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values] as const),
  );

const ONE_YEAR_SECONDS = 365 * 24 * 3600;
const STRICT_REFERRERS = new Set(["no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin"]);

/** What each header must say to earn its share. */
export const SECURITY_SCORE_CHECKS: readonly Check[] = [
  {
    // A policy that would stop an injected script: a default, scripts by origin or nonce only (no
    // inline, no eval), no plugins, no <base> rewrites, and no framing.
    header: "Content-Security-Policy",
    passes: (value) => {
      const csp = directives(value);
      const scripts = csp.get("script-src") ?? csp.get("default-src") ?? [];
      return (
        csp.has("default-src") &&
        scripts.length > 0 &&
        !scripts.includes("'unsafe-inline'") &&
        !scripts.includes("'unsafe-eval'") &&
        !scripts.includes("*") &&
        (csp.get("object-src") ?? csp.get("default-src"))?.join(" ") === "'none'" &&
        csp.has("base-uri") &&
        csp.has("frame-ancestors")
      );
    },
  },
  {
    header: "Strict-Transport-Security",
    passes: (value) => {
      const maxAge = Number(/max-age=(\d+)/i.exec(value)?.[1] ?? 0);
      return maxAge >= ONE_YEAR_SECONDS && /includeSubDomains/i.test(value);
    },
  },
  { header: "X-Frame-Options", passes: (value) => ["DENY", "SAMEORIGIN"].includes(value.trim().toUpperCase()) },
  { header: "X-Content-Type-Options", passes: (value) => value.trim().toLowerCase() === "nosniff" },
  {
    header: "Referrer-Policy",
    // The last policy a browser understands is the one it uses.
    passes: (value) => STRICT_REFERRERS.has(value.split(",").at(-1)!.trim().toLowerCase()),
  },
  { header: "Permissions-Policy", passes: (value) => /\w[\w-]*=\(\)/.test(value) },
];

export type SecurityScore = { score: number; checks: Array<{ header: string; passed: boolean }> };

/** The grade out of 100 of a response's headers, and which header earned its share. */
export function securityScore(headers: Headers): SecurityScore {
  const checks = SECURITY_SCORE_CHECKS.map(({ header, passes }) => {
    const value = headers.get(header);
    return { header, passed: value !== null && passes(value) };
  });
  return { score: Math.round((100 * checks.filter((c) => c.passed).length) / checks.length), checks };
}
