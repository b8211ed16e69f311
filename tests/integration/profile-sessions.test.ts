// The profile's "Sessions and devices": listing an account's browsers and desktop apps, and ending
// them from /dashboard/profile/sessions. An ended session stops at its very next request, web or
// desktop; nobody can see or end another account's sessions.
import { env, SELF } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { listActiveSessions } from "~/lib/auth/sessions-list.server";
import { schema } from "~/lib/db.server";
import { SESSION_MESSAGES } from "~/lib/profile/messages";
import { MS } from "~/lib/constants";
import { ingestAccount, type UsageItem } from "~/lib/usage/ingest.server";
import { Browser, createConfirmedUser, db, ORIGIN, sessionIdOf, sidOfToken, STRONG_PASSWORD } from "./helpers";
import { report } from "./usage-helpers";

const UA = {
  chromeMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  firefoxWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
  desktop: "Modelify/1.4.2 (macOS 14.5; arm64)",
};

const ROUTE = "/dashboard/profile/sessions";
const JSON_ACCEPT = { Accept: "application/json" };

async function signedInBrowser(email: string, userAgent: string) {
  const browser = new Browser();
  const response = await browser.post("/auth?mode=signin", { intent: "signin", email, password: STRONG_PASSWORD }, { "User-Agent": userAgent });
  if (response.status !== 200 || !browser.cookies.get("mfy_access")) throw new Error(`sign-in answered ${response.status}`);
  return browser;
}

