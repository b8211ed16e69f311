// The takeover paths of the security review (issue 25), each replayed as the attack it was:
// F1 a pending e-mail change surviving the owner's recovery, F2 refresh-token reuse more than one
// rotation back, F4 login CSRF through a planted recovery link, F6 attacker text shown as the
// site's own error. Every test drives the whole Worker through the real runtime.
import { SELF } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { startDeviceAuthorization, decideUserCode, pollDeviceAuthorization } from "~/lib/auth/device-authorization.server";
import { AUTH_MESSAGES } from "~/lib/auth/messages";
import { refreshSession } from "~/lib/auth/session.server";
import { sha256Hex } from "~/lib/crypto";
import { schema } from "~/lib/db.server";
import { DOWNLOAD_MESSAGES } from "~/lib/downloads/messages";
import { EMAIL_CHANGE_MESSAGES, PROFILE_MESSAGES } from "~/lib/profile/messages";
import {
  Browser,
  createConfirmedUser,
  db,
  linkPath,
  ORIGIN,
  recentProofOf,
  revocationDeps,
  SESSION_KEYS,
  signedInAs,
  STRONG_PASSWORD,
  uniqueEmail,
  visibleText,
  waitForMail,
} from "./helpers";

const SECRET = SESSION_KEYS;
const NEW_PASSWORD = "Owner-Back-77";

/** The Edit Profile form as the page sends it, with the given changes. */
async function saveProfile(browser: Browser, email: string, changes: Record<string, string>) {
  return browser.post("/dashboard/profile?edit=1", {
    intent: "save",
    firstName: "Ada",
    lastName: "Lovelace",
    email,
    timezone: "UTC",
    ...changes,
  });
}

async function userOf(email: string) {
  const user = await db.query.users.findFirst({ where: eq(schema.users.email, email) });
  if (!user) throw new Error(`no user ${email}`);
  return user;
}

async function pendingEmailOf(userId: string) {
  const profile = await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, userId) });
  return profile?.pendingEmail ?? null;
}

/** A copy of a signed-in browser's cookies: what an attacker holds after stealing a session. */
function steal(browser: Browser) {
  const thief = new Browser();
  for (const [name, value] of browser.cookies) thief.cookies.set(name, value);
  return thief;
}

