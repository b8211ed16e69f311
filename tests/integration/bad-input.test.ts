// Whatever a client sends, the answer is a clear 4xx and nothing is written: never a 500.
import { SELF } from "cloudflare:test";
import { count } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "~/lib/db.server";
import { db, ORIGIN, uniqueIp } from "./helpers";

const FORM_ACTIONS = [
  "/auth?mode=signin",
  "/auth?mode=signup",
  "/auth?mode=forgot-password",
  "/auth/callback?type=signup&token=x",
  "/auth/reset-password",
  "/verify-phone?code=123456&phone=5551234567",
  "/auth/sign-out",
];
const API_ACTIONS = ["/api/v1/auth/token", "/api/v1/auth/refresh", "/api/v1/auth/device"];
// OAuth endpoints take RFC 6749's form bodies as well as JSON: a form missing fields is a 400.
const OAUTH_ENDPOINTS = new Set(["/api/v1/auth/token", "/api/v1/auth/device"]);

function post(path: string, body: BodyInit | null, headers: Record<string, string>) {
  return SELF.fetch(`${ORIGIN}${path}`, { method: "POST", body, redirect: "manual", headers: { Origin: ORIGIN, "CF-Connecting-IP": uniqueIp(), ...headers } });
}

async function rowCounts() {
  const [users, sessions, tokens] = await Promise.all([
    db.select({ n: count() }).from(schema.users),
    db.select({ n: count() }).from(schema.sessions),
    db.select({ n: count() }).from(schema.oneTimeTokens),
  ]);
  return { users: users[0]!.n, sessions: sessions[0]!.n, tokens: tokens[0]!.n };
}

const huge = "x".repeat(200 * 1024);

