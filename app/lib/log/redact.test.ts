import { describe, expect, it } from "vitest";
import { DrizzleQueryError } from "drizzle-orm/errors";
import { isSensitiveKey, REDACTED, redactFields, scrubText, serializeError, withoutStatementValues } from "./redact";

const hash = (id: string) => `h(${id.length})`;

describe("a log line's fields", () => {
  it("redacts fields whose names say they hold secrets or personal data, whatever they hold", () => {
    const out = redactFields(
      {
        password: "hunter2",
        refreshToken: "abc",
        email: "ada@example.com",
        to: "+15551234567",
        security_answer_hash: "x",
        resetLink: "http://localhost/auth/callback?token=t",
        code: 123456,
        text: "Your code is 123456",
        "X-Api-Key": "k",
        status: 200,
        kind: "mail.send",
      },
      hash,
    );
    expect(out).toEqual({
      password: REDACTED,
      refreshToken: REDACTED,
      email: REDACTED,
      to: REDACTED,
      security_answer_hash: REDACTED,
      resetLink: REDACTED,
      code: REDACTED,
      text: REDACTED,
      "X-Api-Key": REDACTED,
      status: 200,
      kind: "mail.send",
    });
  });

  it("hashes account ids under a name that says so, nested too", () => {
    expect(redactFields({ userId: "0d6c0c1e-7d0e-4cf5-9a3e-2b5f8c1a9e77", adminId: "a1", nested: { user_id: "u" }, targetUserId: null }, hash)).toEqual({
      account: "h(36)",
      adminAccount: "h(2)",
      nested: { account: "h(1)" },
      targetAccount: null,
    });
  });
});

describe("a log line's strings", () => {
  it("masks secret-shaped values in any string: addresses, JWTs, bearer tokens, hashes, keys, queries, codes, random tokens", () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJlc2lnbmF0dXJl";
    const token = "q3Jv0xK2cW9tZl8yYm9ndXNfdG9rZW5fZm9yX3Rlc3Q1"; // 43 characters, base64url
    const text = [
      "no account for Ada.Lovelace+x@example.co.uk",
      `Authorization: Bearer ${jwt}`,
      `token ${jwt}`,
      "hash pbkdf2_sha256$100000$c2FsdA$aGFzaA",
      "key sk_test_modelify_vitest and whsec_abc123",
      "GET http://localhost/auth/callback?type=recovery&token=secret#frag",
      "your code is 654321",
      `refresh ${crypto.randomUUID()}.${token}.mac`,
    ].join("\n");
    const out = scrubText(text);
    for (const secret of ["Ada.Lovelace", "example.co.uk", jwt, "c2FsdA", "sk_test_modelify_vitest", "whsec_abc123", "token=secret", "654321", token]) {
      expect(out, secret).not.toContain(secret);
    }
    expect(out).toContain("[email]");
    expect(out).toContain("Bearer [redacted]");
    expect(out).toContain("http://localhost/auth/callback?[query]");
    expect(out).toContain("code is [code]");
  });

  it("leaves ordinary words, ids and numbers alone", () => {
    const text = "queue modelify-events: 3 messages, 1 retried in 125 ms (route /dashboard/admin/:id, export 0d6c0c1e-7d0e-4cf5-9a3e-2b5f8c1a9e77)";
    expect(scrubText(text)).toBe(text);
  });

  it("carries an error's name, scrubbed message and stack", () => {
    const error = new TypeError("no user ada@example.com");
    const out = serializeError(error);
    expect(out.name).toBe("TypeError");
    expect(out.message).toBe("no user [email]");
    expect(out.stack).toMatch(/^TypeError: no user \[email\]/);
    expect(redactFields({ error: out }, hash)).toEqual({ error: out });
    expect(serializeError("plain")).toEqual({ name: "string", message: "plain" });
  });

  it("bounds depth, arrays and long strings", () => {
    const deep = { a: { b: { c: { d: { e: { f: 1 } } } } } };
    expect(JSON.stringify(redactFields(deep, hash))).toContain('"[deep]"');
    expect((redactFields({ list: Array.from({ length: 50 }, (_, i) => i) }, hash).list as number[]).length).toBe(20);
    expect(scrubText("x".repeat(5000)).length).toBeLessThanOrEqual(1001);
  });

  it("knows which names are sensitive by their words", () => {
    for (const key of ["password", "newPassword", "access_token", "deviceCode", "userEmail", "replyTo", "phoneNumber", "apiKey", "ip", "cookie"]) {
      expect(isSensitiveKey(key), key).toBe(true);
    }
    for (const key of ["status", "route", "event", "kind", "attempts", "durationMs", "exportId", "reason", "names", "size"]) {
      expect(isSensitiveKey(key), key).toBe(false);
    }
  });
});

describe("a failed database statement", () => {
  it("shows the database's error and the SQL, never the values bound to it", () => {
    const cause = new Error("D1_ERROR: no such table: support_messages");
    const failed = new DrizzleQueryError("insert into support_messages (email, body) values (?, ?)", ["ann@example.com", "My card ends 4242"], cause);
    const shown = serializeError(failed);
    expect(shown).toMatchObject({ name: "Error", message: cause.message, query: "insert into support_messages (email, body) values (?, ?)" });
    expect(JSON.stringify(shown)).not.toMatch(/ann@|4242|params/);
    // Rethrown to the runtime (a queue batch to retry), it is the cause that leaves.
    expect(withoutStatementValues(failed)).toBe(cause);
    const bare = new DrizzleQueryError("select 1", ["secret"], undefined as unknown as Error);
    expect(JSON.stringify(serializeError(bare))).not.toContain("secret");
    expect(String(withoutStatementValues(bare))).not.toContain("secret");
    const plain = new Error("boom");
    expect(withoutStatementValues(plain)).toBe(plain);
  });
});
