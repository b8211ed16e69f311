// The API answers as its OpenAPI document says (issue 30). Against this worker's site (the built
// Worker on workerd, fixtures.ts), every operation of the document the site serves gets its
// documented examples, real sign-ins and limits, and malformed requests: wrong and missing
// Content-Types, bodies that are not JSON, empty, of the wrong JSON type, too large, repeated form
// fields, missing and forged tokens, and methods the path does not take. Every answer is held to
// the document by openapi-checker.ts (ajv): a status it does not list, a body that does not match
// that answer's schema, or a missing required header fails the test. Two tests come first: the
// served document is the one the typed client (scripts/api/openapi.d.ts) was generated from, and
// the checker refuses answers that do not match the document.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Browser } from "@playwright/test";
import { newClientPage, nextClientAddress, signUpAndConfirm, uniqueEmail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";
import { type Answer, AnswerChecker, type OpenApiDocument } from "./openapi-checker.ts";

const PASSWORD = "Sunny-Day-42";
const FORM = "application/x-www-form-urlencoded";
const JSON_TYPE = "application/json";
/** Over every body limit of the API (the largest, /api/v1/usage, is 1 MiB). */
const TOO_LARGE = 2 * 1024 * 1024 + 1;

type Example = { summary: string; value: Record<string, unknown> };
type RequestBody = { content: Record<string, { examples?: Record<string, Example> }> };
type Sent = { method: string; path: string; type?: string; body?: string | Uint8Array<ArrayBuffer>; token?: string; authorization?: string };

async function loadChecker(baseURL: string) {
  const response = await fetch(`${baseURL}/api/v1/openapi.json`);
  expect(response.status).toBe(200);
  return new AnswerChecker((await response.json()) as OpenApiDocument);
}

/** One request to the site, from an address of its own (per-address limits stay per request). */
async function send(baseURL: string, { method, path, type, body, token, authorization }: Sent): Promise<Answer> {
  const headers: Record<string, string> = { "CF-Connecting-IP": nextClientAddress() };
  if (type) headers["Content-Type"] = type;
  if (token) headers.Authorization = `Bearer ${token}`;
  if (authorization) headers.Authorization = authorization;
  const response = await fetch(`${baseURL}${path}`, { method, headers, body, redirect: "manual" });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** A body in a media type: JSON, or the form encoding of the same fields. */
const encode = (type: string, value: Record<string, unknown>) =>
  type === FORM ? new URLSearchParams(Object.entries(value).map(([k, v]) => [k, String(v)])).toString() : JSON.stringify(value);

/** A new confirmed account's tokens, through the LEGACY password grant (the device grant needs a browser to approve it). */
async function signedUpTokens(browser: Browser, baseURL: string) {
  const page = await newClientPage(browser);
  const email = uniqueEmail("conformance");
  await signUpAndConfirm(page, email, PASSWORD);
  await page.context().close();
  const answer = await send(baseURL, { method: "POST", path: "/api/v1/auth/token", type: JSON_TYPE, body: JSON.stringify({ email, password: PASSWORD }) });
  expect(answer.status, answer.body).toBe(200);
  return { email, answer, tokens: JSON.parse(answer.body) as { access_token: string; refresh_token: string } };
}

/** Sends, checks against the document, and records what was sent and what was wrong. */
function recorder(baseURL: string, checker: AnswerChecker) {
  const problems: string[] = [];
  const covered = new Set<string>();
  return {
    problems,
    covered,
    async expectDocumented(name: string, sent: Sent): Promise<Answer> {
      const answer = await send(baseURL, sent);
      covered.add(`${sent.method.toLowerCase()} ${sent.path}`);
      for (const problem of checker.check(sent.path, sent.method.toLowerCase(), answer)) problems.push(`${sent.method} ${sent.path} (${name}): ${problem}`);
      return answer;
    },
    /** No answer broke the document, and every operation it lists was sent something. */
    expectAllDocumented() {
      expect(problems).toEqual([]);
      expect([...covered].sort()).toEqual(
        checker
          .operations()
          .map(({ path, method }) => `${method} ${path}`)
          .sort(),
      );
    },
  };
}

test("the site serves the very document the typed client was generated from", async ({ baseURL }) => {
  const served = await (await fetch(`${baseURL}/api/v1/openapi.json`)).text();
  const recorded = /^\/\/ openapi-sha256: ([0-9a-f]{64})$/m.exec(readFileSync("scripts/api/openapi.d.ts", "utf8"))?.[1];
  expect(createHash("sha256").update(served).digest("hex"), "run `npm run api:client`").toBe(recorded);
});

test("the checker refuses answers that the document does not allow", async ({ baseURL }) => {
  const checker = await loadChecker(baseURL!);
  const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({
    status,
    headers: new Headers({ "Content-Type": "application/json", ...headers }),
    body: JSON.stringify(body),
  });
  const problem = { index: null, path: "", message: "Request body is not valid JSON" };

  // What conforms passes...
  expect(checker.check("/api/v1/usage", "post", json(400, { error: "Invalid usage report", problems: [problem] }))).toEqual([]);
  expect(checker.check("/api/v1/health", "get", json(200, { ok: true }))).toEqual([]);
  // ...and each way of not conforming fails: a status not listed,
  expect(checker.check("/api/v1/usage", "post", json(418, { error: "teapot" }))[0]).toContain("status 418 is not listed");
  // the 400 this API used to send for a body that is not JSON (no problems),
  expect(checker.check("/api/v1/usage", "post", json(400, { error: "Request body is not valid JSON" }))[0]).toContain("must have required property 'problems'");
  // a body of the wrong shape, a field the schema does not have, a body that is not JSON,
  expect(checker.check("/api/v1/health", "get", json(200, { ok: false }))[0]).toContain("must be equal to constant");
  expect(checker.check("/api/v1/usage", "post", json(202, { accepted: 1, extra: true }))[0]).toContain("must NOT have additional properties");
  expect(checker.check("/api/v1/usage", "post", { status: 202, headers: new Headers({ "Content-Type": "application/json" }), body: "{" })[0]).toContain(
    "not JSON",
  );
  // a Content-Type the answer does not document, a required header missing,
  expect(checker.check("/api/v1/usage", "post", { ...json(202, { accepted: 1 }), headers: new Headers({ "Content-Type": "text/plain" }) })[0]).toContain(
    'Content-Type "text/plain" is not documented',
  );
  expect(checker.check("/api/v1/usage", "post", json(429, { error: "Too many requests" }))).toContain("header Retry-After is required and missing");
  // an OAuth error code the operation does not list, a 405 whose Allow is not the document's.
  expect(checker.check("/api/v1/auth/device", "post", json(400, { error: "slow_down", error_description: "x" })).join()).toContain(
    "must be equal to one of the allowed values",
  );
  expect(checker.checkWrongMethod("/api/v1/usage", json(405, { error: "Method not allowed" }, { Allow: "GET, HEAD" }))[0]).toContain("Allow is");
  expect(checker.checkWrongMethod("/api/v1/usage", json(404, { error: "Not found" }))[0]).toContain("where 405 is due");
});

test("every operation answers its documented examples, real sign-ins and limits as documented", async ({ baseURL, browser }) => {
  test.setTimeout(90_000);
  const checker = await loadChecker(baseURL!);
  const { problems, expectDocumented, expectAllDocumented } = recorder(baseURL!, checker);
  const { answer: signIn, tokens } = await signedUpTokens(browser, baseURL!);
  expect(checker.check("/api/v1/auth/token", "post", signIn)).toEqual([]);

  // Each documented example, in each media type it is documented for, with a real token where one is needed.
  const statuses: Record<string, number> = {};
  for (const { path, method, operation } of checker.operations()) {
    const token = (operation as { security?: unknown[] }).security?.length ? tokens.access_token : undefined;
    const content = (operation.requestBody as RequestBody | undefined)?.content ?? {};
    if (Object.keys(content).length === 0) {
      statuses[operation.operationId] = (await expectDocumented("as documented", { method: method.toUpperCase(), path, token })).status;
    }
    for (const [type, media] of Object.entries(content)) {
      for (const [name, example] of Object.entries(media.examples ?? {})) {
        // A fixed report_timestamp leaves the accepted 90 days; the example is sent as of now.
        const value = "report_timestamp" in example.value ? { ...example.value, report_timestamp: new Date().toISOString() } : example.value;
        const answer = await expectDocumented(`example ${name}, ${type}`, { method: method.toUpperCase(), path, type, body: encode(type, value), token });
        statuses[`${operation.operationId} ${name} ${type}`] = answer.status;
      }
    }
  }
  // The examples that carry no placeholder secret are accepted; the others are refused as documented.
  expect(statuses).toMatchObject({
    [`startDeviceAuthorization device ${JSON_TYPE}`]: 200,
    [`startDeviceAuthorization device ${FORM}`]: 200,
    [`requestTokens deviceGrant ${FORM}`]: 400,
    [`requestTokens passwordGrant ${JSON_TYPE}`]: 401,
    [`refreshTokens refresh ${JSON_TYPE}`]: 401,
    [`claimModelCall empty ${JSON_TYPE}`]: 200,
    [`reportUsage single ${JSON_TYPE}`]: 202,
    [`reportUsage batch ${JSON_TYPE}`]: 202,
    [`sendSecureReport aggregate ${JSON_TYPE}`]: 202,
    getAccount: 200,
    getEntitlements: 200,
    getHealth: 200,
  });

  // Real refreshes: the JSON route, then the token endpoint's refresh grant with the token it returned.
  const refreshed = await expectDocumented("a real refresh token", {
    method: "POST",
    path: "/api/v1/auth/refresh",
    type: JSON_TYPE,
    body: JSON.stringify({ refresh_token: tokens.refresh_token }),
  });
  expect(refreshed.status).toBe(200);
  const next = JSON.parse(refreshed.body) as { refresh_token: string };
  await expectDocumented("refresh grant, a real refresh token", {
    method: "POST",
    path: "/api/v1/auth/token",
    type: FORM,
    body: encode(FORM, { grant_type: "refresh_token", refresh_token: next.refresh_token, client_id: "modelify-desktop" }),
  });

  // The limits' answers: the free tier's claims past 3 a minute (429 with Retry-After and the
  // refusal's body), and code requests past 10 from one address.
  const claims = [];
  for (let i = 0; i < 4; i++)
    claims.push(await expectDocumented("claims past the minute's limit", { method: "POST", path: "/api/v1/entitlements/claim", token: tokens.access_token }));
  expect(claims.map((c) => c.status)).toContain(429);
  const address = nextClientAddress();
  const codes: number[] = [];
  const device = (checker.document.paths["/api/v1/auth/device"]!.post!.requestBody as RequestBody).content[FORM]!.examples!.device!.value;
  for (let i = 0; i < 11; i++) {
    const response = await fetch(`${baseURL}/api/v1/auth/device`, {
      method: "POST",
      headers: { "Content-Type": FORM, "CF-Connecting-IP": address },
      body: encode(FORM, device),
    });
    const answer = { status: response.status, headers: response.headers, body: await response.text() };
    codes.push(answer.status);
    for (const problem of checker.check("/api/v1/auth/device", "post", answer))
      problems.push(`POST /api/v1/auth/device (code requests from one address): ${problem}`);
  }
  expect(codes.at(-1)).toBe(429);

  expectAllDocumented();
});

/** Bodies no operation should act on, each with the Content-Type it is sent with. */
function malformedBodies(types: string[]): Array<{ name: string; type?: string; body: string | Uint8Array<ArrayBuffer> }> {
  const bodies: Array<{ name: string; type?: string; body: string | Uint8Array<ArrayBuffer> }> = [
    { name: "wrong Content-Type", type: "text/plain", body: '{"a":1}' },
    { name: "multipart", type: "multipart/form-data; boundary=x", body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n' },
    // Bytes, not a string: fetch would label a string text/plain.
    { name: "no Content-Type", body: new TextEncoder().encode('{"a":1}') },
    { name: "not JSON", type: JSON_TYPE, body: "{oops" },
    { name: "empty", type: JSON_TYPE, body: "" },
    { name: "JSON null", type: JSON_TYPE, body: "null" },
    { name: "JSON array", type: JSON_TYPE, body: "[1,2]" },
    { name: "JSON of the wrong types", type: JSON_TYPE, body: JSON.stringify({ client_id: 7, refresh_token: ["x"], reports: "all", report_hash: 1 }) },
    { name: "too large", type: JSON_TYPE, body: JSON.stringify({ pad: "x".repeat(TOO_LARGE) }) },
  ];
  if (types.includes(FORM)) {
    bodies.push(
      { name: "form, empty", type: FORM, body: "" },
      { name: "form, a field repeated", type: FORM, body: "client_id=a&client_id=b" },
      { name: "form, too large", type: FORM, body: `pad=${"x".repeat(TOO_LARGE)}` },
    );
  }
  return bodies;
}

test("malformed requests and methods a path does not take get documented answers, on every operation", async ({ baseURL, browser }) => {
  test.setTimeout(90_000);
  const checker = await loadChecker(baseURL!);
  const { problems, expectDocumented, expectAllDocumented } = recorder(baseURL!, checker);
  const { tokens } = await signedUpTokens(browser, baseURL!);
  const forged = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJub2JvZHkifQ.Zm9yZ2VkLXNpZ25hdHVyZS1mb3ItdGVzdHM";

  for (const { path, method, operation } of checker.operations()) {
    const verb = method.toUpperCase();
    const bearer = Boolean((operation as { security?: unknown[] }).security?.length);
    const types = Object.keys((operation.requestBody as RequestBody | undefined)?.content ?? {});
    if (verb !== "GET") {
      for (const { name, type, body } of malformedBodies(types)) {
        await expectDocumented(name, { method: verb, path, type, body, token: bearer ? tokens.access_token : undefined });
      }
    }
    // No token, a malformed one, a forged one: on public operations they change nothing.
    for (const [name, authorization] of [
      ["no token", undefined],
      ["a malformed token", "Bearer x"],
      ["a forged token", `Bearer ${forged}`],
      ["a Basic header", "Basic bm9ib2R5Og=="],
    ] as const) {
      await expectDocumented(name, { method: verb, path, type: types[0], body: types[0] ? "{}" : undefined, authorization });
    }
  }
  // Every method a path does not take.
  for (const path of Object.keys(checker.document.paths)) {
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].filter((m) => !checker.allowed(path).includes(m))) {
      const answer = await send(baseURL!, {
        method,
        path,
        type: method === "GET" ? undefined : JSON_TYPE,
        body: method === "GET" ? undefined : "{}",
        token: tokens.access_token,
      });
      for (const problem of checker.checkWrongMethod(path, answer)) problems.push(`${method} ${path}: ${problem}`);
    }
  }

  expectAllDocumented();
});