async function tokenGrant(email: string, password: string) {
  return SELF.fetch(`${ORIGIN}/api/v1/auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": "192.0.2.90" },
    body: JSON.stringify({ email, password }),
  });
}

/** The owner's recovery: asks for the link, opens it and sets a new password in a fresh browser. */
async function ownerResetsPassword(email: string, password = NEW_PASSWORD) {
  const owner = new Browser();
  const asked = Date.now();
  expect((await owner.post("/auth?mode=forgot-password", { intent: "forgot-password", email })).status).toBe(200);
  const mail = await waitForMail(email, /Reset your Modelify password/, { after: asked });
  const opened = await owner.get(linkPath(mail.links[0]!));
  expect(opened.headers.get("Location")).toBe("/auth/reset-password");
  const reset = await owner.post("/auth/reset-password", { password, confirmPassword: password });
  expect(reset.status).toBe(200);
  return owner;
}

describe("F1: an e-mail change does not survive the owner's recovery", () => {
  it("a session alone cannot ask for a change: the current password is required, and a wrong one counts", async () => {
    const { browser, email } = await createConfirmedUser();
    const user = await userOf(email);
    const thief = steal(browser);
    const attacker = uniqueEmail("attacker");

    const none = await saveProfile(thief, attacker, {});
    expect(none.status).toBe(400);
    expect(await none.text()).toContain(PROFILE_MESSAGES.currentPasswordRequired);
    const wrong = await saveProfile(thief, attacker, { currentPassword: "Not-The-Password-1" });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain(PROFILE_MESSAGES.currentPasswordWrong);
    expect(await pendingEmailOf(user.id)).toBeNull();
    // The wrong password was a sign-in failure of the account (the lockout's counter).
    const counter = await db.query.attemptCounters.findFirst({
      where: eq(schema.attemptCounters.key, `lockout:signIn:account:${await sha256Hex(email)}`),
    });
    expect(counter?.count).toBe(1);
  });

  it("replays the attack: change requested with a stolen session, owner resets, the link is refused and the address stays", async () => {
    const { browser, email } = await createConfirmedUser();
    const user = await userOf(email);
    const thief = steal(browser);
    const attacker = uniqueEmail("attacker");

    // The attacker, with the session and (worst case) the password, asks for their own address.
    const requested = Date.now();
    const ask = await saveProfile(thief, attacker, { currentPassword: STRONG_PASSWORD });
    expect(ask.status).toBe(302);
    expect(await pendingEmailOf(user.id)).toBe(attacker);
    const link = (await waitForMail(attacker, /Confirm your new Modelify e-mail address/, { after: requested })).links[0]!;

    // The owner does what ends a compromise.
    const owner = await ownerResetsPassword(email);

    // The attacker, signed out by now, confirms the link anyway.
    expect((await thief.get("/dashboard")).headers.get("Location")).toBe("/auth");
    const confirmPage = await thief.get(linkPath(link));
    expect(confirmPage.status).toBe(400);
    const confirm = await thief.post(linkPath(link), { token: new URL(link).searchParams.get("token")! });
    expect(confirm.status).toBe(400);
    expect(await confirm.text()).toContain(EMAIL_CHANGE_MESSAGES.invalidLink);

    expect((await userOf(email)).id).toBe(user.id);
    expect(await pendingEmailOf(user.id)).toBeNull();
    expect((await tokenGrant(email, NEW_PASSWORD)).status).toBe(200);
    expect((await tokenGrant(attacker, NEW_PASSWORD)).status).toBe(401);
    expect((await owner.get("/dashboard")).status).toBe(200);
    // The owner's inbox heard of the request when it was made, with a cancel link.
    const notice = await waitForMail(email, /A change of your Modelify e-mail address was requested/, { after: requested });
    expect(notice.text).toContain(attacker);
  });

  it("'sign out all other sessions' and the admin's 'sign out everywhere' cancel a pending change too", async () => {
    for (const revoke of ["owner", "admin"] as const) {
      const { browser, email } = await createConfirmedUser();
      const user = await userOf(email);
      const thief = steal(browser);
      const attacker = uniqueEmail("attacker");
      const requested = Date.now();
      expect((await saveProfile(thief, attacker, { currentPassword: STRONG_PASSWORD })).status).toBe(302);
      const link = (await waitForMail(attacker, /Confirm your new/, { after: requested })).links[0]!;

      if (revoke === "owner") {
        // The owner signs in afresh and ends every other session (the stolen one among them).
        const fresh = new Browser();
        expect((await fresh.post("/auth?mode=signin", { intent: "signin", email, password: STRONG_PASSWORD })).status).toBe(200);
        expect((await fresh.post("/dashboard/profile/sessions", { intent: "end-others" })).status).toBe(303);
        expect((await fresh.get("/dashboard")).status).toBe(200);
      } else {
        const admin = await signedInAs("admin");
        const answer = await admin.browser.post("/dashboard/admin", { intent: "sign-out-everywhere", email });
        expect(answer.status).toBe(200);
        const audit = await db.query.auditLog.findFirst({
          where: and(eq(schema.auditLog.targetUserId, user.id), eq(schema.auditLog.action, "account.sign_out_everywhere")),
        });
        expect(audit?.actorUserId).toBe(admin.id);
        expect((await browser.get("/dashboard")).headers.get("Location")).toBe("/auth");
      }
      expect((await thief.get("/dashboard")).headers.get("Location")).toBe("/auth");
      expect(await pendingEmailOf(user.id)).toBeNull();
      expect((await thief.post(linkPath(link), { token: new URL(link).searchParams.get("token")! })).status).toBe(400);
      expect((await userOf(email)).id).toBe(user.id);
    }
  });

  it("a non-admin cannot sign another account out everywhere", async () => {
    const victim = await createConfirmedUser();
    const other = await signedInAs("user");
    const answer = await other.browser.post("/dashboard/admin", { intent: "sign-out-everywhere", email: victim.email });
    expect(answer.status).toBe(404);
    expect((await victim.browser.get("/dashboard")).status).toBe(200);
  });

  it("the cancel link in the notice drops the change and signs out everywhere, once", async () => {
    const { browser, email } = await createConfirmedUser();
    const user = await userOf(email);
    const attacker = uniqueEmail("attacker");
    const requested = Date.now();
    expect((await saveProfile(browser, attacker, { currentPassword: STRONG_PASSWORD })).status).toBe(302);
    const confirmLink = (await waitForMail(attacker, /Confirm your new/, { after: requested })).links[0]!;
    const cancelLink = (await waitForMail(email, /was requested/, { after: requested })).links[0]!;

    const reader = new Browser();
    // A mail scanner fetching the link changes nothing.
    const page = await reader.get(linkPath(cancelLink));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(attacker);
    expect(await pendingEmailOf(user.id)).toBe(attacker);

    const token = new URL(cancelLink).searchParams.get("token")!;
    const cancelled = await reader.post(linkPath(cancelLink), { token });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.text()).toContain(EMAIL_CHANGE_MESSAGES.cancelled);
    expect(await pendingEmailOf(user.id)).toBeNull();
    expect((await browser.get("/dashboard")).headers.get("Location")).toBe("/auth");
    expect((await reader.post(linkPath(confirmLink), { token: new URL(confirmLink).searchParams.get("token")! })).status).toBe(400);
    expect((await reader.post(linkPath(cancelLink), { token })).status).toBe(400);
    expect((await userOf(email)).email).toBe(email);
  });

  it("a device code approved but not yet collected by its app is denied by the reset", async () => {
    const { email } = await createConfirmedUser();
    const user = await userOf(email);
    const grant = await startDeviceAuthorization(db, {
      deviceName: "Attacker laptop",
      platform: "linux",
      appVersion: "1.0.0",
      appInstanceId: crypto.randomUUID(),
      country: null,
    });
    expect(await decideUserCode(db, user.id, grant.userCode, { approved: await recentProofOf(user.id), teamId: null })).toBe(true);
    await ownerResetsPassword(email);
    expect(await pollDeviceAuthorization(revocationDeps, SECRET, grant.deviceCode)).toEqual({ ok: false, error: "access_denied" });
    const keys = await db
      .select()
      .from(schema.sessions)
      .where(and(eq(schema.sessions.userId, user.id), eq(schema.sessions.client, "desktop")));
    expect(keys).toEqual([]);
  });
});

describe("F2: refresh-token reuse is detected at any age", () => {
  async function rotate(token: string) {
    const response = await SELF.fetch(`${ORIGIN}/api/v1/auth/refresh`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": "192.0.2.91" },
      body: JSON.stringify({ refresh_token: token }),
    });
    return { status: response.status, body: await response.json<Record<string, string>>() };
  }

  it("replays the attack: three rotations by the thief, then the owner's first token ends the thief's chain", async () => {
    const { email } = await createConfirmedUser();
    const granted = await (await tokenGrant(email, STRONG_PASSWORD)).json<Record<string, string>>();
    const t0 = granted.refresh_token!;
    // The thief rotates three times: T0 → T1 → T2 → T3.
    let current = t0;
    for (let i = 0; i < 3; i++) {
      const next = await rotate(current);
      expect(next.status).toBe(200);
      current = next.body.refresh_token!;
    }
    // The owner's T0, three generations old, is recognised as this session's and ends it.
    expect((await rotate(t0)).status).toBe(401);
    const session = await db.query.sessions.findFirst({ where: eq(schema.sessions.id, t0.split(".")[0]!) });
    expect(session?.revokedReason).toBe("refresh_token_reuse");
    expect((await rotate(current)).status).toBe(401);
    const me = await SELF.fetch(`${ORIGIN}/api/v1/me`, { headers: { Authorization: `Bearer ${granted.access_token}` } });
    expect(me.status).toBe(401);
  });

  it("a made-up token naming a live session ends nothing (its MAC is not ours)", async () => {
    const { email } = await createConfirmedUser();
    const granted = await (await tokenGrant(email, STRONG_PASSWORD)).json<Record<string, string>>();
    const [sessionId] = granted.refresh_token!.split(".");
    const forged = `${sessionId}.${"A".repeat(43)}.${"B".repeat(22)}`;
    expect((await rotate(forged)).status).toBe(401);
    expect((await rotate(granted.refresh_token!)).status).toBe(200);
  });

  it("the token just rotated still works within the grace window (two tabs racing), without a new refresh token", async () => {
    const { email } = await createConfirmedUser();
    const granted = await (await tokenGrant(email, STRONG_PASSWORD)).json<Record<string, string>>();
    const now = Date.now();
    const first = await refreshSession(revocationDeps, SECRET, granted.refresh_token!, now);
    expect(first.ok && first.refreshToken).toBeTruthy();
    const race = await refreshSession(revocationDeps, SECRET, granted.refresh_token!, now + 1000);
    expect(race).toMatchObject({ ok: true, refreshToken: null });
    // Past the window, the same token is reuse.
    const late = await refreshSession(revocationDeps, SECRET, granted.refresh_token!, now + 60_000);
    expect(late).toEqual({ ok: false, reason: "reused" });
    const session = await db.query.sessions.findFirst({ where: eq(schema.sessions.id, granted.refresh_token!.split(".")[0]!) });
    expect(session?.revokedReason).toBe("refresh_token_reuse");
  });

  it("a token issued before tokens named their session still rotates, into the new form", async () => {
    const { email } = await createConfirmedUser();
    const user = await userOf(email);
    const legacy = "L".repeat(43);
    const now = Date.now();
    const sessionId = crypto.randomUUID();
    await db.insert(schema.sessions).values({
      id: sessionId,
      userId: user.id,
      client: "desktop",
      refreshTokenHash: await sha256Hex(legacy),
      expiresAt: now + 86_400_000,
      lastSeenAt: now,
      createdAt: now,
    });
    const result = await refreshSession(revocationDeps, SECRET, legacy, now);
    expect(result.ok).toBe(true);
    expect(result.ok && result.refreshToken?.startsWith(`${sessionId}.`)).toBe(true);
  });
});

describe("F4: a planted recovery link cannot quietly sign a user in to another account", () => {
  async function recoveryLinkOf(email: string) {
    const asked = Date.now();
    await new Browser().post("/auth?mode=forgot-password", { intent: "forgot-password", email });
    return (await waitForMail(email, /Reset your Modelify password/, { after: asked })).links[0]!;
  }

  it("names the account it resets, partly masked", async () => {
    const { email } = await createConfirmedUser();
    const visitor = new Browser();
    await visitor.get(linkPath(await recoveryLinkOf(email)));
    const page = await (await visitor.get("/auth/reset-password")).text();
    const [name, domain] = email.split("@") as [string, string];
    expect(page).toContain(`${name[0]}•••${name[name.length - 1]}@${domain}`);
    expect(page).not.toContain(email);
  });

  it("replays the attack: a signed-in victim opens the attacker's link; nothing changes until they tick that they mean it", async () => {
    const attacker = await createConfirmedUser();
    const victim = await createConfirmedUser();
    const attackerUser = await userOf(attacker.email);
    // A cross-site page navigates the victim's browser to the attacker's recovery link.
    const planted = await victim.browser.get(linkPath(await recoveryLinkOf(attacker.email)), { headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(planted.headers.get("Location")).toBe("/auth/reset-password");
    const page = await (await victim.browser.get("/auth/reset-password")).text();
    expect(page).toContain(`You are signed in as ${victim.email}`);

    const blind = await victim.browser.post("/auth/reset-password", { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(blind.status).toBe(409);
    expect(await blind.text()).toContain(AUTH_MESSAGES.resetOtherAccountRequired);
    expect((await userOf(attacker.email)).passwordHash).toBe(attackerUser.passwordHash);
    expect((await tokenGrant(attacker.email, NEW_PASSWORD)).status).toBe(401);
    // The victim is still themselves.
    const dashboard = await victim.browser.get("/dashboard");
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain(victim.email.split("@")[0]!);

    // Told plainly and confirmed, the reset goes ahead and the victim's own session here ends.
    const meant = await victim.browser.post("/auth/reset-password", { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, confirmOtherAccount: "yes" });
    expect(meant.status).toBe(200);
    const victimSessions = await db
      .select()
      .from(schema.sessions)
      .where(eq(schema.sessions.userId, (await userOf(victim.email)).id));
    expect(victimSessions.every((s) => s.revokedAt !== null)).toBe(true);
  });

  it("the owner resetting their own account while signed in is not asked", async () => {
    const { browser, email } = await createConfirmedUser();
    await browser.get(linkPath(await recoveryLinkOf(email)));
    const page = await (await browser.get("/auth/reset-password")).text();
    expect(page).not.toContain("You are signed in as");
    expect((await browser.post("/auth/reset-password", { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).status).toBe(200);
  });
});

describe("F6: the site's error messages come from its own list", () => {
  const PHISH = "Your account is suspended. Call +1-800-555-0100 or visit evil.example to restore it";

  it("/auth/callback shows the message for the code, never error_description", async () => {
    const page = visibleText(await (await new Browser().get(`/auth/callback?error=access_denied&error_description=${encodeURIComponent(PHISH)}`)).text());
    expect(page).not.toContain("evil.example");
    expect(page).toContain("Authentication Error");
    const unknown = visibleText(await (await new Browser().get(`/auth/callback?error=${encodeURIComponent(PHISH)}`)).text());
    expect(unknown).not.toContain("evil.example");
    expect(unknown).toContain(AUTH_MESSAGES.authCallbackFailed);
  });

  it("/dashboard/downloads?error= shows the message for a known code and the generic one for anything else", async () => {
    const { browser } = await signedInAs("user");
    const page = visibleText(await (await browser.get(`/dashboard/downloads?error=${encodeURIComponent(PHISH)}`)).text());
    expect(page).not.toContain("evil.example");
    expect(page).toContain(DOWNLOAD_MESSAGES.failedContactSupport);
    const known = visibleText(await (await browser.get("/dashboard/downloads?error=subscriptionRequired")).text());
    expect(known).toContain(DOWNLOAD_MESSAGES.subscriptionRequired);
    // Inherited names of a plain object are not codes.
    const proto = visibleText(await (await browser.get("/dashboard/downloads?error=constructor")).text());
    expect(proto).toContain(DOWNLOAD_MESSAGES.failedContactSupport);
  });

  it("a download refused without JavaScript comes back with a code, not words", async () => {
    const { browser } = await signedInAs("user");
    const answer = await browser.post("/downloads/prepare", { platform: "windows", arch: "x64" }, { "Sec-Fetch-Mode": "navigate" });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("Location")).toBe("/dashboard/downloads?error=subscriptionRequired");
  });
});
