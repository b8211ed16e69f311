import { createExecutionContext, createScheduledController, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { handlers as worker } from "../worker";
import { signAccessToken } from "~/lib/auth/jwt";
import { INACTIVITY_LIMIT_MS, SESSION } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { Browser, createConfirmedUser, db, SESSION_KEYS, STRONG_PASSWORD, waitForMail } from "./helpers";

async function sessionsOf(email: string) {
  const user = await db.query.users.findFirst({ where: eq(schema.users.email, email) });
  return db.select().from(schema.sessions).where(eq(schema.sessions.userId, user!.id));
}

async function apiToken(email: string, password = STRONG_PASSWORD) {
  const response = await SELF.fetch("http://localhost/api/v1/auth/token", {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": "192.0.2.10" },
    body: JSON.stringify({ email, password }),
  });
  return { status: response.status, body: await response.json<Record<string, unknown>>() };
}

describe("web sessions", () => {
  it("refreshes an expired access token with a rotated refresh token", async () => {
    const { browser, email } = await createConfirmedUser();
    const oldRefresh = browser.cookies.get("mfy_refresh")!;
    browser.cookies.delete("mfy_access"); // as when its 15 minutes are over
    const page = await browser.get("/dashboard");
    expect(page.status).toBe(200);
    expect(browser.cookies.get("mfy_access")).toBeTruthy();
    const newRefresh = browser.cookies.get("mfy_refresh")!;
    expect(newRefresh).not.toBe(oldRefresh);
    const [session] = await sessionsOf(email);
    expect(session!.refreshTokenHash).not.toContain(newRefresh);
    expect(session!.rotatedAt).not.toBeNull();
  });

  it("ends the session when an old refresh token is replayed after the grace window", async () => {
    const { browser, email } = await createConfirmedUser();
    const stolen = browser.cookies.get("mfy_refresh")!;
    browser.cookies.delete("mfy_access");
    await browser.get("/dashboard");
    const [session] = await sessionsOf(email);
    // Pretend the rotation happened long ago.
    await db
      .update(schema.sessions)
      .set({ rotatedAt: Date.now() - SESSION.refreshReuseGraceMs - 1000 })
      .where(eq(schema.sessions.id, session!.id));
    const thief = new Browser();
    thief.cookies.set("mfy_refresh", stolen);
    expect((await thief.get("/dashboard")).headers.get("Location")).toBe("/auth");
    const [after] = await sessionsOf(email);
    expect(after!.revokedReason).toBe("refresh_token_reuse");
    // The rightful browser is signed out too once its access token expires.
    browser.cookies.delete("mfy_access");
    expect((await browser.get("/dashboard")).headers.get("Location")).toBe("/auth");
  });

  it("accepts a just-rotated refresh token within the grace window (two tabs racing)", async () => {
    const { browser } = await createConfirmedUser();
    const refresh = browser.cookies.get("mfy_refresh")!;
    browser.cookies.delete("mfy_access");
    await browser.get("/dashboard");
    const otherTab = new Browser(browser.ip);
    otherTab.cookies.set("mfy_refresh", refresh);
    expect((await otherTab.get("/dashboard")).status).toBe(200);
  });

  it("refuses a revoked session at once, even with an unexpired access token", async () => {
    const { browser, email } = await createConfirmedUser();
    const copy = new Browser();
    copy.cookies = new Map(browser.cookies);
    const signOut = await browser.post("/auth/sign-out", { redirectTo: "/" });
    expect(signOut.status).toBe(302);
    expect(signOut.headers.get("Location")).toBe("/");
    expect(signOut.headers.getSetCookie().join()).toMatch(/mfy_access=; .*Max-Age=0/);
    const [session] = await sessionsOf(email);
    expect(session!.revokedAt).not.toBeNull();
    expect((await copy.get("/dashboard")).headers.get("Location")).toBe("/auth");
  });

  it("refuses an expired or forged access token", async () => {
    const { browser, email } = await createConfirmedUser();
    const [session] = await sessionsOf(email);
    const expired = await signAccessToken(
      { sub: session!.userId, sid: session!.id },
      SESSION_KEYS,
      SESSION.accessTokenTtlMs,
      Date.now() - 2 * SESSION.accessTokenTtlMs,
    );
    const forged = await signAccessToken(
      { sub: session!.userId, sid: session!.id },
      { current: "another-secret-another-secret-another-secret" },
      SESSION.accessTokenTtlMs,
    );
    for (const token of [expired, forged, "garbage"]) {
      const b = new Browser();
      b.cookies.set("mfy_access", token);
      expect((await b.get("/dashboard")).headers.get("Location")).toBe("/auth");
    }
    expect((await browser.get("/dashboard")).status).toBe(200);
  });

  it("signs out on refresh when the account is older than 720 h and the last login too", async () => {
    const { browser, email } = await createConfirmedUser();
    const user = await db.query.users.findFirst({ where: eq(schema.users.email, email) });
    const old = Date.now() - INACTIVITY_LIMIT_MS - 3600_000;
    await db.update(schema.users).set({ createdAt: old }).where(eq(schema.users.id, user!.id));
    await db.update(schema.userProfiles).set({ lastLoginAt: old }).where(eq(schema.userProfiles.userId, user!.id));
    browser.cookies.delete("mfy_access");
    expect((await browser.get("/dashboard")).headers.get("Location")).toBe("/auth");
    const [session] = await sessionsOf(email);
    expect(session!.revokedReason).toBe("inactive");
  });
});

describe("inactivity sweep (cron)", () => {
  it("revokes sessions of inactive accounts and keeps the others", async () => {
    const inactive = await createConfirmedUser();
    const recentLogin = await createConfirmedUser();
    const youngAccount = await createConfirmedUser();
    const old = Date.now() - INACTIVITY_LIMIT_MS - 3600_000;
    const idOf = async (email: string) => (await db.query.users.findFirst({ where: eq(schema.users.email, email) }))!.id;
    const [a, b, c] = await Promise.all([idOf(inactive.email), idOf(recentLogin.email), idOf(youngAccount.email)]);
    await db.update(schema.users).set({ createdAt: old }).where(eq(schema.users.id, a));
    await db.update(schema.userProfiles).set({ lastLoginAt: old }).where(eq(schema.userProfiles.userId, a));
    await db.update(schema.users).set({ createdAt: old }).where(eq(schema.users.id, b)); // old account, recent login
    await db.update(schema.userProfiles).set({ lastLoginAt: old }).where(eq(schema.userProfiles.userId, c)); // young account

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "0 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);

    expect((await sessionsOf(inactive.email)).every((s) => s.revokedReason === "inactive")).toBe(true);
    expect((await sessionsOf(recentLogin.email)).every((s) => s.revokedAt === null)).toBe(true);
    expect((await sessionsOf(youngAccount.email)).every((s) => s.revokedAt === null)).toBe(true);
    expect((await inactive.browser.get("/dashboard")).headers.get("Location")).toBe("/auth");
    expect((await recentLogin.browser.get("/dashboard")).status).toBe(200);
  });
});

describe("desktop API tokens", () => {
  it("issues tokens, refreshes them with rotation, and refuses revoked or reused ones", async () => {
    const { email } = await createConfirmedUser();
    const issued = await apiToken(email);
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({ token_type: "Bearer", expires_in: 900, user: { email } });
    const sessions = await sessionsOf(email);
    expect(sessions.find((s) => s.client === "desktop")).toBeTruthy();

    const refresh = (token: unknown) =>
      SELF.fetch("http://localhost/api/v1/auth/refresh", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ refresh_token: token }),
      });
    const first = await refresh(issued.body.refresh_token);
    expect(first.status).toBe(200);
    const rotated = await first.json<{ refresh_token: string; access_token: string }>();
    expect(rotated.refresh_token).not.toBe(issued.body.refresh_token);
    // Within the grace window the old token gets 409 (use the newest one), not a new token.
    expect((await refresh(issued.body.refresh_token)).status).toBe(409);
    expect((await refresh("unknown-token")).status).toBe(401);
    const second = await refresh(rotated.refresh_token);
    expect(second.status).toBe(200);
    const latest = await second.json<{ refresh_token: string; access_token: string }>();

    const me = (token: string) => SELF.fetch("http://localhost/api/v1/me", { headers: { Authorization: `Bearer ${token}` } });
    const whoami = await me(latest.access_token);
    expect(whoami.status).toBe(200);
    expect(await whoami.json()).toMatchObject({ email, has_active_subscription: false });

    // Signing out everywhere (as a password reset does) cuts the API off at once.
    const user = await db.query.users.findFirst({ where: eq(schema.users.email, email) });
    await db.update(schema.sessions).set({ revokedAt: Date.now(), revokedReason: "test" }).where(eq(schema.sessions.userId, user!.id));
    const refused = await me(latest.access_token);
    expect(refused.status).toBe(401);
    // A well-signed token of a session that ended says so, for the app to sign in again.
    expect(await refused.json()).toEqual({ error: "This device was signed out of your Modelify account. Sign in again from the app.", code: "session_ended" });
    expect((await refresh(latest.refresh_token)).status).toBe(401);
    expect((await SELF.fetch("http://localhost/api/v1/me")).status).toBe(401);
    expect((await me("not-a-jwt-but-long-enough-to-look-like-one")).status).toBe(401);
  });

  it("answers JSON errors for bad credentials and unconfirmed accounts", async () => {
    const { email } = await createConfirmedUser();
    const wrong = await apiToken(email, "Wrong-Pass-1");
    expect(wrong).toEqual({ status: 401, body: { error: "Invalid email or password. Please check your credentials and try again." } });
    const browser = new Browser();
    const unconfirmed = `unconfirmed-${Date.now()}@example.com`;
    await browser.post("/auth?mode=signup", {
      intent: "signup",
      firstName: "A",
      lastName: "B",
      email: unconfirmed,
      phoneNumber: "5551234567",
      securityQuestion: "first_pet",
      securityAnswer: "abc",
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
    });
    await waitForMail(unconfirmed, /Confirm your Modelify account/); // the consumer has created the account
    const early = await apiToken(unconfirmed);
    expect(early).toEqual({ status: 403, body: { error: "Please check your email and click the confirmation link before signing in." } });
  });
});
