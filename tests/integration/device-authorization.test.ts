// Signing the desktop app in through the browser (RFC 8628 device authorization grant, ADR 0018):
// the app asks /api/v1/auth/device for a code, the user approves it at /device, the app polls
// /api/v1/auth/token until it gets its tokens. Each approved app is its own device key: listed on
// the profile, revocable there, rate-limited on its own, and only ever its owner's.
import { env, SELF } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sweepDeviceAuthorizations } from "~/lib/auth/device-authorization.server";
import { proofNeeds } from "~/lib/auth/recent-proof.server";
import { sha256Hex } from "~/lib/crypto";
import { ingestAccount, type UsageItem, writeShared } from "~/lib/usage/ingest.server";
import { RECENT_PROOF, USAGE_API } from "~/lib/constants";
import { SITE_FORMATS } from "~/lib/format";
import { schema } from "~/lib/db.server";
import { Browser, db, inOneMinute, linkPath, ORIGIN, sessionIdOf, sidOfToken, signedInAs, STRONG_PASSWORD, uniqueIp, waitForMail } from "./helpers";
import { apiUser, ledger, postUsage, report, waitForRows } from "./usage-helpers";

const CLIENT_ID = "modelify-desktop";
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
const USER_CODE = /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/;
const SESSIONS_ROUTE = "/dashboard/profile/sessions";
const JSON_ACCEPT = { Accept: "application/json" };
const PLATFORM_LABEL = { windows: "Windows", macos: "macOS", linux: "Linux" } as const;

type Platform = keyof typeof PLATFORM_LABEL;
type CodeAnswer = {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
};
type OAuthError = { error: string; error_description: string; interval?: number };
type DeviceTokens = {
  token_type: string;
  access_token: string;
  expires_in: number;
  refresh_token: string;
  user: { id: string; email: string };
  device: { id: string; name: string; platform: Platform; app_version: string };
};

let names = 0;
/** A device name no other test uses, so "it is (not) on this page" means something. */
const uniqueDeviceName = () => `Workstation ${Date.now().toString(36)}${(names++).toString(36)}`;

function deviceFields(overrides: Record<string, string> = {}) {
  return {
    client_id: CLIENT_ID,
    device_name: uniqueDeviceName(),
    platform: "macos",
    app_version: "2.3.4",
    app_instance_id: crypto.randomUUID(),
    ...overrides,
  };
}

/**
 * POST /api/v1/auth/device as the desktop app would, from its own client address unless told;
 * `country` is what Cloudflare's edge would put in request.cf.
 */
function requestCode(body: unknown, { ip = uniqueIp(), form = false, country }: { ip?: string; form?: boolean; country?: string } = {}) {
  return SELF.fetch(`${ORIGIN}/api/v1/auth/device`, {
    method: "POST",
    headers: {
      "Content-Type": form ? "application/x-www-form-urlencoded" : "application/json",
      "CF-Connecting-IP": ip,
    },
    body: form ? new URLSearchParams(body as Record<string, string>) : typeof body === "string" ? body : JSON.stringify(body),
    ...(country ? { cf: { country } } : {}),
  });
}

/** A fresh pending code (and the fields it was asked with). */
async function newCode(overrides: Record<string, string> = {}, { country }: { country?: string } = {}) {
  const fields = deviceFields(overrides);
  const response = await requestCode(fields, { country });
  expect(response.status).toBe(200);
  const code = await response.json<CodeAnswer>();
  return { ...code, fields };
}

/** POST /api/v1/auth/token with the device grant (JSON unless told). */
async function poll(deviceCode: string | undefined, { form = false, grantType = DEVICE_GRANT, clientId = CLIENT_ID } = {}) {
  const fields: Record<string, string> = { grant_type: grantType, client_id: clientId };
  if (deviceCode !== undefined) fields.device_code = deviceCode;
  const response = await SELF.fetch(`${ORIGIN}/api/v1/auth/token`, {
    method: "POST",
    headers: { "Content-Type": form ? "application/x-www-form-urlencoded" : "application/json", "CF-Connecting-IP": uniqueIp() },
    body: form ? new URLSearchParams(fields) : JSON.stringify(fields),
  });
  const body = await response.json<OAuthError & Partial<DeviceTokens>>();
  return { response, status: response.status, body };
}

/** The stored row of a user code: SHA-256 hex of the code without its dash, in capitals. */
const userCodeHash = (userCode: string) => sha256Hex(userCode.replace(/-/g, "").toUpperCase());

async function rowOf(userCode: string) {
  const hash = await userCodeHash(userCode);
  return (await db.query.deviceAuthorizations.findFirst({ where: eq(schema.deviceAuthorizations.userCodeHash, hash) }))!;
}

async function updateRow(userCode: string, values: Partial<typeof schema.deviceAuthorizations.$inferInsert>) {
  const hash = await userCodeHash(userCode);
  await db.update(schema.deviceAuthorizations).set(values).where(eq(schema.deviceAuthorizations.userCodeHash, hash));
}

/** Moves the code's previous poll a minute back, so the next poll is never too soon (no 5 s waits). */
const rewindPoll = (userCode: string) => updateRow(userCode, { lastPolledAt: Date.now() - 60_000 });

/** Polls as a patient app would: never sooner than the interval after the previous poll. */
async function patientPoll(code: { device_code: string; user_code: string }) {
  await rewindPoll(code.user_code);
  return poll(code.device_code);
}

