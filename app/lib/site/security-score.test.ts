import { describe, expect, it } from "vitest";
import { SECURITY_SCORE_CHECKS, securityScore } from "./security-score";

const STRICT = {
  "Content-Security-Policy":
    "default-src 'self'; script-src 'self' 'nonce-abc'; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  "Strict-Transport-Security": "max-age=63072000; includeSubDomains",
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy": "camera=(), microphone=()",
};

describe("the security headers score", () => {
  it("grades the six headers graders look at, each an equal share", () => {
    expect(SECURITY_SCORE_CHECKS.map((c) => c.header)).toEqual(Object.keys(STRICT));
    expect(securityScore(new Headers(STRICT)).score).toBe(100);
    expect(securityScore(new Headers()).score).toBe(0);
  });

  it("withholds a header's share when it is missing or weaker than graders ask", () => {
    const weaker: Array<[string, string | null]> = [
      ["Content-Security-Policy", "default-src 'self'; script-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"],
      ["Content-Security-Policy", "default-src 'self'; script-src 'self'; base-uri 'none'; frame-ancestors 'none'"],
      ["Content-Security-Policy", "default-src 'self'; script-src 'self' 'unsafe-eval'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"],
      ["Strict-Transport-Security", "max-age=86400; includeSubDomains"],
      ["Strict-Transport-Security", "max-age=63072000"],
      ["Strict-Transport-Security", null],
      ["X-Frame-Options", "ALLOW-FROM https://example.com"],
      ["X-Content-Type-Options", "sniff"],
      ["Referrer-Policy", "unsafe-url"],
      ["Referrer-Policy", "strict-origin, unsafe-url"],
      ["Permissions-Policy", ""],
    ];
    for (const [header, value] of weaker) {
      const headers = new Headers(STRICT);
      if (value === null) headers.delete(header);
      else headers.set(header, value);
      const graded = securityScore(headers);
      expect(graded.score, `${header}: ${value}`).toBe(83);
      expect(graded.checks.find((c) => c.header === header)?.passed, `${header}: ${value}`).toBe(false);
    }
  });
});
