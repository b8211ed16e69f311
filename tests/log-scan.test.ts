// The log scan must be able to fail: each rule is fed a line it has to catch, and the lines the
// logger really writes pass.
import { describe, expect, it } from "vitest";
import { countRequestLines, scanLogLines, secretsOfVarsFile, withoutLocalAccessLines } from "./log-scan";

const rulesOf = (line: string, secrets: string[] = []) => scanLogLines(line, secrets).map((f) => f.rule);

describe("the log scan", () => {
  it("catches each kind of leak", () => {
    const token = "q3Jv0xK2cW9tZl8yYm9ndXNfdG9rZW5fZm9yX3Rlc3Q1";
    const cases: Array<[string, string]> = [
      ['{"event":"signin_failed","to":"ada@example.com"}', "e-mail address"],
      ['{"error":{"message":"bad token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig"}}', "JWT"],
      ["Authorization: Bearer abcdef0123456789", "bearer credential"],
      [`{"event":"refresh","value":"${crypto.randomUUID()}.${token}.mac"}`, "random token"],
      ['{"hash":"pbkdf2_sha256$100000$c2FsdA$aGFzaA"}', "password hash"],
      ['{"message":"Invalid API key sk_live_abc123"}', "Stripe secret"],
      ['{"event":"sms","code":"123456"}', "one-time code"],
      ["Your Modelify verification code is 654321.", "one-time code"],
      ['{"user_code":"BCDF-GHJK"}', "device user code"],
      ['{"event":"two_factor_enabled","userId":"0d6c0c1e-7d0e-4cf5-9a3e-2b5f8c1a9e77"}', "raw account id"],
      ['{"password":"hunter2!"}', "secret-named field"],
    ];
    for (const [line, rule] of cases) expect(rulesOf(line), line).toContain(rule);
  });

  it("catches a configured secret's value anywhere, and names only the line (the report does not repeat it)", () => {
    const findings = scanLogLines('ok\n{"event":"x","detail":"salt=log-salt-for-tests-0123456789abcdef"}', ["log-salt-for-tests-0123456789abcdef"]);
    expect(findings).toEqual([{ line: 2, rule: "configured secret", excerpt: expect.not.stringContaining("log-salt-for-tests") }]);
  });

  it("passes the lines the logger writes", () => {
    const lines = [
      '{"level":"info","event":"request","requestId":"9b2f1c3e-6a0d-4c51-8e7f-2d1b0a9c8e7f","method":"GET","route":"/dashboard/profile/export/:id","status":200,"durationMs":12,"d1Statements":3,"ledgerCalls":0,"account":"3f9a0c1b2d4e5f60"}',
      '{"level":"info","event":"queue_batch","requestId":"batch-1","queue":"modelify-events","messages":3,"acked":3,"retried":0,"deadLettered":0,"durationMs":40,"d1Statements":5,"kinds":[{"kind":"mail.send","count":3}]}',
      '{"level":"warn","event":"passkey_register_refused","account":"3f9a0c1b2d4e5f60","reason":"origin_mismatch","to":"[redacted]","detail":"no account for [email], code is [code]"}',
      '{"level":"error","event":"request","status":500,"error":{"name":"Error","message":"D1_ERROR: no such table","stack":"Error: D1_ERROR\\n    at run (file:///work/app/lib/db.server.ts:12:5)"}}',
    ].join("\n");
    expect(scanLogLines(lines, ["log-salt-for-tests-0123456789abcdef"])).toEqual([]);
  });

  it("reads the secret-named values of a vars file", () => {
    const toml = '[vars]\nAPP_ENV = "test"\nJWT_SECRET = "test-secret-0123456789"\nLOG_SALT=abc\n';
    expect(secretsOfVarsFile(toml)).toEqual(["test-secret-0123456789", "abc"]);
  });

  it("reads a local server's output without wrangler's own access lines, and still scans everything else", () => {
    const output = [
      "[wrangler:info] Ready on http://localhost:41234",
      '{"level":"info","event":"request","requestId":"9b2f1c3e-6a0d-4c51-8e7f-2d1b0a9c8e7f","method":"GET","route":"/auth/reset","status":200,"durationMs":9,"d1Statements":1,"ledgerCalls":0}',
      "\u001b[32m[wrangler:info]\u001b[39m \u001b[0m\u001b[1mGET\u001b[22m /auth/reset?token=q3Jv0xK2cW9tZl8yYm9ndXNfdG9rZW5fZm9yX3Rlc3Q1x \u001b[32m\u001b[1m200\u001b[22m OK \u001b[39m\u001b[90m(31ms)\u001b[39m\u001b[0m",
      "\u001b[31m✘ \u001b[41;31m[\u001b[41;97mERROR\u001b[41;31m]\u001b[0m \u001b[1mError inside ProxyWorker (the affected request failed; the dev server continues): POST http://localhost:38593/verify-phone?code=123456&phone=5551234567 (failed after 1 attempt): Network connection lost.\u001b[0m",
      "✘ [ERROR] Uncaught Error: no account for ada@example.com",
    ].join("\n");
    const findings = scanLogLines(withoutLocalAccessLines(output), []);
    expect(findings.map((f) => [f.line, f.rule])).toEqual([[5, "e-mail address"]]);
    expect(countRequestLines(output)).toBe(1);
    expect(scanLogLines(output, []).map((f) => f.rule)).toEqual(expect.arrayContaining(["random token", "one-time code", "e-mail address"]));
  });
});