/** The visible text of a page: scripts (loader data) and tags removed, entities decoded. */
function visibleText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/gi, " ")
    .replace(/<style[\s\S]*?<\/style>/gi, " ")
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;|&apos;|&rsquo;|&#x2019;/g, "'")
    .replace(/’/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&nbsp;|&#160;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

async function pageText(response: Response) {
  return visibleText(await response.text());
}

/**
 * Opens /device?code= as a browser would, saying who started the navigation: "none" is the app's
 * link (or a typed address), "same-origin" a link on our pages, "cross-site" any other site.
 */
const openLink = (browser: Browser, code: string, site: "none" | "same-origin" | "same-site" | "cross-site" | null = "none") =>
  browser.get(`/device?code=${encodeURIComponent(code)}`, { headers: site ? { "Sec-Fetch-Site": site } : {} });
/** The code form sent from our own page (typed, or prefilled from a link). */
const lookUp = (browser: Browser, code: string) => browser.post("/device", { intent: "lookup", code });
const approve = (browser: Browser, code: string, extra: Record<string, string> = {}) => browser.post("/device", { intent: "approve", code, ...extra });
const deny = (browser: Browser, code: string, extra: Record<string, string> = {}) => browser.post("/device", { intent: "deny", code, ...extra });

/** Makes the browser's last proof (its sign-in) `minutes` old: past RECENT_PROOF.windowMs, approving asks for the password. */
const ageSession = (browser: Browser, minutes = RECENT_PROOF.windowMs / 60_000 + 1) =>
  db
    .update(schema.sessions)
    .set({ provenAt: Date.now() - minutes * 60_000 })
    .where(eq(schema.sessions.id, sessionIdOf(browser)));

/** A code approved by `owner` and exchanged for the device's tokens. */
async function approvedDevice(owner: Browser, overrides: Record<string, string> = {}) {
  const code = await newCode(overrides);
  const approved = await approve(owner, code.user_code);
  expect(approved.status).toBe(200);
  const exchanged = await patientPoll(code);
  expect(exchanged.status).toBe(200);
  return { code, tokens: exchanged.body as DeviceTokens };
}

const refresh = (refreshToken: string) =>
  SELF.fetch(`${ORIGIN}/api/v1/auth/refresh`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ refresh_token: refreshToken }),
  });

/** A fresh, unused code that no one was ever given (same alphabet and shape). */
function guessedCode() {
  const alphabet = "BCDFGHJKLMNPQRSTVWXZ";
  const pick = () => Array.from({ length: 4 }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join("");
  return `${pick()}-${pick()}`;
}

describe("POST /api/v1/auth/device (the app asks for a code)", () => {
  it("answers a user code, a long device code and where to enter it, not cached", async () => {
    const fields = deviceFields();
    const response = await requestCode(fields);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toContain("no-store");
    const body = await response.json<CodeAnswer>();
    expect(body.device_code).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(body.user_code).toMatch(USER_CODE);
    expect(body).toMatchObject({
      verification_uri: `${ORIGIN}/device`,
      verification_uri_complete: `${ORIGIN}/device?code=${body.user_code}`,
      expires_in: 600,
      interval: 5,
    });
    // Stored as digests only, pending, with what the app said about itself.
    const row = await rowOf(body.user_code);
    expect(row).toMatchObject({
      status: "pending",
      clientId: CLIENT_ID,
      deviceName: fields.device_name,
      platform: "macos",
      appVersion: "2.3.4",
      appInstanceId: fields.app_instance_id,
      intervalSeconds: 5,
      userId: null,
    });
    expect(row.deviceCodeHash).toBe(await sha256Hex(body.device_code));
    expect(JSON.stringify(row)).not.toContain(body.device_code);
    expect(row.expiresAt - row.createdAt).toBeGreaterThanOrEqual(599_000);
    expect(row.expiresAt - row.createdAt).toBeLessThanOrEqual(601_000);

    // Another request, other codes.
    const other = await newCode();
    expect(other.device_code).not.toBe(body.device_code);
    expect(other.user_code).not.toBe(body.user_code);
  });

  it("takes a form body too, and trims the device name", async () => {
    const name = `${"n".repeat(96)}${(names++ % 1000).toString().padStart(4, "0")}`; // 100 characters
    const response = await requestCode(deviceFields({ device_name: `   ${name}  `, platform: "linux" }), { form: true });
    expect(response.status).toBe(200);
    const body = await response.json<CodeAnswer>();
    expect(body.user_code).toMatch(USER_CODE);
    expect(await rowOf(body.user_code)).toMatchObject({ deviceName: name, platform: "linux" });
  });

  it("refuses a bad body with invalid_request and a wrong client with invalid_client", async () => {
    const bad: Array<[string, unknown]> = [
      ["no device name", { ...deviceFields(), device_name: undefined }],
      ["empty device name", deviceFields({ device_name: "" })],
      ["blank device name", deviceFields({ device_name: "     " })],
      ["101-character device name", deviceFields({ device_name: "x".repeat(101) })],
      ["unknown platform", deviceFields({ platform: "android" })],
      ["platform in capitals", deviceFields({ platform: "Windows" })],
      ["no platform", { ...deviceFields(), platform: undefined }],
      ["empty app version", deviceFields({ app_version: "" })],
      ["51-character app version", deviceFields({ app_version: "1".repeat(51) })],
      ["no app instance", { ...deviceFields(), app_instance_id: undefined }],
      ["101-character app instance", deviceFields({ app_instance_id: "i".repeat(101) })],
      ["numbers for strings", { ...deviceFields(), device_name: 42, app_version: 1 }],
      ["an array", JSON.stringify([deviceFields()])],
      ["not JSON", "{ this is not json"],
    ];
    for (const clientId of ["someone-else", "MODELIFY-DESKTOP", "modelify-desktop "]) {
      const response = await requestCode(deviceFields({ client_id: clientId }));
      expect(response.status, clientId).toBe(401);
      const answer = await response.json<OAuthError>();
      expect(answer.error, clientId).toBe("invalid_client");
      expect(typeof answer.error_description).toBe("string");
    }
    const get = await SELF.fetch(`${ORIGIN}/api/v1/auth/device`, { headers: { "CF-Connecting-IP": uniqueIp() } });
    expect(get.status).toBe(405);
    // Malformed JSON comes last: every other case is checked even if it fails.
    for (const [what, body] of bad) {
      const response = await requestCode(body);
      expect(response.status, what).toBe(400);
      const answer = await response.json<OAuthError>();
      expect(answer.error, what).toBe("invalid_request");
      expect(typeof answer.error_description, what).toBe("string");
      expect(answer.error_description.length, what).toBeGreaterThan(0);
    }
  });

  it("gives one client address at most 10 codes per 15 minutes, then 429 rate_limited with Retry-After", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 10; i++) expect((await requestCode(deviceFields(), { ip })).status, `request ${i + 1}`).toBe(200);
    const refused = await requestCode(deviceFields(), { ip });
    expect(refused.status).toBe(429);
    const body = await refused.json<OAuthError>();
    expect(body.error).toBe("rate_limited");
    expect(typeof body.error_description).toBe("string");
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Another address is not affected.
    expect((await requestCode(deviceFields())).status).toBe(200);
  });

  it("counts a parallel burst from one address exactly: 15 at once give 10 codes and 5 refusals", async () => {
    const ip = uniqueIp();
    const answers = await Promise.all(Array.from({ length: 15 }, () => requestCode(deviceFields(), { ip })));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(10).fill(200), ...Array(5).fill(429)]);
    const codes = await Promise.all(answers.filter((r) => r.status === 200).map((r) => r.json<CodeAnswer>()));
    expect(new Set(codes.map((c) => c.user_code)).size).toBe(10);
    expect(new Set(codes.map((c) => c.device_code)).size).toBe(10);
    for (const r of answers.filter((a) => a.status === 429)) {
      expect(r.headers.get("Retry-After")).toMatch(/^\d+$/);
      expect((await r.json<OAuthError>()).error).toBe("rate_limited");
    }
  });
});