async function desktopSignIn(email: string) {
  const response = await SELF.fetch(`${ORIGIN}/api/v1/auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": "192.0.2.44", "User-Agent": UA.desktop },
    body: JSON.stringify({ email, password: STRONG_PASSWORD }),
  });
  expect(response.status).toBe(200);
  const body = await response.json<{ access_token: string; refresh_token: string }>();
  return { ...body, sid: sidOfToken(body.access_token) };
}

const desktopRefresh = (refreshToken: string) =>
  SELF.fetch(`${ORIGIN}/api/v1/auth/refresh`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ refresh_token: refreshToken }),
  });

const desktopMe = (accessToken: string) => SELF.fetch(`${ORIGIN}/api/v1/me`, { headers: { Authorization: `Bearer ${accessToken}` } });

/** One account signed in three times: Chrome on a Mac, Firefox on Windows and the desktop app. */
async function threeDevices() {
  const { browser: first, email } = await createConfirmedUser();
  // The browser that confirmed the account signs out, leaving exactly the three below.
  await first.post("/auth/sign-out", { redirectTo: "/" });
  const user = (await db.query.users.findFirst({ where: eq(schema.users.email, email) }))!;
  const chrome = await signedInBrowser(email, UA.chromeMac);
  const firefox = await signedInBrowser(email, UA.firefoxWindows);
  const desktop = await desktopSignIn(email);
  return { email, userId: user.id, chrome, firefox, desktop };
}

/** What listActiveSessions reads: D1 for the sessions, the account's usage ledger for each device key's month. */
const stores = { db, ledgers: env.USAGE_LEDGER };
const zoned = (id: string) => ({ id, profile: { timeZone: "UTC" } });

async function sessionRow(id: string) {
  return (await db.query.sessions.findFirst({ where: eq(schema.sessions.id, id) }))!;
}

async function liveIds(userId: string) {
  return (await listActiveSessions(stores, zoned(userId), null)).map((s) => s.id).sort();
}

describe("listing sessions", () => {
  it("lists the browsers and the desktop app with their devices, the current one first and marked", async () => {
    const { userId, chrome, firefox, desktop } = await threeDevices();
    const list = await listActiveSessions(stores, zoned(userId), sessionIdOf(chrome));
    expect(list).toHaveLength(3);
    expect(list[0]).toMatchObject({ id: sessionIdOf(chrome), client: "web", device: "Chrome on macOS", current: true });
    const others = list.slice(1);
    expect(others.find((s) => s.id === sessionIdOf(firefox))).toMatchObject({ client: "web", device: "Firefox on Windows", current: false });
    expect(others.find((s) => s.id === desktop.sid)).toMatchObject({ client: "desktop", device: "Modelify desktop app 1.4.2 on macOS", current: false });
    // Others by last activity: the desktop app signed in last.
    expect(others.map((s) => s.id)).toEqual([desktop.sid, sessionIdOf(firefox)]);
    for (const s of list) expect(s.createdAt).toBeLessThanOrEqual(s.lastActiveAt);
    // No secrets in what the page gets.
    expect(JSON.stringify(list)).not.toMatch(/refresh|hash|Mozilla/i);
  });

  it("gives a desktop key its requests and cost of this month from the account's usage ledger", async () => {
    const { userId, chrome, desktop } = await threeDevices();
    const now = Date.now();
    const monthStart = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), 1);
    const item = (occurredAt: number, cost_usd: number, deviceId: string | null): UsageItem => ({
      userId,
      receivedAt: occurredAt,
      report: { ...report({ cost_usd }), occurred_at: occurredAt } as never,
      deviceId,
    });
    const usage = [
      item(monthStart, 0.25, desktop.sid),
      item(now, 0.5, desktop.sid),
      item(monthStart - MS.DAY, 1, desktop.sid), // last month
      item(now, 2, null), // sent by no device key
    ];
    expect((await ingestAccount(env.USAGE_LEDGER, userId, usage, [], null, now)).stored).toBe(4);
    const list = await listActiveSessions(stores, zoned(userId), sessionIdOf(chrome), now);
    expect(list.find((s) => s.id === desktop.sid)!.key).toMatchObject({ monthRequests: 2, monthCostUsd: 0.75 });
    for (const s of list.filter((s) => s.client === "web")) expect(s.key).toBeNull();
  });

  it("records last activity at sign-in and at every renewal, and leaves ended and expired sessions out", async () => {
    const { userId, chrome, firefox, desktop } = await threeDevices();
    const before = await sessionRow(sessionIdOf(firefox));
    expect(before.lastSeenAt).toBe(before.createdAt);
    firefox.cookies.delete("mfy_access"); // its 15 minutes are over: the next page renews
    // The sign-in as if a while ago, so the renewal's time is later than it whatever the clock's resolution.
    await db
      .update(schema.sessions)
      .set({ lastSeenAt: before.createdAt - 60_000 })
      .where(eq(schema.sessions.id, before.id));
    expect((await firefox.get("/dashboard")).status).toBe(200);
    const after = await sessionRow(sessionIdOf(firefox));
    expect(after.lastSeenAt).toBeGreaterThan(before.createdAt - 60_000);
    expect(after.rotatedAt).toBe(after.lastSeenAt);

    const renewed = await desktopRefresh(desktop.refresh_token);
    expect(renewed.status).toBe(200);
    expect((await sessionRow(desktop.sid)).lastSeenAt).toBeGreaterThan((await sessionRow(desktop.sid)).createdAt);

    await db
      .update(schema.sessions)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(schema.sessions.id, desktop.sid));
    expect(await liveIds(userId)).toEqual([sessionIdOf(chrome), sessionIdOf(firefox)].sort());
  });
});

describe("ending sessions", () => {
  it("ends another browser: it is signed out at its next request and its refresh cookie is dead", async () => {
    const { userId, chrome, firefox } = await threeDevices();
    const firefoxSid = sessionIdOf(firefox);
    const refreshOnly = new Browser();
    refreshOnly.cookies.set("mfy_refresh", firefox.cookies.get("mfy_refresh")!);

    const answer = await chrome.post(ROUTE, { intent: "end", sessionId: firefoxSid });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("Location")).toBe("/dashboard/profile?sessions=ended");

    expect((await firefox.get("/dashboard")).headers.get("Location")).toBe("/auth");
    expect((await refreshOnly.get("/dashboard")).headers.get("Location")).toBe("/auth");
    expect(await sessionRow(firefoxSid)).toMatchObject({ revokedReason: "ended_by_user" });
    expect((await chrome.get("/dashboard")).status).toBe(200);
    expect(await liveIds(userId)).not.toContain(firefoxSid);
  });

  it("ends the desktop app: its refresh token and its access token are refused at once", async () => {
    const { chrome, desktop } = await threeDevices();
    expect((await desktopMe(desktop.access_token)).status).toBe(200);
    const answer = await chrome.post(ROUTE, { intent: "end", sessionId: desktop.sid }, JSON_ACCEPT);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ ended: 1 });
    expect((await desktopMe(desktop.access_token)).status).toBe(401);
    expect((await desktopRefresh(desktop.refresh_token)).status).toBe(401);
  });

  it("signs out every other session and keeps this one", async () => {
    const { userId, chrome, firefox, desktop } = await threeDevices();
    const answer = await chrome.post(ROUTE, { intent: "end-others" }, JSON_ACCEPT);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ ended: 2 });
    expect(await liveIds(userId)).toEqual([sessionIdOf(chrome)]);
    expect((await firefox.get("/dashboard")).headers.get("Location")).toBe("/auth");
    expect((await desktopRefresh(desktop.refresh_token)).status).toBe(401);
    expect((await chrome.get("/dashboard")).status).toBe(200);

    // Without JavaScript: back to the profile, and nothing left to end.
    const form = await chrome.post(ROUTE, { intent: "end-others" });
    expect(form.status).toBe(303);
    expect(form.headers.get("Location")).toBe("/dashboard/profile?sessions=others-ended");
    expect(await liveIds(userId)).toEqual([sessionIdOf(chrome)]);
  });

  it("does not end the session in use (Sign Out does that)", async () => {
    const { chrome } = await threeDevices();
    const json = await chrome.post(ROUTE, { intent: "end", sessionId: sessionIdOf(chrome) }, JSON_ACCEPT);
    expect(json.status).toBe(409);
    expect(await json.json()).toEqual({ error: SESSION_MESSAGES.current });
    const form = await chrome.post(ROUTE, { intent: "end", sessionId: sessionIdOf(chrome) });
    expect(form.headers.get("Location")).toBe("/dashboard/profile?sessions=current");
    expect((await sessionRow(sessionIdOf(chrome))).revokedAt).toBeNull();
    expect((await chrome.get("/dashboard")).status).toBe(200);
  });

  it("neither shows nor ends another account's sessions", async () => {
    const a = await threeDevices();
    const b = await createConfirmedUser();
    const bUser = (await db.query.users.findFirst({ where: eq(schema.users.email, b.email) }))!;
    const bList = await listActiveSessions(stores, zoned(bUser.id), sessionIdOf(b.browser));
    expect(bList.map((s) => s.id)).toEqual([sessionIdOf(b.browser)]);

    const before = await liveIds(a.userId);
    for (const target of [sessionIdOf(a.firefox), a.desktop.sid, sessionIdOf(a.chrome)]) {
      const json = await b.browser.post(ROUTE, { intent: "end", sessionId: target }, JSON_ACCEPT);
      expect(json.status).toBe(404);
      expect(await json.json()).toEqual({ error: SESSION_MESSAGES.notFound });
      const form = await b.browser.post(ROUTE, { intent: "end", sessionId: target });
      expect(form.headers.get("Location")).toBe("/dashboard/profile?sessions=not-found");
    }
    // B's "end all others" ends nothing of A's either.
    expect(await (await b.browser.post(ROUTE, { intent: "end-others" }, JSON_ACCEPT)).json()).toEqual({ ended: 0 });
    expect(await liveIds(a.userId)).toEqual(before);
    expect((await desktopMe(a.desktop.access_token)).status).toBe(200);
  });

  it("answers an already ended or unknown session with not found", async () => {
    const { chrome, firefox } = await threeDevices();
    await chrome.post(ROUTE, { intent: "end", sessionId: sessionIdOf(firefox) });
    const again = await chrome.post(ROUTE, { intent: "end", sessionId: sessionIdOf(firefox) }, JSON_ACCEPT);
    expect(again.status).toBe(404);
    const unknown = await chrome.post(ROUTE, { intent: "end", sessionId: crypto.randomUUID() }, JSON_ACCEPT);
    expect(unknown.status).toBe(404);
  });

  it("stays harmless under a parallel burst of end requests", async () => {
    const { userId, chrome, firefox, desktop } = await threeDevices();
    const requests = [
      ...Array.from({ length: 8 }, () => chrome.post(ROUTE, { intent: "end", sessionId: sessionIdOf(firefox) }, JSON_ACCEPT)),
      ...Array.from({ length: 8 }, () => chrome.post(ROUTE, { intent: "end", sessionId: desktop.sid }, JSON_ACCEPT)),
      ...Array.from({ length: 4 }, () => chrome.post(ROUTE, { intent: "end-others" }, JSON_ACCEPT)),
    ];
    const answers = await Promise.all(requests);
    for (const a of answers) expect([200, 404]).toContain(a.status);
    const bodies = await Promise.all(answers.map((a) => a.json<{ ended?: number }>()));
    // Each of the two sessions was ended exactly once, by whichever request came first.
    expect(bodies.reduce((sum, b) => sum + (b.ended ?? 0), 0)).toBe(2);
    expect(await liveIds(userId)).toEqual([sessionIdOf(chrome)]);
    const reasons = await db
      .select({ reason: schema.sessions.revokedReason })
      .from(schema.sessions)
      .where(and(eq(schema.sessions.userId, userId)));
    expect(reasons.filter((r) => r.reason === "ended_by_user")).toHaveLength(2);
  });
});

describe("the sessions route refuses what it must", () => {
  it("answers malformed requests with a 4xx, never a 500, and changes nothing", async () => {
    const { userId, chrome } = await threeDevices();
    const before = await liveIds(userId);
    const forms: Array<Record<string, string>> = [
      {},
      { intent: "end" },
      { intent: "end", sessionId: "" },
      { intent: "end", sessionId: "not-a-uuid" },
      { intent: "end", sessionId: `${crypto.randomUUID()}x` },
      { intent: "end", sessionId: "' OR 1=1 --" },
      { intent: "end", sessionId: "x".repeat(10_000) },
      { intent: "nuke" },
      { intent: "END-OTHERS" },
      { intent: "end-others\u0000" },
    ];
    for (const fields of forms) {
      for (const headers of [{}, JSON_ACCEPT]) {
        const answer = await chrome.post(ROUTE, fields, headers);
        expect(answer.status, JSON.stringify(fields)).toBe(400);
      }
    }
    const raw = (body: BodyInit, type: string) =>
      SELF.fetch(`${ORIGIN}${ROUTE}`, {
        method: "POST",
        body,
        headers: { Cookie: chrome.cookieHeader(), Origin: ORIGIN, "Content-Type": type, ...JSON_ACCEPT },
      });
    expect((await raw(JSON.stringify({ intent: "end-others" }), "application/json")).status).toBe(415);
    expect((await raw("intent=end-others", "text/plain")).status).toBe(415);
    expect((await raw(`intent=end&sessionId=${"a".repeat(64 * 1024)}`, "application/x-www-form-urlencoded")).status).toBe(413);
    expect((await raw("--x\r\nbroken", "multipart/form-data; boundary=x")).status).toBe(400);
    expect(await liveIds(userId)).toEqual(before);
  });

  it("takes only signed-in, same-site POSTs", async () => {
    const { userId, chrome, firefox } = await threeDevices();
    const before = await liveIds(userId);
    const stranger = new Browser();
    expect((await stranger.post(ROUTE, { intent: "end", sessionId: sessionIdOf(firefox) }, JSON_ACCEPT)).status).toBe(401);
    expect((await stranger.post(ROUTE, { intent: "end-others" })).headers.get("Location")).toBe("/auth");
    const crossSite = await chrome.post(ROUTE, { intent: "end", sessionId: sessionIdOf(firefox) }, { Origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    const get = await chrome.get(ROUTE);
    expect(get.status).toBe(405);
    expect(await liveIds(userId)).toEqual(before);
  });
});
