// Whatever a client sends, the site answers below 500 and writes nothing. More than a thousand
// malformed requests go to every action and API route of the real local server (the test build
// served with `wrangler dev` on a site of this file's own, tests/e2e/sites.ts), 6 in flight, over HTTP/1.1: wrong methods and content
// types, broken JSON and multipart, fields of the wrong type, 2 MB+ bodies, chunked and lying
// framing (raw sockets), forged cookies and bearer tokens, foreign Origins. Browser-free.
//
// The D1 row counts (read straight from the local SQLite file, read-only) must be the same before
// and after, queue work included: both are taken once the queue has handled everything sent before
// (queue-drain.ts), and no message may have failed in the consumer meanwhile (it would come back as
// a retry and a dead letter later). Nobody else uses this site while the corpus runs.
// `attempt_counters` is left out: it counts failed attempts by design; so is `passkey_challenges`:
// anyone may ask for a sign-in challenge (five minutes, single use), as a sign-in page is for anyone.
// Broken chunk framing is answered by the local runtime's HTTP layer, not the app: see
// localRuntimeDefect. CORPUS_DUMP=<file> writes every outcome as JSON lines.
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { DatabaseSync } from "node:sqlite";
import { expect, test } from "@playwright/test";
import { findDatabase } from "./local-d1.ts";
import { consumerRetries, drainQueue } from "./queue-drain.ts";
import { startTestSite, type TestSite } from "./sites.ts";

// The site of this file (started in beforeAll): no other test writes to its database.
let site: TestSite;
let BASE_URL: string;
let BASE: URL;
const IN_FLIGHT = 6;
/** An ordinary request that gets no answer in this time is a failure. */
const ANSWER_TIMEOUT_MS = 10_000;
/** A request that is incomplete on purpose (lying Content-Length, unfinished chunks) is closed after this. */
const HANG_TIMEOUT_MS = 1_000;
const MIN_REQUESTS = 1_000;

// Seeded by scripts/seed.mjs (README "Demo accounts"). The admin session reaches the body
// parsing of routes that refuse anonymous callers first; the demo account is never used for a
// failed sign-in (other e2e files sign in with it, and five failures would lock it).
const ADMIN = { email: "admin@modelify.dev", password: "Modelify-Admin-2026" };
const DEMO = { email: "demo@modelify.dev", password: "Modelify-Demo-2026" };
// The local Stripe webhook secret (scripts/lib.mjs LOCAL_STRIPE) and the local JWT secret, when
// readable: they let the corpus send correctly signed but stale webhooks and tokens.
const WEBHOOK_SECRET = "whsec_local_modelify_standin";
let LOCAL_JWT_SECRET: string | null = null;

/** Tables that may change while the corpus runs. */
const UNCOUNTED_TABLES = new Set(["attempt_counters", "passkey_challenges", "d1_migrations"]);
const isInternalTable = (name: string) => name.startsWith("sqlite_") || name.startsWith("_cf_");

// ------------------------------------------------------------------------------------ routes

type Method = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";
type Fields = Record<string, unknown>;

type RouteSpec = {
  name: string;
  path: string;
  /** What its action reads: a form, JSON, or nothing (loader-only, or an action that ignores its body). */
  body: "form" | "json" | "none";
  /** Methods the route is meant to serve; every other one is a "wrong method" variant. */
  methods: Method[];
  /** A plausible body the route must still refuse (never one it would act on). */
  fields: Fields;
  /** A body the route WOULD act on, sent only from a foreign Origin: refused before the action, or rows appear. */
  crossSiteFields?: Fields;
  /** The route checks the caller before it reads a body: its body variants go signed in as the admin. */
  signedIn?: "cookie" | "bearer";
  /** Sent with every request (the webhook needs a signature header before it reads a body). */
  headers?: Record<string, string>;
  /** The dev pages answer only the local machine: send them from 127.0.0.1 so they reach their code. */
  loopback?: boolean;
};

const PAGE: Method[] = ["GET", "HEAD", "POST"];
const READ: Method[] = ["GET", "HEAD"];
const API_POST: Method[] = ["POST"];
const NOBODY = "corpus-nobody@example.com";
let addressCounter = 0;
/** A fresh address: sign-in locks an address after 4 failures, sign-up after 3 attempts (before it reads the form). */
const nobody = () => `corpus-${++addressCounter}-${randomBytes(3).toString("hex")}@example.com`;