describe("POST /api/v1/auth/token with the device grant (the app polls)", () => {
  it("answers authorization_pending until the code is approved, JSON or form, not cached", async () => {
    const code = await newCode();
    const first = await poll(code.device_code);
    expect(first.status).toBe(400);
    expect(first.body.error).toBe("authorization_pending");
    expect(typeof first.body.error_description).toBe("string");
    expect(first.response.headers.get("Cache-Control")).toContain("no-store");
    await rewindPoll(code.user_code);
    const form = await poll(code.device_code, { form: true });
    expect(form.status).toBe(400);
    expect(form.body.error).toBe("authorization_pending");
  });

  it("answers slow_down with a raised interval to a poll sooner than the interval, and keeps it raised", async () => {
    const code = await newCode();
    expect((await poll(code.device_code)).body.error).toBe("authorization_pending");
    const tooSoon = await poll(code.device_code);
    expect(tooSoon.status).toBe(400);
    expect(tooSoon.body.error).toBe("slow_down");
    expect(tooSoon.body.interval).toBe(10);
    expect(tooSoon.response.headers.get("Cache-Control")).toContain("no-store");
    expect((await rowOf(code.user_code)).intervalSeconds).toBe(10);

    // 7 s after the previous poll was fine at 5 s, but not at the raised 10 s.
    await updateRow(code.user_code, { lastPolledAt: Date.now() - 7_000 });
    const stillTooSoon = await poll(code.device_code);
    expect(stillTooSoon.body.error).toBe("slow_down");
    expect(stillTooSoon.body.interval).toBe(15);

    await updateRow(code.user_code, { lastPolledAt: Date.now() - 16_000 });
    expect((await poll(code.device_code)).body.error).toBe("authorization_pending");
    expect((await rowOf(code.user_code)).intervalSeconds).toBe(15);
  });

  it("answers invalid_grant to a guessed device code, invalid_request without one, unsupported_grant_type to other grants", async () => {
    for (const guess of ["A".repeat(43), crypto.randomUUID(), "x"]) {
      const answer = await poll(guess);
      expect(answer.status, guess).toBe(400);
      expect(answer.body.error, guess).toBe("invalid_grant");
    }
    const missing = await poll(undefined);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("invalid_request");
    expect(missing.response.headers.get("Cache-Control")).toContain("no-store");

    const code = await newCode();
    const other = await poll(code.device_code, { grantType: "client_credentials" });
    expect(other.status).toBe(400);
    expect(other.body.error).toBe("unsupported_grant_type");
    expect(typeof other.body.error_description).toBe("string");
  });

  it("answers expired_token once the code is past expires_in", async () => {
    const code = await newCode();
    await updateRow(code.user_code, { expiresAt: Date.now() - 1_000 });
    const answer = await patientPoll(code);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("expired_token");
  });

  it("answers access_denied once the user denied the code", async () => {
    const { browser } = await signedInAs("user");
    const code = await newCode();
    const denied = await deny(browser, code.user_code);
    expect(denied.status).toBe(200);
    expect(await pageText(denied)).toMatch(/denied/i);
    const answer = await patientPoll(code);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("access_denied");
    expect(answer.body.access_token).toBeUndefined();
  });

  it("gives an approved code's tokens once, naming the user and the device; a reused code gets invalid_grant", async () => {
    const { browser, id: userId, email } = await signedInAs("user");
    const code = await newCode({ platform: "windows", app_version: "3.0.1" });
    expect((await approve(browser, code.user_code)).status).toBe(200);
    const answer = await patientPoll(code);
    expect(answer.status).toBe(200);
    expect(answer.response.headers.get("Cache-Control")).toContain("no-store");
    const tokens = answer.body as DeviceTokens;
    expect(tokens).toMatchObject({
      token_type: "Bearer",
      user: { id: userId, email },
      device: { name: code.fields.device_name, platform: "windows", app_version: "3.0.1" },
    });
    expect(tokens.expires_in).toBeGreaterThan(0);
    expect(typeof tokens.refresh_token).toBe("string");
    // The device is the session behind its tokens: a desktop session described as the app named it.
    expect(sidOfToken(tokens.access_token)).toBe(tokens.device.id);
    const session = (await db.query.sessions.findFirst({ where: eq(schema.sessions.id, tokens.device.id) }))!;
    expect(session).toMatchObject({
      userId,
      client: "desktop",
      deviceName: code.fields.device_name,
      devicePlatform: "windows",
      appVersion: "3.0.1",
      appInstanceId: code.fields.app_instance_id,
      revokedAt: null,
    });
    expect(await rowOf(code.user_code)).toMatchObject({ status: "used", userId, sessionId: tokens.device.id });

    // The tokens work.
    const me = await SELF.fetch(`${ORIGIN}/api/v1/me`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(me.status).toBe(200);

    // Reused: exchanged once already.
    const again = await patientPoll(code);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_grant");
    expect(again.body.access_token).toBeUndefined();
  });

  it("exchanges an approved code exactly once under parallel polls: one 200, one invalid_grant", async () => {
    const { browser, id: userId } = await signedInAs("user");
    const code = await newCode();
    expect((await approve(browser, code.user_code)).status).toBe(200);
    await rewindPoll(code.user_code);
    const answers = await Promise.all([poll(code.device_code), poll(code.device_code)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    expect(answers.find((a) => a.status === 400)!.body.error).toBe("invalid_grant");
    // Exactly one device session was made.
    const desktops = await db
      .select()
      .from(schema.sessions)
      .where(and(eq(schema.sessions.userId, userId), eq(schema.sessions.client, "desktop")));
    expect(desktops).toHaveLength(1);
  });

  it("still signs the app in with the legacy password grant (e-mail and password, no grant_type)", async () => {
    const { token, userId } = await apiUser();
    expect(token.split(".")).toHaveLength(3);
    const me = await SELF.fetch(`${ORIGIN}/api/v1/me`, { headers: { Authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect((await postUsage(token, report())).status).toBe(202);
    await waitForRows(userId, 1);
  });
});

describe("the /device page (the user approves or denies)", () => {
  it("sends a signed-out visitor to sign in, keeping the code", async () => {
    const code = await newCode();
    const response = await new Browser().get(`/device?code=${code.user_code}`);
    expect([302, 303]).toContain(response.status);
    const location = new URL(response.headers.get("Location")!, ORIGIN);
    expect(location.pathname).toBe("/auth");
    expect(location.searchParams.get("from")).toBe("device");
    expect(location.searchParams.get("code")).toBe(code.user_code);
    // Nothing changed for a signed-out POST either.
    const post = await new Browser().post("/device", { intent: "approve", code: code.user_code });
    expect(post.status).not.toBe(200);
    expect((await rowOf(code.user_code)).status).toBe("pending");
  });

  it("shows a signed-in user the device's name, platform and app version; an unknown code isn't valid (404)", async () => {
    const { browser } = await signedInAs("user");
    for (const platform of ["windows", "macos", "linux"] as const) {
      const code = await newCode({ platform, app_version: `9.8.${platform.length}` });
      const page = await openLink(browser, code.user_code);
      expect(page.status, platform).toBe(200);
      const text = await pageText(page);
      expect(text, platform).toContain(code.fields.device_name);
      expect(text, platform).toContain(PLATFORM_LABEL[platform]);
      expect(text, platform).toContain(`9.8.${platform.length}`);
      // Looking does not approve.
      expect((await rowOf(code.user_code)).status).toBe("pending");
    }
    const unknown = await openLink(browser, guessedCode());
    expect(unknown.status).toBe(404);
    expect(await pageText(unknown)).toContain("isn't valid");
  });

  it("approves and denies a pending code", async () => {
    const { browser, id: userId } = await signedInAs("user");
    const toApprove = await newCode();
    const approved = await approve(browser, toApprove.user_code);
    expect(approved.status).toBe(200);
    expect(await pageText(approved)).toMatch(/approved/i);
    expect(await rowOf(toApprove.user_code)).toMatchObject({ status: "approved", userId });

    const toDeny = await newCode();
    const denied = await deny(browser, toDeny.user_code);
    expect(denied.status).toBe(200);
    expect(await pageText(denied)).toMatch(/denied/i);
    expect((await rowOf(toDeny.user_code)).status).toBe("denied");
  });

  it("refuses a code that isn't pending: already approved, exchanged, denied, expired (400 isn't valid)", async () => {
    const { browser } = await signedInAs("user");
    const approvedCode = await newCode();
    expect((await approve(browser, approvedCode.user_code)).status).toBe(200);
    const used = await approvedDevice(browser);
    const deniedCode = await newCode();
    expect((await deny(browser, deniedCode.user_code)).status).toBe(200);
    const expiredCode = await newCode();
    await updateRow(expiredCode.user_code, { expiresAt: Date.now() - 1_000 });

    for (const [what, userCode, act] of [
      ["approved, approved again", approvedCode.user_code, approve],
      ["exchanged, approved again", used.code.user_code, approve],
      ["denied, approved", deniedCode.user_code, approve],
      ["expired, approved", expiredCode.user_code, approve],
      ["approved, denied", approvedCode.user_code, deny],
    ] as const) {
      const answer = await act(browser, userCode);
      expect(answer.status, what).toBe(400);
      expect(await pageText(answer), what).toContain("isn't valid");
    }
    expect((await rowOf(approvedCode.user_code)).status).toBe("approved");
    expect((await rowOf(deniedCode.user_code)).status).toBe("denied");
    expect((await rowOf(expiredCode.user_code)).status).toBe("pending");
    // The denied and expired codes never give tokens.
    expect((await patientPoll(deniedCode)).body.error).toBe("access_denied");
    expect((await patientPoll(expiredCode)).body.error).toBe("expired_token");
  });

  it("refuses an unknown code with 400 isn't valid", async () => {
    const { browser } = await signedInAs("user");
    for (const act of [approve, deny]) {
      const answer = await act(browser, guessedCode());
      expect(answer.status).toBe(400);
      expect(await pageText(answer)).toContain("isn't valid");
    }
  });

  it("asks for the password when the session's last proof is older than RECENT_PROOF.windowMs", async () => {
    const { browser, id: userId } = await signedInAs("user");
    await ageSession(browser);
    const code = await newCode();

    const noPassword = await approve(browser, code.user_code);
    expect(noPassword.status).toBe(401);
    expect((await pageText(noPassword)).toLowerCase()).toContain("password");
    const wrong = await approve(browser, code.user_code, { password: "Not-The-Password-1" });
    expect(wrong.status).toBe(401);
    expect((await rowOf(code.user_code)).status).toBe("pending");

    const right = await approve(browser, code.user_code, { password: STRONG_PASSWORD });
    expect(right.status).toBe(200);
    expect(await pageText(right)).toMatch(/approved/i);
    expect(await rowOf(code.user_code)).toMatchObject({ status: "approved", userId });
    expect((await patientPoll(code)).status).toBe(200);
    // That password was a new proof: the next approval within the window asks for nothing.
    const next = await newCode();
    expect((await approve(browser, next.user_code)).status).toBe(200);
  });

  it("does not ask a session whose last proof is within RECENT_PROOF.windowMs for the password", async () => {
    const { browser } = await signedInAs("user");
    await ageSession(browser, RECENT_PROOF.windowMs / 60_000 - 1);
    const code = await newCode();
    expect((await approve(browser, code.user_code)).status).toBe(200);
  });

  it("counts a proof as recent up to the window's last millisecond, and a session that never proved anything as not", async () => {
    const { browser, id: userId } = await signedInAs("user");
    const sessionId = sessionIdOf(browser);
    const { provenAt } = (await db.query.sessions.findFirst({ where: eq(schema.sessions.id, sessionId) }))!;
    expect(provenAt).not.toBeNull();
    expect((await proofNeeds(db, { userId, sessionId, provenAt }, provenAt! + RECENT_PROOF.windowMs)).password).toBe(false);
    expect((await proofNeeds(db, { userId, sessionId, provenAt }, provenAt! + RECENT_PROOF.windowMs + 1)).password).toBe(true);
    expect((await proofNeeds(db, { userId, sessionId, provenAt: null })).password).toBe(true);
  });
});

describe("guessed codes", () => {
  it("refuses a user's sixth wrong code in 15 minutes with 429 Too many, the user's GETs and POSTs counted together", async () => {
    const { browser } = await signedInAs("user");
    for (let i = 0; i < 3; i++) expect((await openLink(browser, guessedCode())).status, `GET ${i + 1}`).toBe(404);
    for (let i = 0; i < 2; i++) expect((await approve(browser, guessedCode())).status, `POST ${i + 1}`).toBe(400);
    const sixthGet = await openLink(browser, guessedCode(), "same-origin");
    expect(sixthGet.status).toBe(429);
    expect(await pageText(sixthGet)).toContain("Too many");
    const sixthPost = await approve(browser, guessedCode());
    expect(sixthPost.status).toBe(429);
    expect(await pageText(sixthPost)).toContain("Too many");

    // Another user is not affected, and can still approve.
    const other = await signedInAs("user");
    const code = await newCode();
    expect((await openLink(other.browser, guessedCode())).status).toBe(404);
    expect((await approve(other.browser, code.user_code)).status).toBe(200);
  });

  it("does not let a locked-out user try a real code either (the answer must not tell a right guess)", async () => {
    const { browser } = await signedInAs("user");
    for (let i = 0; i < 6; i++) await approve(browser, guessedCode());
    const code = await newCode();
    const answer = await approve(browser, code.user_code);
    expect(answer.status).toBe(429);
    expect((await rowOf(code.user_code)).status).toBe("pending");
  });

  it("counts a parallel burst of wrong codes exactly: 12 at once give 5 refusals as invalid and 7 as too many", async () => {
    const { browser } = await signedInAs("user");
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => [approve, lookUp, openLink][i % 3]!(browser, guessedCode())));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    expect(statuses.filter((s) => s === 400 || s === 404)).toHaveLength(5);
  });
});

describe("links from other sites (issue 25, F5)", () => {
  /** The user's wrong-code counter as stored (0 when none). */
  const wrongCodes = async (userId: string) =>
    (await db.query.attemptCounters.findFirst({ where: eq(schema.attemptCounters.key, `device:wrong-code:user:${userId}`) }))?.count ?? 0;

  it("spends no guess on six cross-site GETs with wrong codes: the real code is then accepted from the page", async () => {
    const { browser, id: userId } = await signedInAs("user");
    const wrong = Array.from({ length: 6 }, guessedCode);
    const pages = [];
    for (const code of wrong) pages.push(await openLink(browser, code, "cross-site"));

    // The attack: before, these six spent the user's five wrong codes and the real one got 429.
    const code = await newCode();
    const approved = await approve(browser, code.user_code);
    expect(approved.status).toBe(200);
    expect(await rowOf(code.user_code)).toMatchObject({ status: "approved", userId });
    expect(await wrongCodes(userId)).toBe(0);

    // Each link only filled the form in: the code is there, nothing was looked up or refused.
    for (const [i, page] of pages.entries()) {
      expect(page.status, `cross-site GET ${i + 1}`).toBe(200);
      const html = await page.text();
      expect(html).toContain(`value="${wrong[i]}"`);
      const text = visibleText(html);
      expect(text).toContain("Check that this is the code the Modelify app shows");
      expect(text).not.toContain("isn't valid");
      expect(text).not.toContain("Too many");
    }
    // Sent from the page, a prefilled code is looked up and shows its device.
    const next = await newCode();
    const shown = await lookUp(browser, next.user_code);
    expect(shown.status).toBe(200);
    expect(await pageText(shown)).toContain(next.fields.device_name);
  });

  it("only fills the form in for a GET without Sec-Fetch-Site or from a sibling site, even with the real code", async () => {
    const { browser, id: userId } = await signedInAs("user");
    const code = await newCode();
    for (const site of [null, "same-site"] as const) {
      for (const userCode of [guessedCode(), code.user_code]) {
        const page = await openLink(browser, userCode, site);
        expect(page.status, `${site}`).toBe(200);
        const text = await pageText(page);
        expect(text, `${site}`).not.toContain(code.fields.device_name);
        expect(text, `${site}`).toContain("Check that this is the code");
      }
    }
    expect(await wrongCodes(userId)).toBe(0);
    expect((await rowOf(code.user_code)).status).toBe("pending");
  });

  it("counts codes sent from the page: five wrong, then 429 with Retry-After for the rest of the 15 minutes", async () => {
    const { browser } = await signedInAs("user");
    for (let i = 0; i < 5; i++) {
      const wrong = await lookUp(browser, guessedCode());
      expect(wrong.status, `POST ${i + 1}`).toBe(404);
      expect(await pageText(wrong)).toContain("isn't valid");
    }
    const code = await newCode();
    const refused = await lookUp(browser, code.user_code);
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("Retry-After"));
    expect(Number.isInteger(wait)).toBe(true);
    expect(wait).toBeGreaterThan(14 * 60);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    const text = await pageText(refused);
    expect(text).toContain("Too many wrong codes. Try again in 15 minutes.");
    expect(text).not.toContain(code.fields.device_name);
    // The same wait on the page's data request (the form with JavaScript) and on the app's link.
    for (const answer of [await browser.post("/device.data", { intent: "lookup", code: code.user_code }), await openLink(browser, code.user_code)]) {
      expect(answer.status).toBe(429);
      const again = Number(answer.headers.get("Retry-After"));
      expect(again).toBeGreaterThanOrEqual(1);
      expect(again).toBeLessThanOrEqual(wait);
    }
    expect((await rowOf(code.user_code)).status).toBe("pending");
  });

  it("shows the request at once when the app's link is opened (Sec-Fetch-Site none), and from our own pages", async () => {
    const { browser } = await signedInAs("user");
    for (const site of ["none", "same-origin"] as const) {
      const code = await newCode();
      const page = await openLink(browser, code.user_code, site);
      expect(page.status, site).toBe(200);
      const text = await pageText(page);
      expect(text, site).toContain("Approve This Device?");
      expect(text, site).toContain(code.fields.device_name);
      expect(text, site).toContain(code.user_code);
    }
  });
});

describe("when and where the code was asked for (RFC 8628 5.4)", () => {
  it("shows how long ago, the time and the country the app asked from", async () => {
    const { browser } = await signedInAs("user");
    const code = await newCode({}, { country: "DE" });
    expect((await rowOf(code.user_code)).requestCountry).toBe("DE");
    // A controlled clock: the request was made 2 minutes and a few seconds ago.
    const requestedAt = Date.now() - 2 * 60_000 - 5_000;
    await updateRow(code.user_code, { createdAt: requestedAt });
    const page = await openLink(browser, code.user_code);
    expect(page.status).toBe(200);
    const text = await pageText(page);
    expect(text).toContain("Requested 2 minutes ago from Germany");
    expect(text).toContain(SITE_FORMATS.dateTime(requestedAt));
  });

  it("says so when the country is unknown, and names Tor", async () => {
    const { browser } = await signedInAs("user");
    for (const [country, words] of [
      [undefined, "Requested less than a minute ago from an unknown country"],
      ["XX", "Requested less than a minute ago from an unknown country"],
      ["T1", "Requested less than a minute ago from the Tor network"],
    ] as const) {
      const code = await newCode({}, { country });
      const page = await openLink(browser, code.user_code);
      expect(await pageText(page), String(country)).toContain(words);
    }
  });

  it("shows it on the page a typed code leads to, and again when the password is asked for", async () => {
    const { browser } = await signedInAs("user");
    await ageSession(browser);
    const code = await newCode({}, { country: "FR" });
    await updateRow(code.user_code, { createdAt: Date.now() - 61 * 60_000 });
    expect(await pageText(await lookUp(browser, code.user_code))).toContain("Requested 1 hour ago from France");
    expect(await pageText(await approve(browser, code.user_code))).toContain("Requested 1 hour ago from France");
  });
});

describe("another user's device", () => {
  it("cannot be approved, seen or revoked by a second user", async () => {
    const a = await signedInAs("user");
    const b = await signedInAs("user");
    const { code, tokens } = await approvedDevice(a.browser);

    // B cannot approve (or deny) the code A approved and used, nor a code A approved but not yet used.
    expect((await approve(b.browser, code.user_code)).status).toBe(400);
    const approvedOnly = await newCode();
    expect((await approve(a.browser, approvedOnly.user_code)).status).toBe(200);
    const stolen = await approve(b.browser, approvedOnly.user_code);
    expect(stolen.status).toBe(400);
    expect(await pageText(stolen)).toContain("isn't valid");
    expect((await deny(b.browser, approvedOnly.user_code)).status).toBe(400);
    expect(await rowOf(approvedOnly.user_code)).toMatchObject({ status: "approved", userId: a.id });
    const exchanged = await patientPoll(approvedOnly);
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.user!.id).toBe(a.id);

    // B's profile does not show A's device; A's does.
    const bProfile = await b.browser.get("/dashboard/profile");
    expect(bProfile.status).toBe(200);
    expect(await bProfile.text()).not.toContain(code.fields.device_name);
    expect(await pageText(await a.browser.get("/dashboard/profile"))).toContain(code.fields.device_name);

    // B cannot end it.
    const json = await b.browser.post(SESSIONS_ROUTE, { intent: "end", sessionId: tokens.device.id }, JSON_ACCEPT);
    expect(json.status).toBe(404);
    const form = await b.browser.post(SESSIONS_ROUTE, { intent: "end", sessionId: tokens.device.id });
    expect(form.headers.get("Location")).toBe("/dashboard/profile?sessions=not-found");
    expect((await db.query.sessions.findFirst({ where: eq(schema.sessions.id, tokens.device.id) }))!.revokedAt).toBeNull();
    expect((await postUsage(tokens.access_token, report())).status).toBe(202);
  });

  it("lets only one of two users approve the same code when both submit at once", async () => {
    const a = await signedInAs("user");
    const b = await signedInAs("user");
    const code = await newCode();
    const answers = await Promise.all([approve(a.browser, code.user_code), approve(b.browser, code.user_code)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = answers[0]!.status === 200 ? a : b;
    expect(await rowOf(code.user_code)).toMatchObject({ status: "approved", userId: winner.id });
    const exchanged = await patientPoll(code);
    expect(exchanged.body.user!.id).toBe(winner.id);
  });
});

describe("a device's tokens", () => {
  it("report usage under the device key, shown on the profile and in Recent Activity", async () => {
    const { browser, id: userId } = await signedInAs("user");
    const { code, tokens } = await approvedDevice(browser, { platform: "linux", app_version: "4.5.6" });
    const reported = report({ model_name: "device-model" });
    expect((await postUsage(tokens.access_token, reported)).status).toBe(202);
    await waitForRows(userId, 1);
    // The account's ledger keeps the report with the device key that sent it.
    const stored = (await ledger(userId).read({ now: Date.now(), recent: 10 })).recent!;
    expect(stored.filter((r) => r.id === reported.report_id.toLowerCase()).map((r) => r.deviceId)).toEqual([tokens.device.id]);

    const profile = await browser.get("/dashboard/profile");
    expect(profile.status).toBe(200);
    const text = await pageText(profile);
    expect(text).toContain(code.fields.device_name);
    expect(text).toContain("Linux");
    expect(text).toContain("4.5.6");
    expect(text).toMatch(/\b1 request\b/);

    const overview = await (await browser.get("/dashboard")).text();
    const recent = /data-testid="recent-activity"[\s\S]*?<\/ul>/.exec(overview);
    expect(recent, "Recent Activity").not.toBeNull();
    expect(visibleText(recent![0])).toContain(code.fields.device_name);
  });

  it("stop at once when the owner revokes the device: usage, account and entitlements 401 session_ended, refresh refused", async () => {
    const { browser } = await signedInAs("user");
    const { tokens } = await approvedDevice(browser);
    expect((await postUsage(tokens.access_token, report())).status).toBe(202);

    const ended = await browser.post(SESSIONS_ROUTE, { intent: "end", sessionId: tokens.device.id });
    expect(ended.status).toBe(303);
    expect(ended.headers.get("Location")).toBe("/dashboard/profile?sessions=ended");

    const refused = await postUsage(tokens.access_token, report());
    expect(refused.status).toBe(401);
    const body = await refused.json<{ error: string; code: string }>();
    expect(body.code).toBe("session_ended");
    expect(body.error).toContain("Sign in again");
    // Whatever the app asks next says the same, so it can show it wherever it is.
    for (const path of ["/api/v1/me", "/api/v1/entitlements"]) {
      const answer = await SELF.fetch(`${ORIGIN}${path}`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
      expect(answer.status, path).toBe(401);
      expect(await answer.json(), path).toEqual(body);
    }
    // A token that is not ours is no ended session: the plain 401 without the code.
    const [header, payload] = tokens.access_token.split(".");
    const forged = await SELF.fetch(`${ORIGIN}/api/v1/me`, { headers: { Authorization: `Bearer ${header}.${payload}.${"A".repeat(43)}` } });
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { code?: string }).code).toBeUndefined();
    const renewed = await refresh(tokens.refresh_token);
    expect(renewed.status).toBe(401);
    // The owner's web session goes on.
    expect((await browser.get("/dashboard")).status).toBe(200);
  });

  it("renew with the device's refresh token while the device is live", async () => {
    const { browser } = await signedInAs("user");
    const { tokens } = await approvedDevice(browser);
    const renewed = await refresh(tokens.refresh_token);
    expect(renewed.status).toBe(200);
    const fresh = await renewed.json<{ access_token: string; refresh_token: string }>();
    expect(sidOfToken(fresh.access_token)).toBe(tokens.device.id);
    expect((await postUsage(fresh.access_token, report())).status).toBe(202);
  });

  it("all stop when the owner resets the password (through the e-mailed link)", async () => {
    const { browser, email } = await signedInAs("user");
    const one = await approvedDevice(browser, { platform: "windows" });
    const two = await approvedDevice(browser, { platform: "macos" });
    for (const d of [one, two]) expect((await postUsage(d.tokens.access_token, report())).status).toBe(202);

    const start = Date.now();
    const resetter = new Browser();
    expect((await resetter.post("/auth?mode=forgot-password", { intent: "forgot-password", email })).status).toBe(200);
    const mail = await waitForMail(email, /Reset your Modelify password/, { after: start });
    expect((await resetter.get(linkPath(mail.links[0]!))).status).toBe(302);
    const reset = await resetter.post("/auth/reset-password", { password: "New-Secret-77", confirmPassword: "New-Secret-77" });
    expect(reset.status).toBe(200);

    for (const d of [one, two]) {
      expect((await postUsage(d.tokens.access_token, report())).status).toBe(401);
      expect((await refresh(d.tokens.refresh_token)).status).toBe(401);
    }
  });

  it("are rate-limited per device: exhausting one device leaves another device of the same user its own allowance", () =>
    // The limiter counts in clock-aligned minutes: the whole run must fall in one.
    inOneMinute(async () => {
      const { browser } = await signedInAs("user");
      const a = await approvedDevice(browser);
      const b = await approvedDevice(browser);

      // tests/wrangler.test.toml allows 5 limiter calls of 10-request leases a minute: 50 requests
      // per key in tests (1,000 in production). Invalid bodies are refused but still counted.
      const perMinute = 5 * USAGE_API.rateLimitLease;
      let allowed = 0;
      let refused: Response | null = null;
      for (let i = 0; i < perMinute + 20; i++) {
        const response = await postUsage(a.tokens.access_token, { reports: [] });
        if (response.status === 429) {
          refused = response;
          break;
        }
        allowed++;
      }
      expect(refused, "device A was never refused").not.toBeNull();
      expect(allowed).toBeGreaterThan(perMinute - USAGE_API.rateLimitLease);
      expect(allowed).toBeLessThanOrEqual(perMinute);
      expect(Number(refused!.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
      expect((await postUsage(a.tokens.access_token, report())).status).toBe(429);

      // Device B of the same user still reports.
      expect((await postUsage(b.tokens.access_token, report())).status).toBe(202);
    }));
});

describe("a device key's record", () => {
  it("moves its last use forward with each batch (never back) and keeps the last known country", async () => {
    const { browser: owner } = await signedInAs("user");
    const { tokens } = await approvedDevice(owner);
    const deviceId = tokens.device.id;
    const user = tokens.user.id;
    const item = (receivedAt: number, country: string | null): UsageItem => ({
      userId: user,
      receivedAt,
      report: { ...report(), occurred_at: receivedAt } as never,
      deviceId,
      country,
    });
    // What the consumer does with a batch: one call to the account's ledger, then the shared figures to D1.
    const consume = async (usage: UsageItem[], now: number) => {
      const result = await ingestAccount(env.USAGE_LEDGER, user, usage, [], null, now);
      await writeShared(db, [{ userId: user, result, usage, secure: [] }]);
      return result;
    };
    const now = Date.now();
    const first = [item(now - 1000, "DE"), item(now, "FR")];
    expect((await consume(first, now)).stored).toBe(2);
    const keyRow = () => db.query.sessions.findFirst({ columns: { lastUsedAt: true, lastCountry: true }, where: eq(schema.sessions.id, deviceId) });
    expect(await keyRow()).toEqual({ lastUsedAt: now, lastCountry: "FR" });
    // An older report, and one from an unknown country, change neither.
    expect((await consume([item(now - 60_000, null)], now)).stored).toBe(1);
    expect(await keyRow()).toEqual({ lastUsedAt: now, lastCountry: "FR" });
    // Nor does the first batch redelivered (its reports are duplicates in the ledger).
    expect(await consume([first[0]!], now + 5000)).toMatchObject({ stored: 0, duplicates: 1 });
    expect(await keyRow()).toEqual({ lastUsedAt: now, lastCountry: "FR" });
  });

  it("replaces the earlier key of the same installation when it signs in again", async () => {
    const { browser: owner } = await signedInAs("user");
    const first = await approvedDevice(owner, { app_instance_id: "install-1" });
    const second = await approvedDevice(owner, { app_instance_id: "install-1" });
    const other = await approvedDevice(owner, { app_instance_id: "install-2" });
    expect((await postUsage(first.tokens.access_token, report())).status).toBe(401);
    expect((await postUsage(second.tokens.access_token, report())).status).toBe(202);
    expect((await postUsage(other.tokens.access_token, report())).status).toBe(202);
  });

  it("sweeps codes a day past their life or decision, and nothing younger", async () => {
    const old = await newCode();
    const young = await newCode();
    await updateRow(old.user_code, { expiresAt: Date.now() - 25 * 3_600_000, createdAt: Date.now() - 26 * 3_600_000 });
    expect(await sweepDeviceAuthorizations(db)).toBeGreaterThanOrEqual(1);
    expect(await rowOf(old.user_code)).toBeUndefined();
    expect(await rowOf(young.user_code)).toBeDefined();
  });
});