describe("form actions refuse malformed bodies", () => {
  const cases: Array<[string, BodyInit | null, Record<string, string>]> = [
    ["JSON instead of a form", JSON.stringify({ intent: "signin", email: "a@b.c", password: "12345678" }), { "Content-Type": "application/json" }],
    ["plain text", "hello", { "Content-Type": "text/plain" }],
    ["no body", null, { "Content-Type": "application/x-www-form-urlencoded" }],
    ["a huge body", `intent=signup&email=${huge}`, { "Content-Type": "application/x-www-form-urlencoded" }],
    ["broken multipart", "--x\r\nnot really multipart", { "Content-Type": "multipart/form-data; boundary=y" }],
    ["missing fields", "intent=signup", { "Content-Type": "application/x-www-form-urlencoded" }],
    [
      "repeated fields (wrong type)",
      "intent=signin&email=a@b.c&email=d@e.f&password=12345678&password=x",
      { "Content-Type": "application/x-www-form-urlencoded" },
    ],
    ["an unknown intent", "intent=delete-everything", { "Content-Type": "application/x-www-form-urlencoded" }],
    [
      "a huge field",
      `intent=signin&email=${"a".repeat(5000)}@example.com&password=${"p".repeat(5000)}`,
      { "Content-Type": "application/x-www-form-urlencoded" },
    ],
  ];
  for (const path of FORM_ACTIONS) {
    it.each(cases)(`${path}: %s`, async (_name, body, headers) => {
      const before = await rowCounts();
      const response = await post(path, body, headers);
      // Sign-out with a bad body still signs out (it has nothing to validate) and redirects.
      if (path === "/auth/sign-out") expect([302, 400, 413, 415]).toContain(response.status);
      else expect(response.status, await response.clone().text()).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(await rowCounts()).toEqual(before);
    });
  }

  it("shows the reason on the page", async () => {
    const tooBig = await post("/auth?mode=signin", `intent=signin&email=${huge}`, { "Content-Type": "application/x-www-form-urlencoded" });
    expect(tooBig.status).toBe(413);
    expect(await tooBig.text()).toContain("Request body is too large.");
    const json = await post("/auth?mode=signin", "{}", { "Content-Type": "application/json" });
    expect(json.status).toBe(415);
    expect(await json.text()).toContain("Please submit the form from the page.");
  });

  it("refuses cross-site form posts (Origin check)", async () => {
    const before = await rowCounts();
    const body = "intent=forgot-password&email=demo%40modelify.dev";
    // React Router's own CSRF check answers 400 on page actions; ours answers 403 everywhere else.
    const evil = await post("/auth?mode=forgot-password", body, { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://evil.example" });
    expect([400, 403]).toContain(evil.status);
    const evilSignOut = await post("/auth/sign-out", "redirectTo=/", { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://evil.example" });
    expect(evilSignOut.status).toBe(403);
    const noOrigin = await SELF.fetch(`${ORIGIN}/auth?mode=forgot-password`, {
      method: "POST",
      body,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(noOrigin.status).toBe(403);
    const sameSite = await SELF.fetch(`${ORIGIN}/auth?mode=forgot-password`, {
      method: "POST",
      body,
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin", "CF-Connecting-IP": uniqueIp() },
    });
    expect(sameSite.status).toBe(200);
    expect(await rowCounts()).toEqual(before);
  });
});

describe("API routes refuse malformed bodies with JSON errors", () => {
  const cases: Array<[string, BodyInit | null, Record<string, string>, number]> = [
    ["not JSON", "{email:", { "Content-Type": "application/json" }, 400],
    ["a form body", "email=a@b.c", { "Content-Type": "application/x-www-form-urlencoded" }, 415],
    ["no content type", "{}", {}, 415],
    ["an empty body", "", { "Content-Type": "application/json" }, 400],
    ["null", "null", { "Content-Type": "application/json" }, 400],
    ["an array", "[1,2]", { "Content-Type": "application/json" }, 400],
    ["wrong types", JSON.stringify({ email: 42, password: ["x"], refresh_token: 7 }), { "Content-Type": "application/json" }, 400],
    ["missing fields", "{}", { "Content-Type": "application/json" }, 400],
    ["a huge body", JSON.stringify({ email: huge, password: huge, refresh_token: huge }), { "Content-Type": "application/json" }, 413],
  ];
  for (const path of API_ACTIONS) {
    it.each(cases)(`${path}: %s`, async (name, body, headers, status) => {
      const before = await rowCounts();
      const response = await post(path, body, headers);
      expect(response.status).toBe(name === "a form body" && OAUTH_ENDPOINTS.has(path) ? 400 : status);
      const json = await response.json<{ error: string }>();
      expect(typeof json.error).toBe("string");
      expect(json.error.length).toBeGreaterThan(5);
      expect(await rowCounts()).toEqual(before);
    });
  }

  it("answers wrong methods and unknown API paths in JSON", async () => {
    expect((await SELF.fetch(`${ORIGIN}/api/v1/auth/token`)).status).toBe(405);
    expect((await post("/api/v1/me", "{}", { "Content-Type": "application/json" })).status).toBe(405);
    const unknown = await SELF.fetch(`${ORIGIN}/api/v1/nope`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "Not found" });
  });

  it("says what the OAuth endpoints take when refusing a content type: forms or JSON", async () => {
    for (const path of OAUTH_ENDPOINTS) {
      const response = await post(path, "client_id=x", { "Content-Type": "text/plain" });
      expect(response.status, path).toBe(415);
      expect(await response.json(), path).toEqual({
        error: "invalid_request",
        error_description: "Content-Type must be application/x-www-form-urlencoded or application/json",
      });
    }
  });

  it("gives field-level messages", async () => {
    const response = await post("/api/v1/auth/token", JSON.stringify({ email: "nope", password: "12345678" }), { "Content-Type": "application/json" });
    expect(await response.json()).toEqual({ error: "Please enter a valid email address" });
  });
});

describe("methods a route does not take", () => {
  it("answers 405 with Allow, in JSON on the API, never React Router's 'Unexpected Server Error'", async () => {
    for (const path of ["/api/v1/health", "/api/v1/openapi.json", "/api/v1/me", "/api/v1/entitlements"]) {
      const response = await SELF.fetch(`${ORIGIN}${path}`, { method: "POST", body: "{}", headers: { Origin: ORIGIN, "Content-Type": "application/json" } });
      expect(response.status, path).toBe(405);
      expect(response.headers.get("Allow"), path).toBe("GET, HEAD");
      expect(await response.json(), path).toEqual({ error: "Method not allowed" });
    }
    // OPTIONS too: React Router runs a loader for it as for GET (the account's data, before issue 30).
    for (const path of ["/api/v1/health", "/api/v1/openapi.json", "/api/v1/me", "/api/v1/entitlements"]) {
      const response = await SELF.fetch(`${ORIGIN}${path}`, { method: "OPTIONS" });
      expect(response.status, path).toBe(405);
      expect(response.headers.get("Allow"), path).toBe("GET, HEAD");
    }
    for (const path of ["/api/v1/usage", "/api/v1/auth/token", "/api/v1/entitlements/claim"]) {
      const response = await SELF.fetch(`${ORIGIN}${path}`);
      expect(response.status, path).toBe(405);
      expect(response.headers.get("Allow"), path).toBe("POST");
    }
    for (const path of ["/", "/api/v1/health", "/dashboard"]) {
      const response = await SELF.fetch(`${ORIGIN}${path}`, { method: "PROPFIND" });
      expect(response.status, path).toBe(405);
      expect(response.headers.get("Allow")).toBe("GET, HEAD, POST");
      expect(await response.text()).not.toContain("Unexpected Server Error");
    }
  });
});