const ROUTES: RouteSpec[] = [
  // Page actions (forms).
  {
    name: "/auth signin",
    path: "/auth?mode=signin",
    body: "form",
    methods: PAGE,
    get fields() {
      return { intent: "signin", email: nobody(), password: "Not-The-Password-1" };
    },
    crossSiteFields: { intent: "signin", email: DEMO.email, password: DEMO.password },
  },
  {
    name: "/auth signup",
    path: "/auth?mode=signup",
    body: "form",
    methods: PAGE,
    // Passwords differ: refused whichever single field a variant changes.
    get fields() {
      return signUpFields(nobody(), "Sunny-Day-43");
    },
    crossSiteFields: signUpFields(`corpus-cross-site-${randomUUID().slice(0, 8)}@example.com`, "Sunny-Day-42"),
  },
  {
    name: "/auth forgot-password",
    path: "/auth?mode=forgot-password",
    body: "form",
    methods: PAGE,
    fields: { intent: "forgot-password", email: "not-an-address" },
    crossSiteFields: { intent: "forgot-password", email: DEMO.email },
  },
  { name: "/auth no intent", path: "/auth", body: "form", methods: PAGE, fields: { email: NOBODY, password: "Not-The-Password-1" } },
  {
    name: "/auth/callback",
    path: "/auth/callback?type=signup&token=corpus",
    body: "form",
    methods: PAGE,
    fields: { token: "corpus-not-a-token", password: "Not-The-Password-1" },
  },
  {
    name: "/auth/reset-password",
    path: "/auth/reset-password",
    body: "form",
    methods: PAGE,
    fields: { password: "Sunny-Day-42", confirmPassword: "Sunny-Day-43" },
  },
  { name: "/auth/sign-out", path: "/auth/sign-out", body: "form", methods: PAGE, fields: { redirectTo: "//evil.example/" } },
  { name: "/billing/checkout", path: "/billing/checkout", body: "none", methods: ["POST"], fields: { plan: "pro" } },
  { name: "/billing/portal", path: "/billing/portal", body: "none", methods: PAGE, fields: { returnTo: "/dashboard" } },
  {
    name: "/dashboard/admin",
    path: "/dashboard/admin",
    body: "form",
    methods: PAGE,
    signedIn: "cookie",
    fields: { intent: "corpus-unknown", email: DEMO.email, status: "active" },
  },
  {
    name: "/dashboard/budget",
    path: "/dashboard/budget",
    body: "form",
    methods: PAGE,
    signedIn: "cookie",
    // Two invalid amounts, first: still refused whichever single field a variant changes, and
    // when a lying Content-Length cuts the body in half (missing amounts would count as 0).
    fields: { monthlyBudget: "-5", dailyBudget: "-1", intent: "save-budget", alertThreshold: "3" },
  },
  {
    // "E-mail me the download link" (issue 46): only its own button's field is read.
    name: "/dashboard/downloads",
    path: "/dashboard/downloads",
    body: "form",
    methods: PAGE,
    signedIn: "cookie",
    // The address first: a body cut in half never reads as the button alone.
    fields: { to: "corpus-nobody@example.com", intent: "email-link-to" },
    crossSiteFields: { intent: "email-link" },
  },
  {
    name: "/verify-phone",
    path: "/verify-phone?code=123456&phone=5551234567",
    body: "form",
    methods: PAGE,
    signedIn: "cookie",
    fields: { code: "12345", phone: "12" },
  },
  // The profile (issue 10): every body below is one the routes must refuse.
  {
    name: "/dashboard/profile",
    path: "/dashboard/profile?edit=1",
    body: "form",
    methods: PAGE,
    signedIn: "cookie",
    // Several invalid fields, the first one first: a variant that changes or cuts one still fails.
    fields: { firstName: "A", lastName: "B", intent: "save", email: "not-an-address", website: "nodot", username: "ab", timezone: "Mars/Olympus" },
  },
  {
    name: "/dashboard/profile/phone",
    path: "/dashboard/profile/phone",
    body: "form",
    methods: API_POST,
    signedIn: "cookie",
    // Only a code that is not six digits: a variant must never send a text (it would write the outbox).
    fields: { intent: "verify", code: "12" },
  },
  {
    name: "/dashboard/profile/sessions",
    path: "/dashboard/profile/sessions",
    body: "form",
    methods: API_POST,
    signedIn: "cookie",
    fields: { intent: "end", sessionId: "not-a-session" },
    crossSiteFields: { intent: "end-others" },
  },
  // Passkeys (issue 29): a sign-in challenge takes no body; an answer must be a WebAuthn response;
  // the profile's forms act only on the caller's own passkeys.
  { name: "/auth/passkey/options", path: "/auth/passkey/options", body: "none", methods: API_POST, fields: {} },
  {
    name: "/auth/passkey/verify",
    path: "/auth/passkey/verify",
    body: "json",
    methods: API_POST,
    fields: { response: { id: "AAAA", rawId: "AAAA", type: "public-key", response: { clientDataJSON: "e30", authenticatorData: "AA", signature: "AA" } } },
  },
  {
    name: "/dashboard/profile/passkeys",
    path: "/dashboard/profile/passkeys",
    body: "form",
    methods: API_POST,
    signedIn: "cookie",
    fields: { intent: "rename", id: "not-a-passkey", name: "" },
  },
  // Its GET only reads (the setup's secret is made by the "start" POST), and that POST is ours only.
  {
    name: "/dashboard/profile/two-factor",
    path: "/dashboard/profile/two-factor",
    body: "form",
    methods: PAGE,
    signedIn: "cookie",
    fields: { intent: "corpus-unknown", code: "12", password: "" },
    crossSiteFields: { intent: "start" },
  },
  // Contact Support (issue 12): every field invalid, so a variant that fixes one still sends nothing.
  {
    name: "/contact",
    path: "/contact",
    body: "form",
    methods: PAGE,
    fields: { name: "", email: "not-an-address", subject: "", message: "", priority: "urgent" },
    crossSiteFields: { name: "Cross Site", email: "corpus-cross-site@example.com", subject: "Hi", message: "Hello", priority: "low" },
  },
  {
    name: "/dashboard/admin/support",
    path: "/dashboard/admin/support",
    body: "form",
    methods: PAGE,
    signedIn: "cookie",
    fields: { intent: "corpus-unknown", id: "not-a-message" },
    crossSiteFields: { intent: "close", id: "not-a-message" },
  },
  { name: "/api-setup", path: "/api-setup?provider=openai", body: "none", methods: READ, fields: {} },
  { name: "/legal/privacy", path: "/legal/privacy", body: "none", methods: READ, fields: {} },
  // The early-access programme (issue 11): the waitlist, redeeming, and the admin area.
  {
    name: "/early-access",
    path: "/early-access?ref=corpus",
    body: "form",
    methods: PAGE,
    // Three invalid fields: a variant that changes or drops one still joins nobody.
    fields: { email: "not-an-address", firstName: "", lastName: "", company: "Corpus" },
    crossSiteFields: { email: "corpus-cross-site@example.com", firstName: "Cross", lastName: "Site" },
  },
  {
    name: "/activate",
    path: "/activate",
    body: "form",
    methods: PAGE,
    signedIn: "cookie",
    fields: { key: "corpus" },
    crossSiteFields: { key: "AAAA-BBBB-CCCC-DDDD" },
  },
  {
    name: "/dashboard/admin/early-access",
    path: "/dashboard/admin/early-access",
    body: "form",
    methods: PAGE,
    signedIn: "cookie",
    fields: { intent: "corpus-unknown", waitlistId: "not-an-id", keyId: "not-an-id", count: "0" },
    crossSiteFields: { intent: "grant-top", count: "1" },
  },
  {
    name: "/dashboard/admin/early-access/keys.csv",
    path: "/dashboard/admin/early-access/keys.csv",
    body: "form",
    methods: API_POST,
    signedIn: "cookie",
    fields: { count: "0" },
    crossSiteFields: { count: "1" },
  },
  { name: "/dashboard/profile/image", path: "/dashboard/profile/image?kind=avatar", body: "none", methods: API_POST, signedIn: "cookie", fields: {} },
  { name: "/profile/confirm-email", path: "/profile/confirm-email?token=corpus", body: "form", methods: PAGE, fields: { token: "corpus-not-a-token" } },
  {
    name: "/profile/cancel-email-change",
    path: "/profile/cancel-email-change?token=corpus",
    body: "form",
    methods: PAGE,
    fields: { token: "corpus-not-a-token" },
  },
  {
    name: "/profile-images",
    path: "/profile-images/00000000-0000-4000-8000-000000000000/profile.png",
    body: "none",
    methods: READ,
    signedIn: "cookie",
    fields: {},
  },
  { name: "/dev/outbox", path: "/dev/outbox", body: "none", methods: READ, loopback: true, fields: {} },
  { name: "/dev/outbox.json", path: "/dev/outbox.json?to=demo%40modelify.dev", body: "none", methods: READ, loopback: true, fields: {} },
  { name: "/dashboard/usage.csv", path: "/dashboard/usage.csv", body: "none", methods: READ, fields: {} },
  // The tidy exports (issue 49): a range the account cannot have, signed in and not.
  ...(["requests", "days", "models"] as const).map((file) => ({
    name: `/dashboard/usage/${file}.csv`,
    path: `/dashboard/usage/${file}.csv?from=2026-02-30&to=1999-01-01&group_by=%00&status=maybe`,
    body: "none" as const,
    methods: READ,
    signedIn: "cookie" as const,
    fields: {},
  })),
  {
    name: "/downloads/prepare",
    path: "/downloads/prepare",
    body: "form",
    methods: API_POST,
    signedIn: "cookie",
    // Both fields unknown: a variant that changes one still names no build.
    fields: { platform: "beos", arch: "m68k" },
    crossSiteFields: { platform: "windows", arch: "x64" },
  },
  {
    name: "/downloads/file",
    path: "/downloads/file/bm90LWEtdG9rZW4.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    body: "none",
    methods: READ,
    fields: {},
    signedIn: "cookie",
  },
  // First-party marketing events (issue 12): a name browsers may not send and a foreign path, so a
  // variant that fixes one of them is still refused; the cross-site body is one it would record.
  {
    name: "/events",
    path: "/events",
    body: "json",
    methods: API_POST,
    fields: { name: "CompleteRegistration", path: "//evil.example/" },
    crossSiteFields: { name: "ViewContent", path: "/" },
  },
  { name: "/dashboard/admin/funnel", path: "/dashboard/admin/funnel", body: "none", methods: READ, fields: {}, signedIn: "cookie" },
  // The admin upload of a build (JSON, and a raw part body): admins only, refused before R2 or D1.
  {
    name: "/dashboard/admin/releases/create",
    path: "/dashboard/admin/releases/create",
    body: "json",
    methods: API_POST,
    signedIn: "cookie",
    fields: { optionId: "beos-m68k", version: "1.0", size: 10 },
  },
  {
    name: "/dashboard/admin/releases/part",
    path: "/dashboard/admin/releases/part?optionId=beos-m68k&version=1.0.0&key=releases%2Fx&uploadId=corpus&partNumber=0",
    body: "none",
    methods: API_POST,
    signedIn: "cookie",
    fields: {},
  },
  {
    name: "/dashboard/admin/releases/complete",
    path: "/dashboard/admin/releases/complete",
    body: "json",
    methods: API_POST,
    signedIn: "cookie",
    fields: { optionId: "beos-m68k", version: "1.0", key: "releases/x", uploadId: "corpus", parts: [{ partNumber: 1, etag: "corpus" }] },
  },
  {
    name: "/dashboard/admin/releases/abort",
    path: "/dashboard/admin/releases/abort",
    body: "json",
    methods: API_POST,
    signedIn: "cookie",
    fields: { optionId: "beos-m68k", version: "1.0", key: "releases/x", uploadId: "corpus" },
  },
  // The JSON API.
  {
    name: "/api/v1/auth/token",
    path: "/api/v1/auth/token",
    body: "json",
    methods: API_POST,
    get fields() {
      return { email: nobody(), password: "Not-The-Password-1" };
    },
  },
  // The token endpoint's refresh grant (RFC 6749 6), form-encoded as OAuth libraries send it.
  {
    name: "/api/v1/auth/token refresh grant",
    path: "/api/v1/auth/token",
    body: "form",
    methods: API_POST,
    fields: { grant_type: "refresh_token", refresh_token: "corpus-not-a-refresh-token", client_id: "modelify-desktop" },
  },
  // The device authorization request: two invalid fields, so a variant that fixes one asks for no code.
  {
    name: "/api/v1/auth/device",
    path: "/api/v1/auth/device",
    body: "form",
    methods: API_POST,
    fields: { client_id: "modelify-desktop", device_name: "", platform: "beos", app_version: "1.0.0", app_instance_id: "corpus" },
  },
  { name: "/api/v1/auth/refresh", path: "/api/v1/auth/refresh", body: "json", methods: API_POST, fields: { refresh_token: "corpus-not-a-refresh-token" } },
  { name: "/api/v1/me", path: "/api/v1/me", body: "none", methods: READ, fields: {} },
  { name: "/api/v1/entitlements", path: "/api/v1/entitlements", body: "none", methods: READ, fields: {} },
  // A strict claim (estimate, model, provider): any other field is refused before the ledger is asked.
  {
    name: "/api/v1/entitlements/claim",
    path: "/api/v1/entitlements/claim",
    body: "json",
    methods: API_POST,
    signedIn: "bearer",
    fields: { model_name: "corpus-model" },
  },
  // A strict schema: the extra key keeps every variant invalid, so nothing is enqueued.
  { name: "/api/v1/usage", path: "/api/v1/usage", body: "json", methods: API_POST, signedIn: "bearer", fields: { ...usageReport(), corpus_extra_key: true } },
  {
    name: "/api/v1/usage/secure-report",
    path: "/api/v1/usage/secure-report",
    body: "json",
    methods: API_POST,
    signedIn: "bearer",
    fields: { ...secureReport(), corpus_extra_key: true },
  },
  { name: "/api/v1/health", path: "/api/v1/health", body: "none", methods: READ, fields: {} },
  { name: "/api/v1/openapi.json", path: "/api/v1/openapi.json", body: "none", methods: READ, fields: {} },
  {
    name: "/api/stripe/webhook",
    path: "/api/stripe/webhook",
    body: "json",
    methods: API_POST,
    headers: { "Stripe-Signature": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` },
    fields: { id: "evt_corpus", object: "event", type: "customer.subscription.updated", data: { object: { id: "sub_corpus", customer: "cus_corpus" } } },
  },
  { name: "/api/v1 unknown", path: "/api/v1/corpus-unknown", body: "none", methods: [], fields: {} },
  // The documents under /.well-known/ (RFC 8414, RFC 9116), and what is not a page: an unknown
  // document or file answers 404 (issue 30).
  { name: "/.well-known/oauth-authorization-server", path: "/.well-known/oauth-authorization-server", body: "none", methods: READ, fields: {} },
  { name: "/.well-known/security.txt", path: "/.well-known/security.txt", body: "none", methods: READ, fields: {} },
  { name: "unknown /.well-known/ document", path: "/.well-known/corpus-unknown", body: "none", methods: [], fields: {} },
  { name: "/favicon.ico", path: "/favicon.ico", body: "none", methods: [], fields: {} },
  { name: "unknown file", path: "/corpus.php?x=1", body: "none", methods: [], fields: {} },
  // Pages without an action, and unknown pages (they redirect home).
  { name: "/ (no action)", path: "/", body: "none", methods: READ, fields: {} },
  { name: "/waitlist", path: "/waitlist", body: "none", methods: [], fields: {} },
  { name: "unknown page", path: "/corpus/no/such/page?x=1", body: "none", methods: [], fields: {} },
  { name: "unknown page, bad escapes", path: "/%E0%A4%A/%ZZ/..%2f..%2fetc%2fpasswd", body: "none", methods: [], fields: {} },
];

function signUpFields(email: string, confirmPassword: string): Fields {
  return {
    intent: "signup",
    firstName: "Corpus",
    lastName: "Tester",
    email,
    phoneNumber: "555 010 9876",
    securityQuestion: "favorite_food",
    securityAnswer: "pie",
    password: "Sunny-Day-42",
    confirmPassword,
  };
}

function usageReport(): Fields {
  return {
    report_id: randomUUID(),
    model_name: "corpus-model",
    model_provider: "corpus",
    request_type: "chat",
    tokens_used: 10,
    tokens_input: 6,
    tokens_output: 4,
    cost_usd: 0.01,
    request_duration_ms: 100,
    success: true,
    error_message: null,
    metadata: { conversation_id: "corpus" },
    app_version: "1.0.0",
    app_instance_id: "corpus",
  };
}

function secureReport(): Fields {
  return {
    report_hash: "corpus-report-hash-0001",
    model_name: "corpus-model",
    provider: "corpus",
    tokens_used: 10,
    cost: 0.01,
    request_count: 2,
    success_count: 1,
    error_count: 1,
    report_timestamp: Date.now(),
    app_version: "1.0.0",
    app_instance_id: "corpus",
  };
}

// ---------------------------------------------------------------------------------- requests

type Req = {
  route: string;
  variant: string;
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body?: Buffer;
  /** The whole request as bytes, for framing node:http will not produce (sent over a plain socket). */
  raw?: (host: string, ip: string) => Buffer;
  /** Incomplete on purpose: no answer within HANG_TIMEOUT_MS is fine (the server waits for bytes). */
  mayHang?: boolean;
};

/** What a variant builder sees: the route, and the headers and encodings it should use. */
type Ctx = { route: RouteSpec; session: Session };
type Session = { accessToken: string; sid: string; sub: string };
type Variant = { name: string; build: (ctx: Ctx) => Omit<Req, "route" | "variant"> };

const MB = 1024 * 1024;
const isApi = (route: RouteSpec) => route.path.startsWith("/api/");

function formBody(fields: Fields): Buffer {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, typeof v === "string" ? v : JSON.stringify(v));
  }
  return Buffer.from(params.toString());
}
const jsonBody = (value: unknown) => Buffer.from(JSON.stringify(value));
const FORM = "application/x-www-form-urlencoded";
const JSON_TYPE = "application/json";

/** The route's own encoding of a body. */
function natural(route: RouteSpec, fields: Fields = route.fields): { type: string; body: Buffer } {
  const json = route.body === "json" || (route.body === "none" && isApi(route));
  return json ? { type: JSON_TYPE, body: jsonBody(fields) } : { type: FORM, body: formBody(fields) };
}

/** A POST (or the given method) with a body of the given type; signed in where the route needs it. */
function post(ctx: Ctx, type: string | null, body: Buffer, extra: Record<string, string | string[]> = {}, method = "POST") {
  return { method, path: ctx.route.path, headers: { ...credentials(ctx), ...(type === null ? {} : { "Content-Type": type }), ...extra }, body };
}

/** A cookie value as React Router's createCookie writes it (base64 of JSON), so forged tokens reach the token check. */
const cookieValue = (value: string) => encodeURIComponent(Buffer.from(JSON.stringify(value)).toString("base64"));

/** Body variants go signed in on routes that check the caller first. */
function credentials(ctx: Ctx): Record<string, string> {
  if (ctx.route.signedIn === "cookie") return { Cookie: `mfy_access=${cookieValue(ctx.session.accessToken)}` };
  if (ctx.route.signedIn === "bearer") return { Authorization: `Bearer ${ctx.session.accessToken}` };
  return {};
}

const nested = (depth: number, open: string, close: string, inner = "") => open.repeat(depth) + inner + close.repeat(depth);
const repeatTo = (unit: string, bytes: number) => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);

const HUGE_FORM_TAIL = repeatTo("x", 2 * MB + 17);
const HUGE_BINARY = randomBytes(3 * MB);
const CONTROL = "\u0000\u0001\u0007\b\t\n\u000b\f\r\u001b\u007f\u0085";
const UNICODE = "Ωμέγα 👩🏽‍💻 مرحبا \u202eevil\u202c \u200b\u200d\ufeff e\u0301 \uffff 𝕳";

// The values a field of the wrong type gets (JSON bodies), as JSON text: Node's own
// JSON.stringify cannot even produce the 10k-deep one (it runs out of stack).
const JSON_VALUES: Array<[string, string]> = [
  ["a number", "42"],
  ["a huge integer", "123456789012345678901234567890"],
  ["a number out of range", "-1e999"],
  ["an object", '{"$ne":null,"toString":"x","__proto__":{"role":"admin"}}'],
  ["an array", '["a",1,null]'],
  ["an object holding a 10k-deep array", `{"k":${nested(10_000, "[", "]")}}`],
  ["null", "null"],
  ["true", "true"],
  ["an empty string", '""'],
  ["a 20 KB string", JSON.stringify(repeatTo("abc", 20 * 1024))],
  ["control characters", JSON.stringify(`a${CONTROL}b`)],
  ["unicode", JSON.stringify(UNICODE)],
  ["a lone surrogate", '"x\\ud800y"'],
];

/** The route's fields as JSON, with one field's value replaced by raw JSON text. */
function jsonWith(fields: Fields, key: string, valueText: string): Buffer {
  const marker = `"corpus-value-${randomUUID()}"`;
  return Buffer.from(JSON.stringify({ ...fields, [key]: JSON.parse(marker) }).replace(marker, () => valueText));
}

// The values a field gets in a form (everything is text there, so: shapes and characters).
const FORM_VALUES: Array<[string, (key: string) => string]> = [
  ["repeated", (k) => `${k}=a&${k}=b&${k}=`],
  ["empty", (k) => `${k}=`],
  ["a 20 KB value", (k) => `${k}=${repeatTo("a", 20 * 1024)}`],
  ["control characters", (k) => `${k}=${encodeURIComponent(`a${CONTROL}b`)}`],
  ["unicode", (k) => `${k}=${encodeURIComponent(UNICODE)}`],
  ["broken percent escapes", (k) => `${k}=%E0%A4%A%ZZ%`],
  ["array-style name", (k) => `${k}[]=a&${k}[0]=b&${k}[x][y]=c`],
  ["a JSON-looking value", (k) => `${k}=${encodeURIComponent('{"$gt":""}')}`],
];

function withoutField(fields: Fields, key: string): string {
  const rest = Object.fromEntries(Object.entries(fields).filter(([k]) => k !== key));
  const encoded = formBody(rest).toString();
  return encoded ? `${encoded}&` : "";
}

// Forged and stale tokens. The real session's ids make the forgeries as convincing as possible.
function jwt(header: object, payload: object, secret: string | null): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const unsigned = `${part(header)}.${part(payload)}`;
  return secret === null ? `${unsigned}.` : `${unsigned}.${createHmac("sha256", secret).update(unsigned).digest("base64url")}`;
}
function claims(session: Session, overrides: object = {}) {
  const now = Math.floor(Date.now() / 1000);
  return { sid: session.sid, sub: session.sub, iss: "modelify", aud: "modelify", iat: now, exp: now + 900, ...overrides };
}
const HS256 = { alg: "HS256", typ: "JWT" };
const WRONG_KEY = "not-the-secret-not-the-secret-123";
const forgedWrongKey = (s: Session) => jwt(HS256, { ...claims(s), role: "admin" }, WRONG_KEY);
const forgedNone = (s: Session) => jwt({ alg: "none", typ: "JWT" }, claims(s), null);
// With the real local key where readable: only the expiry, the session or the user is wrong.
const expired = (s: Session) => jwt(HS256, claims(s, { iat: 1_600_000_000, exp: 1_600_000_900 }), LOCAL_JWT_SECRET ?? WRONG_KEY);
const unknownSession = (s: Session) => jwt(HS256, claims(s, { sid: randomUUID() }), LOCAL_JWT_SECRET ?? WRONG_KEY);
const otherUser = (s: Session) => jwt(HS256, claims(s, { sub: randomUUID() }), LOCAL_JWT_SECRET ?? WRONG_KEY);

/** The request a header variant rides on: the route's main method, with its usual body. */
function ordinary(ctx: Ctx, headers: Record<string, string | string[]>): Omit<Req, "route" | "variant"> {
  const { route } = ctx;
  if (route.body === "none" && route.methods.includes("GET")) return { method: "GET", path: route.path, headers };
  const { type, body } = natural(route);
  return { method: "POST", path: route.path, headers: { "Content-Type": type, ...headers }, body };
}

function stripeSignature(body: string, timestamp: number) {
  return `t=${timestamp},v1=${createHmac("sha256", WEBHOOK_SECRET).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** A raw HTTP/1.1 request; `head` lines come without the request line, Host and Connection. */
function rawRequest(ctx: Ctx, method: string, head: string[], body: Buffer | string): (host: string, ip: string) => Buffer {
  const extra = Object.entries({ ...ctx.route.headers, ...credentials(ctx) }).map(([k, v]) => `${k}: ${v}`);
  return (host, ip) =>
    Buffer.concat([
      Buffer.from(
        [
          `${method} ${ctx.route.path} HTTP/1.1`,
          `Host: ${host}`,
          "Connection: close",
          `Origin: ${BASE.origin}`,
          `CF-Connecting-IP: ${ip}`,
          ...extra,
          ...head,
          "",
          "",
        ].join("\r\n"),
        "latin1",
      ),
      typeof body === "string" ? Buffer.from(body, "latin1") : body,
    ]);
}
const raw = (ctx: Ctx, head: string[], body: Buffer | string, more: Partial<Req> = {}) => ({
  method: "POST",
  path: ctx.route.path,
  headers: {},
  raw: rawRequest(ctx, "POST", head, body),
  ...more,
});
const chunked = (parts: string[]) => `${parts.map((p) => `${Buffer.byteLength(p, "latin1").toString(16)}\r\n${p}\r\n`).join("")}0\r\n\r\n`;

// ------------------------------------------------------------------------------ variant groups

const ALL_METHODS: string[] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND"];

const GROUPS: Record<string, (route: RouteSpec) => Variant[]> = {
  "wrong method": (route) =>
    ALL_METHODS.filter((m) => !route.methods.includes(m as Method)).map((method) => ({
      name: method,
      build: (ctx) => {
        if (method === "GET" || method === "HEAD") return { method, path: route.path, headers: {} };
        const { type, body } = natural(route);
        return post(ctx, type, body, {}, method);
      },
    })),

  "content type": () => [
    { name: "no Content-Type", build: (ctx) => post(ctx, null, natural(ctx.route).body) },
    { name: "text/plain", build: (ctx) => post(ctx, "text/plain", natural(ctx.route).body) },
    {
      name: "application/xml",
      build: (ctx) => post(ctx, "application/xml", Buffer.from('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>')),
    },
    { name: "application/octet-stream", build: (ctx) => post(ctx, "application/octet-stream", randomBytes(1024)) },
    { name: "a form labelled as JSON", build: (ctx) => post(ctx, JSON_TYPE, formBody(ctx.route.fields)) },
    { name: "JSON labelled as a form", build: (ctx) => post(ctx, FORM, jsonBody(ctx.route.fields)) },
    { name: "multipart without a boundary", build: (ctx) => post(ctx, "multipart/form-data", formBody(ctx.route.fields)) },
    { name: "garbage", build: (ctx) => post(ctx, ";;;==; boundary=;charset=", natural(ctx.route).body) },
    { name: "a 4 KB type", build: (ctx) => post(ctx, `${natural(ctx.route).type}; ${repeatTo("x=y;", 4096)}`, natural(ctx.route).body) },
    { name: "two types in one header", build: (ctx) => post(ctx, `${FORM}, ${JSON_TYPE}`, natural(ctx.route).body) },
    { name: "UTF-16 JSON", build: (ctx) => post(ctx, `${JSON_TYPE}; charset=utf-16`, Buffer.from(`\ufeff${JSON.stringify(ctx.route.fields)}`, "utf16le")) },
  ],

  "bad JSON": (route) => {
    const all: Array<[string, Buffer | string]> = [
      ["truncated", '{"email":"a@b.c","password":"abc'],
      ["empty", ""],
      ["only whitespace", " \r\n\t "],
      ["10k-deep arrays", nested(10_000, "[", "]")],
      ["10k-deep objects", nested(10_000, '{"a":', "}", "1")],
      ["a huge number", `{"tokens_used":1${"0".repeat(400)},"cost_usd":1e999999,"email":-0}`],
      ["a 30k-digit number", `1${"0".repeat(30_000)}`],
      ["an array", "[1,2,3]"],
      ["an array of the fields", JSON.stringify([route.fields])],
      ["a string", '"just a string"'],
      ["null", "null"],
      ["true", "true"],
      ["a BOM", `\ufeff${JSON.stringify(route.fields)}`],
      ["invalid UTF-8", Buffer.from([0x7b, 0x22, 0x65, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d])],
      ["__proto__ keys", `{"__proto__":{"role":"admin"},"constructor":{"prototype":{"role":"admin"}},"reports":{"__proto__":[]}}`],
      ["duplicate keys", `{"email":"a@b.c","email":{"x":1},"refresh_token":1,"refresh_token":"x"}`],
      ["NaN and comments", '{"cost_usd":NaN,/* c */"tokens_used":Infinity}'],
    ];
    const picked = route.body === "json" ? all : all.filter(([n]) => ["truncated", "10k-deep arrays", "null", "an array"].includes(n));
    return picked.map(([name, body]) => ({ name, build: (ctx) => post(ctx, JSON_TYPE, Buffer.isBuffer(body) ? body : Buffer.from(body)) }));
  },

  "field of the wrong type": (route) => {
    const keys = Object.keys(route.fields);
    if (route.body === "json") {
      return keys.flatMap((key) =>
        JSON_VALUES.map(([what, text]) => ({ name: `${key}: ${what}`, build: (ctx: Ctx) => post(ctx, JSON_TYPE, jsonWith(route.fields, key, text)) })),
      );
    }
    if (route.body === "form") {
      return keys.flatMap((key) =>
        FORM_VALUES.map(([what, encode]) => ({
          name: `${key}: ${what}`,
          build: (ctx: Ctx) => post(ctx, FORM, Buffer.from(withoutField(route.fields, key) + encode(key))),
        })),
      );
    }
    return [];
  },

  "huge body": () => [
    {
      name: "2 MB in the route's encoding",
      build: (ctx) => {
        const { type } = natural(ctx.route);
        const body =
          type === FORM ? Buffer.from(`${formBody(ctx.route.fields)}&pad=${HUGE_FORM_TAIL}`) : jsonBody({ ...ctx.route.fields, pad: HUGE_FORM_TAIL });
        return post(ctx, type, body);
      },
    },
    { name: "3 MB of binary", build: (ctx) => post(ctx, "application/octet-stream", HUGE_BINARY) },
    { name: "2 MB of '[' (1M-deep JSON)", build: (ctx) => post(ctx, JSON_TYPE, Buffer.from("[".repeat(2 * MB))) },
  ],

  "body never read": (route) => [
    {
      name: "GET with a 64 KB body",
      build: () => ({ method: "GET", path: route.path, headers: { "Content-Type": JSON_TYPE }, body: Buffer.from(repeatTo('{"a":1}', 64 * 1024)) }),
    },
    { name: "DELETE with a 64 KB body", build: (ctx) => post(ctx, FORM, Buffer.from(repeatTo("a=1&", 64 * 1024)), {}, "DELETE") },
    { name: "OPTIONS with a body", build: (ctx) => post(ctx, JSON_TYPE, jsonBody(route.fields), {}, "OPTIONS") },
  ],

  // Raw sockets: framing node:http will not produce.
  framing: (route) => {
    const reads = route.body !== "none";
    const list: Variant[] = [
      {
        name: "chunked, well formed",
        build: (ctx) => {
          const { type, body } = natural(ctx.route);
          return raw(ctx, [`Content-Type: ${type}`, "Transfer-Encoding: chunked"], chunked([body.toString("latin1")]));
        },
      },
      {
        name: "chunked, one byte per chunk",
        build: (ctx) => {
          const { type, body } = natural(ctx.route);
          return raw(ctx, [`Content-Type: ${type}`, "Transfer-Encoding: chunked"], chunked([...body.toString("latin1")]));
        },
      },
      {
        name: "chunked, never finished",
        build: (ctx) => {
          const { type, body } = natural(ctx.route);
          return raw(ctx, [`Content-Type: ${type}`, "Transfer-Encoding: chunked"], `${body.length.toString(16)}\r\n${body.toString("latin1")}\r\n`, {
            mayHang: true,
          });
        },
      },
      {
        name: "Content-Length larger than sent",
        build: (ctx) => {
          const { type, body } = natural(ctx.route);
          return raw(ctx, [`Content-Type: ${type}`, `Content-Length: ${body.length + 1000}`], body, { mayHang: true });
        },
      },
      {
        name: "Content-Length smaller than sent",
        build: (ctx) => {
          // A route without fields has an empty natural body: send something, or "smaller" would be "larger".
          const { type, body: natural_ } = natural(ctx.route);
          const body = natural_.length >= 2 ? natural_ : Buffer.from("a=1&b=2");
          return raw(ctx, [`Content-Type: ${type}`, `Content-Length: ${body.length >> 1}`], body);
        },
      },
      {
        name: "Content-Length and chunked",
        build: (ctx) => {
          const { type, body } = natural(ctx.route);
          return raw(ctx, [`Content-Type: ${type}`, "Content-Length: 4", "Transfer-Encoding: chunked"], chunked([body.toString("latin1")]));
        },
      },
      { name: "Content-Length not a number", build: (ctx) => raw(ctx, [`Content-Type: ${natural(ctx.route).type}`, "Content-Length: 12abc"], "intent=x&a=b") },
      { name: "Content-Length negative", build: (ctx) => raw(ctx, [`Content-Type: ${natural(ctx.route).type}`, "Content-Length: -5"], "{}") },
      {
        name: "two different Content-Lengths",
        build: (ctx) => raw(ctx, [`Content-Type: ${natural(ctx.route).type}`, "Content-Length: 2", "Content-Length: 3"], "{}"),
      },
      {
        name: "chunk size not hex",
        build: (ctx) => raw(ctx, [`Content-Type: ${natural(ctx.route).type}`, "Transfer-Encoding: chunked"], "zz\r\nabc\r\n0\r\n\r\n"),
      },
      {
        name: "chunk shorter than its size",
        build: (ctx) => raw(ctx, [`Content-Type: ${natural(ctx.route).type}`, "Transfer-Encoding: chunked"], "5\r\n{}\r\n0\r\n\r\n"),
      },
      {
        name: "NUL and control bytes in a header",
        build: (ctx) =>
          raw(ctx, [`Content-Type: ${natural(ctx.route).type}`, "Content-Length: 2", "Cookie: mfy_access=a\u0000b\u0001c; mfy_refresh=\u00ff\u00fe"], "{}"),
      },
      {
        name: "raw UTF-8 in a header",
        build: (ctx) =>
          raw(
            ctx,
            [
              `Content-Type: ${natural(ctx.route).type}`,
              "Content-Length: 2",
              `Cookie: mfy_access=${Buffer.from("ü👩‍💻").toString("latin1")}`,
              `X-Name: ${Buffer.from(UNICODE).toString("latin1")}`,
            ],
            "{}",
          ),
      },
      { name: "folded header line", build: (ctx) => raw(ctx, [`Content-Type: ${natural(ctx.route).type}`, "Content-Length: 2", "X-Folded: a", "  b"], "{}") },
    ];
    return reads ? list : list.filter((v) => !v.name.startsWith("chunked,") || v.name === "chunked, well formed");
  },

  cookie: (route) => {
    const list: Variant[] = [
      { name: "malformed", build: (ctx) => ordinary(ctx, { Cookie: "mfy_access=%E0%A4%A; mfy_refresh; =; ;;; mfy_access=second; =x=y=z" }) },
      { name: "huge (64 KB)", build: (ctx) => ordinary(ctx, { Cookie: `mfy_access=${repeatTo("a", 32 * 1024)}; junk=${repeatTo("b", 32 * 1024)}` }) },
      { name: "forged JWT (wrong key) in mfy_access", build: (ctx) => ordinary(ctx, { Cookie: `mfy_access=${cookieValue(forgedWrongKey(ctx.session))}` }) },
      { name: "unsigned JWT (alg none) in mfy_access", build: (ctx) => ordinary(ctx, { Cookie: `mfy_access=${cookieValue(forgedNone(ctx.session))}` }) },
      { name: "expired JWT in mfy_access", build: (ctx) => ordinary(ctx, { Cookie: `mfy_access=${cookieValue(expired(ctx.session))}` }) },
      { name: "JWT for a session that does not exist", build: (ctx) => ordinary(ctx, { Cookie: `mfy_access=${cookieValue(unknownSession(ctx.session))}` }) },
      { name: "JWT naming another user", build: (ctx) => ordinary(ctx, { Cookie: `mfy_access=${cookieValue(otherUser(ctx.session))}` }) },
      { name: "random mfy_refresh", build: (ctx) => ordinary(ctx, { Cookie: `mfy_refresh=${cookieValue(randomBytes(32).toString("base64url"))}` }) },
      {
        name: "forged access with a random refresh",
        build: (ctx) =>
          ordinary(ctx, { Cookie: `mfy_access=${cookieValue(forgedWrongKey(ctx.session))}; mfy_refresh=${cookieValue(randomBytes(400).toString("hex"))}` }),
      },
    ];
    // The API never reads cookies: two are enough there.
    return isApi(route) ? list.filter((v) => v.name.startsWith("huge") || v.name.startsWith("forged JWT")) : list;
  },

  "bearer token": (route) => {
    const list: Variant[] = [
      { name: "empty", build: (ctx) => ordinary(ctx, { Authorization: "Bearer " }) },
      { name: "malformed", build: (ctx) => ordinary(ctx, { Authorization: "Bearer !!not a token!!" }) },
      {
        name: "Basic credentials",
        build: (ctx) => ordinary(ctx, { Authorization: `Basic ${Buffer.from(`${ADMIN.email}:${ADMIN.password}`).toString("base64")}` }),
      },
      { name: "forged JWT (wrong key)", build: (ctx) => ordinary(ctx, { Authorization: `Bearer ${forgedWrongKey(ctx.session)}` }) },
      { name: "unsigned JWT (alg none)", build: (ctx) => ordinary(ctx, { Authorization: `Bearer ${forgedNone(ctx.session)}` }) },
      { name: "expired JWT", build: (ctx) => ordinary(ctx, { Authorization: `Bearer ${expired(ctx.session)}` }) },
      { name: "JWT for a session that does not exist", build: (ctx) => ordinary(ctx, { Authorization: `Bearer ${unknownSession(ctx.session)}` }) },
      { name: "a 5,000-character token", build: (ctx) => ordinary(ctx, { Authorization: `Bearer ${repeatTo("A", 5000)}` }) },
      { name: "lower-case scheme", build: (ctx) => ordinary(ctx, { Authorization: `bearer ${forgedWrongKey(ctx.session)}` }) },
      {
        name: "two Authorization headers",
        build: (ctx) => ordinary(ctx, { Authorization: [`Bearer ${forgedWrongKey(ctx.session)}`, `Bearer ${forgedNone(ctx.session)}`] }),
      },
    ];
    // Pages never read bearer tokens: two are enough there.
    return isApi(route) ? list : list.filter((v) => v.name === "malformed" || v.name.startsWith("forged"));
  },

  // Mutations from other sites, with a body the route would act on where it has one.
  origin: (route) => {
    if (!route.methods.includes("POST")) return [];
    const send = (headers: Record<string, string>) => (ctx: Ctx) => {
      const { type, body } = natural(ctx.route, ctx.route.crossSiteFields ?? ctx.route.fields);
      return { method: "POST", path: route.path, headers: { "Content-Type": type, Origin: "", ...headers }, body };
    };
    const otherPort = `${BASE.protocol}//${BASE.hostname}:${Number(BASE.port || 80) + 1}`;
    return [
      { name: "another site", build: send({ Origin: "https://evil.example" }) },
      { name: "Origin: null", build: send({ Origin: "null" }) },
      { name: "same host, another port", build: send({ Origin: otherPort }) },
      // Not "https://<this host>": wrangler dev's proxy rewrites any Origin naming its host to its own
      // http origin before the app sees it, so locally that one cannot be told from a same-origin post.
      { name: "this origin with a path", build: send({ Origin: `${BASE.origin}/evil` }) },
      { name: "no Origin, no Sec-Fetch-Site", build: send({}) },
      { name: "no Origin, cross-site fetch metadata", build: send({ "Sec-Fetch-Site": "cross-site" }) },
      { name: "another site claiming same-origin metadata", build: send({ Origin: "https://evil.example", "Sec-Fetch-Site": "same-origin" }) },
    ];
  },

  multipart: (route) => {
    const b = "corpusBoundary7MA4YWxkTrZu0gW";
    const part = (name: string, value: string, extra = "") => `--${b}\r\nContent-Disposition: form-data; name="${name}"${extra}\r\n\r\n${value}\r\n`;
    const parts = Object.entries(route.fields)
      .map(([k, v]) => part(k, typeof v === "string" ? v : JSON.stringify(v)))
      .join("");
    const type = `multipart/form-data; boundary=${b}`;
    const list: Variant[] = [
      { name: "boundary mismatch", build: (ctx) => post(ctx, "multipart/form-data; boundary=other", Buffer.from(`${parts}--${b}--\r\n`)) },
      { name: "no closing boundary", build: (ctx) => post(ctx, type, Buffer.from(parts)) },
      { name: "empty body", build: (ctx) => post(ctx, type, Buffer.alloc(0)) },
      {
        name: "part without Content-Disposition",
        build: (ctx) => post(ctx, type, Buffer.from(`--${b}\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${b}--\r\n`)),
      },
      {
        name: "500 tiny parts",
        build: (ctx) => post(ctx, type, Buffer.from(`${Array.from({ length: 500 }, (_, i) => part(`f${i}`, "x")).join("")}--${b}--\r\n`)),
      },
      {
        name: "a binary file part",
        build: (ctx) =>
          post(
            ctx,
            type,
            Buffer.concat([
              Buffer.from(
                `${parts}--${b}\r\nContent-Disposition: form-data; name="email"; filename="../../etc/passwd"\r\nContent-Type: application/octet-stream\r\n\r\n`,
              ),
              randomBytes(8 * 1024),
              Buffer.from(`\r\n--${b}--\r\n`),
            ]),
          ),
      },
      {
        name: "a 200-character boundary",
        build: (ctx) => {
          const long = repeatTo("b", 200);
          return post(
            ctx,
            `multipart/form-data; boundary=${long}`,
            Buffer.from(`--${long}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nx\r\n--${long}--\r\n`),
          );
        },
      },
      { name: "bare LF line endings", build: (ctx) => post(ctx, type, Buffer.from(`${parts}--${b}--\r\n`.replace(/\r\n/g, "\n"))) },
    ];
    return route.body === "form" ? list : list.slice(0, 3);
  },

  webhook: (route) => webhookVariants(route),
};

/** A Stripe-specific group: signatures that are missing, malformed, or correct but stale or over junk. */
function webhookVariants(route: RouteSpec): Variant[] {
  if (route.path !== "/api/stripe/webhook") return [];
  const event = JSON.stringify(route.fields);
  const now = Math.floor(Date.now() / 1000);
  const send = (signature: string | null, body: string) => () => ({
    method: "POST",
    path: route.path,
    headers: { "Content-Type": JSON_TYPE, "Stripe-Signature": signature ?? "" },
    body: Buffer.from(body),
  });
  return [
    { name: "no signature", build: send(null, event) },
    { name: "a 3 KB signature", build: send(`t=${now},v1=${repeatTo("ab", 3000)}`, event) },
    { name: "a non-numeric timestamp", build: send(`t=abc,v1=${"0".repeat(64)}`, event) },
    { name: "only a v0 scheme", build: send(`t=${now},v0=${"0".repeat(64)}`, event) },
    { name: "correctly signed, an hour old", build: send(stripeSignature(event, now - 3600), event) },
    { name: "signed with another secret", build: send(`t=${now},v1=${createHmac("sha256", "whsec_not_ours").update(`${now}.${event}`).digest("hex")}`, event) },
    { name: "correctly signed truncated JSON", build: send(stripeSignature('{"id":"evt_', now), '{"id":"evt_') },
    { name: "correctly signed array", build: send(stripeSignature("[]", now), "[]") },
    { name: "correctly signed event without data", build: send(stripeSignature('{"id":"evt_corpus","type":"x"}', now), '{"id":"evt_corpus","type":"x"}') },
    { name: "correctly signed non-object data", build: send(stripeSignature('{"id":1,"type":2,"data":"x"}', now), '{"id":1,"type":2,"data":"x"}') },
  ].map((v) => ({ ...v, name: `Stripe-Signature: ${v.name}` }));
}

/** The whole corpus: every route × every group, each request with its own client address. */
function buildCorpus(session: Session): Req[] {
  const reqs: Req[] = [];
  for (const route of ROUTES) {
    const ctx: Ctx = { route, session };
    for (const [group, variantsFor] of Object.entries(GROUPS)) {
      for (const variant of variantsFor(route)) {
        const built = variant.build(ctx);
        reqs.push({ ...built, route: route.name, variant: `${group}: ${variant.name}`, headers: { ...route.headers, ...built.headers } });
      }
    }
  }
  return reqs;
}

// ---------------------------------------------------------------------------------- transport

type Outcome =
  | { kind: "answered"; status: number; body: string }
  | { kind: "timed out" } // deliberate: only for mayHang requests
  | { kind: "failed"; error: string };

let ipCounter = Math.floor(Math.random() * 50_000);
/**
 * A client address per request, so lockout and throttle counters never build up across variants.
 * Half IPv4, half IPv6; the IPv6 ones differ in their /64 prefix, which is what the guard counts.
 */
function nextIp(): string {
  const n = ++ipCounter;
  return n % 2 ? `100.${64 + ((n >> 16) & 63)}.${(n >> 8) & 255}.${n & 255}` : `2001:db8:${(n >> 16).toString(16)}:${(n & 0xffff).toString(16)}::1`;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
let retries = 0;

function send(req: Req, ip: string): Promise<Outcome> {
  return req.raw ? sendRaw(req, ip) : sendHttp(req, ip);
}

function sendHttp(req: Req, ip: string, retried = false): Promise<Outcome> {
  return new Promise((resolve) => {
    const isMutation = !["GET", "HEAD"].includes(req.method);
    const headers: Record<string, string | string[]> = {
      "User-Agent": "modelify-malformed-corpus",
      "CF-Connecting-IP": ip,
      ...(isMutation ? { Origin: BASE.origin } : {}),
      ...req.headers,
    };
    // An empty Origin in a variant means "send none".
    if (headers.Origin === "") delete headers.Origin;
    if (req.body) headers["Content-Length"] = String(req.body.length);
    let settled = false;
    const done = (o: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(o);
    };
    const r = http.request(new URL(req.path, BASE), { method: req.method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        if (size < 4096) chunks.push(c);
        size += c.length;
      });
      res.on("end", () => done({ kind: "answered", status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8", 0, 4096) }));
      res.on("error", (e) => done({ kind: "answered", status: res.statusCode ?? 0, body: `(body cut off: ${e.message})` }));
    });
    // The deadline of this request's answer (ANSWER_TIMEOUT_MS), not a pause: an answer ends it at once.
    const timer = setTimeout(() => {
      r.destroy();
      done({ kind: "failed", error: `no answer within ${ANSWER_TIMEOUT_MS} ms` });
    }, ANSWER_TIMEOUT_MS);
    r.on("error", (e: NodeJS.ErrnoException) => {
      if (settled) return;
      // A kept-alive connection the server had closed, reused before any answer: browsers and
      // Node's docs retry once on a fresh connection, and so does this client (counted).
      if (r.reusedSocket && !retried && (e.code === "ECONNRESET" || e.code === "EPIPE")) {
        settled = true;
        clearTimeout(timer);
        retries++;
        resolve(sendHttp(req, ip, true));
        return;
      }
      done({ kind: "failed", error: `${e.code ?? ""} ${e.message}`.trim() });
    });
    r.end(req.body);
  });
}

/** Sends bytes over a fresh socket and reads the status line of the first answer. */
function sendRaw(req: Req, ip: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(BASE.port || 80), BASE.hostname);
    let received = Buffer.alloc(0);
    let settled = false;
    const done = (o: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(o);
    };
    // The deadline of the answer, not a pause: the first status line ends it at once. For a request
    // left incomplete on purpose (mayHang) the delay is the subject: the server may wait for the
    // rest of the body, so after HANG_TIMEOUT_MS the client gives up and counts it as timed out.
    const timer = setTimeout(
      () => done(req.mayHang ? { kind: "timed out" } : { kind: "failed", error: `no answer within ${HANG_TIMEOUT_MS * 5} ms` }),
      req.mayHang ? HANG_TIMEOUT_MS : HANG_TIMEOUT_MS * 5,
    );
    const answer = () => {
      const text = received.toString("latin1");
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      const end = text.indexOf("\r\n\r\n");
      return status && end >= 0
        ? { kind: "answered" as const, status: Number(status[1]), body: received.subarray(end + 4, end + 4 + 4096).toString("utf8") }
        : null;
    };
    socket.on("connect", () => socket.write(req.raw!(BASE.host, ip)));
    socket.on("data", (d: Buffer) => {
      received = Buffer.concat([received, d]);
      // Wait for the whole (short) body of a 5xx, so a report can say what it was.
      const a = answer();
      if (a && (a.status < 500 || received.length > 8192)) done(a);
    });
    socket.on("end", () => done(answer() ?? { kind: "failed", error: `connection closed without an answer (${received.length} bytes received)` }));
    socket.on("error", (e: NodeJS.ErrnoException) => done(answer() ?? { kind: "failed", error: `${e.code ?? ""} ${e.message}`.trim() }));
  });
}

/** Runs `work` over `items` with at most `limit` in flight; results keep the items' order. */
async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

// -------------------------------------------------------------------------------- D1 row counts

type Counts = Record<string, number>;

/** Every table's rows, less the queue markers' own rows (`markers`: their paths, see queue-drain.ts). */
function rowCounts(file: string, markers: string[]): Counts {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>;
    const counts: Counts = {};
    for (const { name } of tables) {
      if (isInternalTable(name) || UNCOUNTED_TABLES.has(name)) continue;
      counts[name] = (db.prepare(`SELECT count(*) AS n FROM "${name.replace(/"/g, '""')}"`).get() as { n: number }).n;
    }
    for (const path of markers)
      counts.marketing_events! -= (db.prepare("SELECT count(*) AS n FROM marketing_events WHERE path = ?").get(path) as { n: number }).n;
    return counts;
  } finally {
    db.close();
  }
}

// ------------------------------------------------------------------------------------ running

/**
 * The one case the app cannot answer: a body whose chunked framing is broken (a chunk size that
 * is not hex, a chunk shorter than its size) is an HTTP protocol error found by the server's HTTP
 * layer while it reads the body. Cloudflare's edge answers it with its own 400 before any Worker
 * runs; locally, workerd's parser fails the exchange and miniflare's entry worker (in front of the
 * app under `wrangler dev`, 4.164.0) answers `500 Error: Network connection lost.` from its
 * catch-all, even on routes that never read a body. Only that exact answer, to exactly those
 * variants, is tolerated; it is counted in the diagnostics. Everything else is strict: large
 * bodies the app does not need are drained by the Worker (workers/app.ts), so they get the app's
 * own answer.
 */
const BROKEN_FRAMING = new Set(["framing: chunk size not hex", "framing: chunk shorter than its size"]);

function localRuntimeDefect(req: Req, o: Outcome): string | null {
  const entryWorker500 = /^Error: Network connection lost\.\s+at async Object\.fetch \(\S*miniflare\S*entry\.worker\.js/;
  if (BROKEN_FRAMING.has(req.variant) && o.kind === "answered" && o.status === 500 && entryWorker500.test(o.body)) return "broken chunk framing";
  return null;
}

type Result = { req: Req; outcome: Outcome; ms: number };
type CorpusRun = { results: Result[]; before: Counts; after: Counts; database: string; seconds: number; retried: string[] };
let run: CorpusRun;

async function signInAdmin(): Promise<Session> {
  const response = await fetch(`${BASE_URL}/api/v1/auth/token`, {
    method: "POST",
    headers: { "Content-Type": JSON_TYPE, "CF-Connecting-IP": nextIp() },
    body: JSON.stringify(ADMIN),
  });
  const text = await response.text();
  expect(response.status, `The admin could not sign in: ${response.status} ${text}`).toBe(200);
  const { access_token } = JSON.parse(text) as { access_token: string };
  const payload = JSON.parse(Buffer.from(access_token.split(".")[1]!, "base64url").toString()) as { sid: string; sub: string };
  return { accessToken: access_token, sid: payload.sid, sub: payload.sub };
}

// Runs once; the tests below read its outcome.
test.describe.configure({ mode: "serial" });
// biome-ignore lint/correctness/noEmptyPattern: Playwright requires the object pattern
test.beforeAll(async ({}, testInfo) => {
  test.setTimeout(300_000);
  site = await startTestSite(`corpus-w${testInfo.workerIndex}`);
  BASE_URL = site.baseUrl;
  BASE = new URL(BASE_URL);
  LOCAL_JWT_SECRET = readVar(`${site.buildDir}/server/.dev.vars`, "JWT_SECRET");
  const database = findDatabase(site.stateDir);
  // The session is created before the first snapshot, and whatever the site's start and the
  // sign-in queued has been handled.
  const session = await signInAdmin();
  const corpus = buildCorpus(session);
  const markers = await drainQueue(site);
  const logFrom = site.log().length;
  const beforeCounts = rowCounts(database, markers);
  const started = performance.now();
  const results = await pool(corpus, IN_FLIGHT, async (req): Promise<Result> => {
    const route = ROUTES.find((r) => r.name === req.route)!;
    const t0 = performance.now();
    const outcome = await send(req, route.loopback ? "127.0.0.1" : nextIp());
    return { req, outcome, ms: performance.now() - t0 };
  });
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  // Everything the corpus queued has been handled once; a message that failed would be retried and
  // dead-lettered later, and the consumer logs each failure as it happens.
  markers.push(...(await drainQueue(site)));
  run = { results, before: beforeCounts, after: rowCounts(database, markers), database, seconds, retried: consumerRetries(site.log().slice(logFrom)) };
  if (process.env.CORPUS_DUMP) {
    writeFileSync(
      process.env.CORPUS_DUMP,
      results
        .map((r) =>
          JSON.stringify({
            route: r.req.route,
            variant: r.req.variant,
            method: r.req.method,
            ms: Math.round(r.ms),
            ...r.outcome,
            body: r.outcome.kind === "answered" ? r.outcome.body.slice(0, 300) : undefined,
          }),
        )
        .join("\n"),
    );
  }
});

/** Shown in the report (and the list reporter's output) beside the test. */
const diagnostic = (description: string) => {
  test.info().annotations.push({ type: "corpus", description });
  console.log(description);
};
const label = ({ req }: Result) => `${req.route} | ${req.variant} (${req.method} ${req.path})`;
const describeOutcome = (o: Outcome) =>
  o.kind === "answered" ? `${o.status} ${o.body.replace(/\s+/g, " ").slice(0, 160)}` : o.kind === "failed" ? o.error : "timed out";

test(`the corpus has at least ${MIN_REQUESTS} malformed requests over every route`, () => {
  const { results, seconds } = run;
  const histogram: Record<string, number> = {};
  for (const { outcome } of results) {
    const key = outcome.kind === "answered" ? String(outcome.status) : outcome.kind;
    histogram[key] = (histogram[key] ?? 0) + 1;
  }
  const slowest = [...results].sort((a, b) => b.ms - a.ms).slice(0, 3);
  diagnostic(
    `${results.length} requests in ${seconds.toFixed(1)} s, ${IN_FLIGHT} in flight (${retries} retried on a fresh connection after a stale kept-alive one)`,
  );
  diagnostic(
    `statuses: ${Object.entries(histogram)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, n]) => `${k}×${n}`)
      .join(" ")}`,
  );
  const framing = results.filter((r) => localRuntimeDefect(r.req, r.outcome));
  diagnostic(`broken chunk framing answered by the local runtime's HTTP layer, not the app: ${framing.length} (Cloudflare's edge answers these 400)`);
  diagnostic(`slowest: ${slowest.map((r) => `${Math.round(r.ms)} ms ${label(r)}`).join("; ")}`);
  expect(results.length, `only ${results.length} requests`).toBeGreaterThanOrEqual(MIN_REQUESTS);
  expect(
    ROUTES.filter((route) => !results.some((r) => r.req.route === route.name)).map((route) => route.name),
    "routes no request went to",
  ).toEqual([]);
  // A corpus that only ever met one answer (a proxy error page, a dead server) proves nothing.
  expect(Object.keys(histogram).filter((k) => /^[234]/.test(k)).length, `too few distinct answers: ${JSON.stringify(histogram)}`).toBeGreaterThanOrEqual(5);
});

test("no answer is a 5xx and no request fails in transport (other than deliberate time-outs)", () => {
  const bad = run.results.filter(({ req, outcome }) => {
    if (localRuntimeDefect(req, outcome)) return false;
    if (outcome.kind === "timed out") return !req.mayHang;
    return outcome.kind === "failed" || outcome.status >= 500;
  });
  const byRoute = new Map<string, number>();
  for (const r of bad) byRoute.set(r.req.route, (byRoute.get(r.req.route) ?? 0) + 1);
  expect(
    bad.length,
    `${bad.length} of ${run.results.length} requests failed (${[...byRoute].map(([r, n]) => `${r}: ${n}`).join(", ")}):\n` +
      bad
        .slice(0, 60)
        .map((r) => `  ${label(r)} → ${describeOutcome(r.outcome)}`)
        .join("\n"),
  ).toBe(0);
});

test("no database row is written (attempt_counters aside)", () => {
  const changed = Object.keys({ ...run.before, ...run.after }).filter((table) => run.before[table] !== run.after[table]);
  expect(
    run.after,
    `rows changed in ${run.database}: ${changed.map((t) => `${t} ${run.before[t] ?? "(absent)"} → ${run.after[t] ?? "(absent)"}`).join(", ")}` +
      " (the requests that answered 2xx/3xx are the suspects: CORPUS_DUMP=<file> lists every outcome)",
  ).toEqual(run.before);
  // A queued message the consumer failed on writes its dead letter only after its retries.
  expect(run.retried, "the consumer failed on messages queued during the corpus (retried, then dead-lettered)").toEqual([]);
});

test.afterAll(async () => {
  await site?.stop();
});

function readVar(file: string, name: string): string | null {
  if (!existsSync(file)) return null;
  const match = new RegExp(`^${name}=(.*)$`, "m").exec(readFileSync(file, "utf8"));
  return match?.[1]?.trim() || null;
}
