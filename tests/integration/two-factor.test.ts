// Two-factor sign-in with an authenticator app (issue 29), through the real runtime: the lock on
// wrong codes under a parallel burst, recovery codes used once, no replayed TOTP code, and every
// sign-in path (web, /device approval, the legacy password grant) asking for a code.
import { env, SELF } from "cloudflare:test";
import { generateTOTP } from "@epic-web/totp";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { confirmSetup, pendingSetup, startSetup } from "~/lib/auth/two-factor-setup.server";
import { type SecondFactorResult, TOTP_OPTIONS, twoFactorEnabled, twoFactorStatus, verifySecondFactor, type TwoFactorDeps } from "~/lib/auth/two-factor.server";
import { accountKey } from "~/lib/auth/lockout";
import { LOCKOUT, TWO_FACTOR } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { Browser, createConfirmedUser, db, keySettings, ORIGIN, recentProofOf, STRONG_PASSWORD, uniqueIp, waitForMail } from "./helpers";

const deps = (): TwoFactorDeps => ({ db, queue: env.EVENTS, env: keySettings, ip: uniqueIp(), origin: ORIGIN });
const totp = async (secret: string) => (await generateTOTP({ secret, ...TOTP_OPTIONS })).otp;
const verdict = (result: SecondFactorResult) => (result.ok ? "ok" : result.reason);
const wrongCode = (right: string) => String((Number(right) + 500_000) % 1_000_000).padStart(6, "0");

/** A confirmed, signed-in account with two-factor on: its secret and recovery codes. */
async function twoFactorAccount() {
  const account = await createConfirmedUser();
  const setup = await startSetup(deps(), account, await recentProofOf(account.id));
  if (!setup) throw new Error("two-factor already on");
  const confirmed = await confirmSetup(deps(), account, await totp(setup.secret), await recentProofOf(account.id));
  if (!confirmed.ok) throw new Error(`setup refused: ${confirmed.reason}`);
  // The setup's code took the current time step: sign-ins in this test wait for the next one.
  await db.update(schema.twoFactor).set({ lastStep: 0 }).where(eq(schema.twoFactor.userId, account.id));
  return { ...account, secret: setup.secret, recoveryCodes: confirmed.recoveryCodes };
}

describe("turning two-factor on", () => {
  it("renders the QR code from the otpauth:// URI, keeps the secret encrypted and the recovery codes hashed, and e-mails the change", async () => {
    const account = await createConfirmedUser();
    expect(await pendingSetup(deps(), account)).toBeNull();
    const setup = await startSetup(deps(), account, await recentProofOf(account.id));
    expect(setup!.uri).toMatch(/^otpauth:\/\/totp\/Modelify:.+\?.*secret=/);
    expect(setup!.uri).toContain("algorithm=SHA1");
    expect(setup!.qrSvg).toMatch(/^<svg/);
    expect(await twoFactorEnabled(db, account.id)).toBe(false);
    expect((await confirmSetup(deps(), account, wrongCode(await totp(setup!.secret)), await recentProofOf(account.id))).ok).toBe(false);
    const confirmed = await confirmSetup(deps(), account, await totp(setup!.secret), await recentProofOf(account.id));
    expect(confirmed.ok && confirmed.recoveryCodes).toHaveLength(TWO_FACTOR.recoveryCodes);
    expect(await pendingSetup(deps(), account)).toBeNull();
    expect(await twoFactorEnabled(db, account.id)).toBe(true);
    const row = await db.query.twoFactor.findFirst({ where: eq(schema.twoFactor.userId, account.id) });
    expect(row!.secretEnc).not.toContain(setup!.secret);
    const stored = await db.query.twoFactorRecoveryCodes.findMany({ where: eq(schema.twoFactorRecoveryCodes.userId, account.id) });
    expect(stored).toHaveLength(TWO_FACTOR.recoveryCodes);
    for (const code of confirmed.ok ? confirmed.recoveryCodes : []) expect(stored.some((r) => r.codeHash.includes(code))).toBe(false);
    await waitForMail(account.email, /Two-factor sign-in is on/);
  });
});

describe("a setup waiting for its first code", () => {
  it("is read, not made, by the page; outlives TWO_FACTOR.setupTtlMs only as a new secret made by a start", async () => {
    const account = await createConfirmedUser();
    const now = Date.now();
    const first = await startSetup(deps(), account, await recentProofOf(account.id), now);
    expect((await pendingSetup(deps(), account, now + 1000))?.secret).toBe(first!.secret);
    expect((await startSetup(deps(), account, await recentProofOf(account.id), now + 1000))?.secret).toBe(first!.secret);
    const later = now + TWO_FACTOR.setupTtlMs + 1000;
    expect(await pendingSetup(deps(), account, later)).toBeNull();
    const second = await startSetup(deps(), account, await recentProofOf(account.id), later);
    expect(second!.secret).not.toBe(first!.secret);
  });
});

describe("the profile's two-factor page", () => {
  it("turns it on with the page's secret and a code, shows ten recovery codes once, and turns off only with the password and a code", async () => {
    const account = await createConfirmedUser();
    const profile = await (await account.browser.get("/dashboard/profile")).text();
    expect(profile).toContain("Two-factor authentication");
    const secretOf = (html: string) => /data-testid="two-factor-secret"[^>]*>([A-Z2-7]+)</.exec(html)?.[1];
    // Opening the page changes nothing: no secret is made until "Set up" is posted.
    const before = await (await account.browser.get("/dashboard/profile/two-factor")).text();
    expect(before).toContain("Set Up Two-Factor");
    expect(secretOf(before)).toBeUndefined();
    expect(await db.query.twoFactor.findFirst({ where: eq(schema.twoFactor.userId, account.id) })).toBeUndefined();
    // Posted from another site, it is refused before it is read.
    const foreign = await account.browser.post("/dashboard/profile/two-factor", { intent: "start" }, { Origin: "https://evil.example" });
    expect([400, 403]).toContain(foreign.status);
    expect(await db.query.twoFactor.findFirst({ where: eq(schema.twoFactor.userId, account.id) })).toBeUndefined();
    const start = await account.browser.post("/dashboard/profile/two-factor", { intent: "start" });
    expect(start.status).toBe(303);
    expect(start.headers.get("Location")).toBe("/dashboard/profile/two-factor");
    const page = await (await account.browser.get("/dashboard/profile/two-factor")).text();
    expect(page).toContain('src="data:image/svg+xml;base64,');
    const secret = secretOf(page);
    expect(secret).toBeTruthy();
    // A second start (another tab) keeps the waiting secret, so the first tab's codes still work.
    expect((await account.browser.post("/dashboard/profile/two-factor", { intent: "start" })).status).toBe(303);
    expect(secretOf(await (await account.browser.get("/dashboard/profile/two-factor")).text())).toBe(secret);
    expect((await account.browser.post("/dashboard/profile/two-factor", { intent: "confirm", code: "12" })).status).toBe(400);
    const on = await account.browser.post("/dashboard/profile/two-factor", { intent: "confirm", code: await totp(secret!) });
    expect(on.status).toBe(200);
    expect((await on.text()).match(/<li>[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}<\/li>/g)).toHaveLength(TWO_FACTOR.recoveryCodes);
    expect(await twoFactorEnabled(db, account.id)).toBe(true);
    const manage = await (await account.browser.get("/dashboard/profile/two-factor")).text();
    expect(manage).not.toContain("two-factor-secret");
    expect(manage).not.toMatch(/<li>[a-z2-7]{4}-/);

    await db.update(schema.twoFactor).set({ lastStep: 0 }).where(eq(schema.twoFactor.userId, account.id));
    const code = await totp(secret!);
    const noPassword = await account.browser.post("/dashboard/profile/two-factor", { intent: "disable", password: "Wrong-Password-1", code });
    expect(noPassword.status).toBe(401);
    expect(await twoFactorEnabled(db, account.id)).toBe(true);
    const noCode = await account.browser.post("/dashboard/profile/two-factor", { intent: "disable", password: STRONG_PASSWORD, code: "000000-x" });
    expect(noCode.status).toBe(401);
    const off = await account.browser.post("/dashboard/profile/two-factor", { intent: "disable", password: STRONG_PASSWORD, code });
    expect(off.status).toBe(303);
    expect(await twoFactorEnabled(db, account.id)).toBe(false);
    expect(await db.query.twoFactorRecoveryCodes.findMany({ where: eq(schema.twoFactorRecoveryCodes.userId, account.id) })).toHaveLength(0);
    await waitForMail(account.email, /Two-factor sign-in is off/);
  });
});

const recoveryCodesOf = (html: string) => [...html.matchAll(/<li>([a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4})<\/li>/g)].map((m) => m[1]!);

describe("new recovery codes", () => {
  it("take the password and a code; replace all ten (the old ones stop working), are shown once and e-mailed", async () => {
    const account = await twoFactorAccount();
    const regenerate = (fields: Record<string, string>) => account.browser.post("/dashboard/profile/two-factor", { intent: "regenerate", ...fields });
    const manage = await (await account.browser.get("/dashboard/profile/two-factor")).text();
    expect(manage).toContain("Make New Recovery Codes");
    const code = await totp(account.secret);

    const wrongPassword = await regenerate({ password: "Wrong-Password-1", code });
    expect(wrongPassword.status).toBe(401);
    expect(await wrongPassword.text()).toContain("That password is not right.");
    const wrong = await regenerate({ password: STRONG_PASSWORD, code: wrongCode(code) });
    expect(wrong.status).toBe(401);
    expect(recoveryCodesOf(await wrong.text())).toEqual([]);
    expect((await regenerate({ password: STRONG_PASSWORD, code: "" })).status).toBe(400);

    const right = await regenerate({ password: STRONG_PASSWORD, code });
    expect(right.status).toBe(200);
    expect(right.headers.get("Cache-Control")).toMatch(/no-store/);
    const html = await right.text();
    expect(html).toContain("the old ones no longer work");
    const fresh = recoveryCodesOf(html);
    expect(fresh).toHaveLength(TWO_FACTOR.recoveryCodes);
    for (const old of account.recoveryCodes) expect(fresh).not.toContain(old);
    // Shown once: the page afterwards holds none of them.
    expect(recoveryCodesOf(await (await account.browser.get("/dashboard/profile/two-factor")).text())).toEqual([]);
    await waitForMail(account.email, /New recovery codes/);

    expect(verdict(await verifySecondFactor(deps(), account.id, account.recoveryCodes[1]!))).toBe("invalid");
    expect(verdict(await verifySecondFactor(deps(), account.id, fresh[0]!))).toBe("ok");
    expect(await twoFactorStatus(db, account.id)).toMatchObject({ enabled: true, recoveryCodesLeft: TWO_FACTOR.recoveryCodes - 1 });
  });

  it("take a recovery code as the proof, which is spent like any other, and answer a locked code with the time left", async () => {
    const account = await twoFactorAccount();
    const proof = account.recoveryCodes[0]!;
    const right = await account.browser.post("/dashboard/profile/two-factor", { intent: "regenerate", password: STRONG_PASSWORD, code: proof });
    expect(right.status).toBe(200);
    const fresh = recoveryCodesOf(await right.text());
    expect(fresh).toHaveLength(TWO_FACTOR.recoveryCodes);
    expect(await twoFactorStatus(db, account.id)).toMatchObject({ recoveryCodesLeft: TWO_FACTOR.recoveryCodes });
    const again = await account.browser.post("/dashboard/profile/two-factor", { intent: "regenerate", password: STRONG_PASSWORD, code: proof });
    expect(again.status).toBe(401);

    await lockCodes(account.id, 60_000);
    const locked = await account.browser.post("/dashboard/profile/two-factor", { intent: "regenerate", password: STRONG_PASSWORD, code: fresh[0]! });
    expectTimeLeft(locked, 60, "new recovery codes");
    // The refused proof changed nothing: the codes shown last are still the account's.
    await db.delete(schema.attemptCounters).where(eq(schema.attemptCounters.key, await accountKey("twoFactor", account.id)));
    expect(verdict(await verifySecondFactor(deps(), account.id, fresh[0]!))).toBe("ok");
  });
});

describe("verifySecondFactor", () => {
  it("checks at most the lockout's allowance of 20 parallel wrong codes, then refuses the right code until the lock ends, saying how long is left", async () => {
    const account = await twoFactorAccount();
    const now = Date.now();
    const wrong = wrongCode(await totp(account.secret));
    const results = (await Promise.all(Array.from({ length: 20 }, () => verifySecondFactor(deps(), account.id, wrong, now)))).map(verdict);
    expect(results.filter((r) => r === "invalid").length).toBeLessThanOrEqual(LOCKOUT.twoFactor.maxFailures + 1);
    expect(results.filter((r) => r === "locked").length).toBeGreaterThanOrEqual(20 - (LOCKOUT.twoFactor.maxFailures + 1));
    expect(results).not.toContain("ok");
    const right = await totp(account.secret);
    // The lock ends lockMs after the failure that caused it: a later refusal answers the time left, not the whole lock.
    const lockSeconds = LOCKOUT.twoFactor.lockMs / 1000;
    expect(await verifySecondFactor(deps(), account.id, right, now + 1000)).toEqual({ ok: false, reason: "locked", retryAfterSeconds: lockSeconds - 1 });
    expect(await verifySecondFactor(deps(), account.id, right, now + LOCKOUT.twoFactor.lockMs - 1000)).toEqual({
      ok: false,
      reason: "locked",
      retryAfterSeconds: 1,
    });
    expect(verdict(await verifySecondFactor(deps(), account.id, right, now + LOCKOUT.twoFactor.lockMs + 1000))).toBe("ok");
  });

  it("accepts one recovery code once, even twice in parallel, and e-mails its use", async () => {
    const account = await twoFactorAccount();
    const code = account.recoveryCodes[0]!;
    const results = (await Promise.all([verifySecondFactor(deps(), account.id, code), verifySecondFactor(deps(), account.id, code.toUpperCase())])).map(
      verdict,
    );
    expect(results.filter((r) => r === "ok")).toHaveLength(1);
    expect(results.filter((r) => r === "invalid")).toHaveLength(1);
    expect(verdict(await verifySecondFactor(deps(), account.id, code))).toBe("invalid");
    expect(await twoFactorStatus(db, account.id)).toMatchObject({ enabled: true, recoveryCodesLeft: TWO_FACTOR.recoveryCodes - 1 });
    await waitForMail(account.email, /recovery code .* was used/);
  });

  it("refuses a TOTP code replayed inside its window, also in parallel", async () => {
    const account = await twoFactorAccount();
    const code = await totp(account.secret);
    const results = (await Promise.all([verifySecondFactor(deps(), account.id, code), verifySecondFactor(deps(), account.id, code)])).map(verdict);
    expect(results.filter((r) => r === "ok")).toHaveLength(1);
    expect(verdict(await verifySecondFactor(deps(), account.id, code))).toBe("invalid");
  });
});

describe("signing in with two-factor on", () => {
  it("creates no session on the password alone; /auth/two-factor takes the code once", async () => {
    const account = await twoFactorAccount();
    const browser = new Browser();
    const password = await browser.post("/auth?mode=signin", { intent: "signin", email: account.email, password: STRONG_PASSWORD });
    expect(password.status).toBe(302);
    expect(password.headers.get("Location")).toBe("/auth/two-factor?mode=signin");
    expect(browser.cookies.has("mfy_access")).toBe(false);
    expect((await browser.get("/dashboard")).status).toBe(302);
    expect((await browser.get("/auth/two-factor")).status).toBe(200);

    const code = await totp(account.secret);
    const wrong = await browser.post("/auth/two-factor", { code: wrongCode(code) });
    expect(wrong.status).toBe(401);
    expect(browser.cookies.has("mfy_access")).toBe(false);
    const right = await browser.post("/auth/two-factor", { code });
    expect(right.status).toBe(302);
    expect(right.headers.get("Location")).toBe("/dashboard");
    expect(browser.cookies.has("mfy_access")).toBe(true);
    expect((await browser.get("/dashboard")).status).toBe(200);

    // Another browser with the password and the same code: the replay is refused.
    const other = new Browser();
    await other.post("/auth?mode=signin", { intent: "signin", email: account.email, password: STRONG_PASSWORD });
    expect((await other.post("/auth/two-factor", { code })).status).toBe(401);
    expect(other.cookies.has("mfy_access")).toBe(false);
  });

  it("refuses /auth/two-factor without a password-proven pending sign-in or with a forged one", async () => {
    const account = await twoFactorAccount();
    const browser = new Browser();
    expect((await browser.get("/auth/two-factor")).status).toBe(302);
    browser.cookies.set("mfy_2fa_pending", `${account.id}.${Date.now() + 60_000}.AAAA`);
    const forged = await browser.post("/auth/two-factor", { code: await totp(account.secret) });
    expect(forged.status).toBe(302);
    expect(forged.headers.get("Location")).toBe("/auth?mode=signin");
    expect(browser.cookies.has("mfy_access")).toBe(false);
  });

  it("the legacy password grant answers two_factor_required without a code and tokens with one", async () => {
    const account = await twoFactorAccount();
    const grant = (body: Record<string, string>) =>
      SELF.fetch(`${ORIGIN}/api/v1/auth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueIp() },
        body: JSON.stringify({ email: account.email, password: STRONG_PASSWORD, ...body }),
      });
    const without = await grant({});
    expect(without.status).toBe(401);
    expect(await without.json()).toMatchObject({ error: "two_factor_required" });
    const code = await totp(account.secret);
    const wrong = await grant({ two_factor_code: wrongCode(code) });
    expect(await wrong.json()).toMatchObject({ error: "invalid_two_factor_code" });
    const right = await grant({ two_factor_code: code });
    expect(right.status).toBe(200);
    expect(await right.json()).toMatchObject({ token_type: "Bearer", user: { id: account.id } });
    expect(await (await grant({ two_factor_code: code })).json()).toMatchObject({ error: "invalid_two_factor_code" });
  });

  // The account's session proved only the password (two-factor came after its sign-in), so its
  // proof does not cover the code: approving asks for both (lib/auth/recent-proof.server.ts).
  it("device approval on /device asks for a code and approves nothing without it", async () => {
    const account = await twoFactorAccount();
    const started = await SELF.fetch(`${ORIGIN}/api/v1/auth/device`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueIp() },
      body: JSON.stringify({
        client_id: "modelify-desktop",
        device_name: "Two-factor laptop",
        platform: "macos",
        app_version: "2.3.4",
        app_instance_id: crypto.randomUUID(),
      }),
    });
    const { user_code: userCode } = (await started.json()) as { user_code: string };
    const lookup = await account.browser.post("/device", { intent: "lookup", code: userCode });
    expect(await lookup.text()).toContain("Authentication code");
    const refused = await account.browser.post("/device", { intent: "approve", code: userCode });
    expect(refused.status).toBe(401);
    const passwordOnly = await account.browser.post("/device", { intent: "approve", code: userCode, password: STRONG_PASSWORD });
    expect(passwordOnly.status).toBe(401);
    const wrong = await account.browser.post("/device", { intent: "approve", code: userCode, password: STRONG_PASSWORD, twoFactorCode: "999999-not-a-code" });
    expect(wrong.status).toBe(401);
    const approvedRows = () =>
      db.query.deviceAuthorizations.findMany({
        where: and(eq(schema.deviceAuthorizations.userId, account.id), eq(schema.deviceAuthorizations.status, "approved")),
      });
    expect(await approvedRows()).toHaveLength(0);
    const approved = await account.browser.post("/device", {
      intent: "approve",
      code: userCode,
      password: STRONG_PASSWORD,
      twoFactorCode: await totp(account.secret),
    });
    expect(approved.status).toBe(200);
    expect(await approved.text()).toContain("Device Approved");
    expect(await approvedRows()).toHaveLength(1);
  });
});

/** The account's two-factor lock as wrong codes left it, ending `remainingMs` from now. */
async function lockCodes(userId: string, remainingMs: number) {
  const key = await accountKey("twoFactor", userId);
  const values = { count: LOCKOUT.twoFactor.maxFailures + 2, expiresAt: Date.now() + remainingMs };
  await db
    .insert(schema.attemptCounters)
    .values({ key, ...values })
    .onConflictDoUpdate({ target: schema.attemptCounters.key, set: values });
}

/** A 429 whose Retry-After is the time left in a lock of `remainingSeconds` (not the whole lock). */
function expectTimeLeft(response: Response, remainingSeconds: number, what: string) {
  expect(response.status, what).toBe(429);
  const wait = Number(response.headers.get("Retry-After"));
  expect(wait, `${what}: Retry-After`).toBeLessThanOrEqual(remainingSeconds);
  // Allows for the seconds the requests themselves take.
  expect(wait, `${what}: Retry-After`).toBeGreaterThan(remainingSeconds - 30);
}

describe("a locked two-factor code", () => {
  it("answers the time left in the lock everywhere a code is asked for", async () => {
    const account = await twoFactorAccount();
    const remaining = 5 * 60;
    // Well inside the 15-minute lock, so a Retry-After of the whole lock would fail each check.
    expect(remaining).toBeLessThan(LOCKOUT.twoFactor.lockMs / 1000 - 60);
    await lockCodes(account.id, remaining * 1000);
    const code = await totp(account.secret);

    const browser = new Browser();
    await browser.post("/auth?mode=signin", { intent: "signin", email: account.email, password: STRONG_PASSWORD });
    expectTimeLeft(await browser.post("/auth/two-factor", { code }), remaining, "sign-in's code step");

    const grant = await SELF.fetch(`${ORIGIN}/api/v1/auth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueIp() },
      body: JSON.stringify({ email: account.email, password: STRONG_PASSWORD, two_factor_code: code }),
    });
    expectTimeLeft(grant, remaining, "legacy password grant");

    const started = await SELF.fetch(`${ORIGIN}/api/v1/auth/device`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueIp() },
      body: JSON.stringify({
        client_id: "modelify-desktop",
        device_name: "Locked laptop",
        platform: "linux",
        app_version: "2.3.4",
        app_instance_id: crypto.randomUUID(),
      }),
    });
    const { user_code: userCode } = (await started.json()) as { user_code: string };
    expectTimeLeft(
      await account.browser.post("/device", { intent: "approve", code: userCode, password: STRONG_PASSWORD, twoFactorCode: code }),
      remaining,
      "device approval",
    );

    const off = await account.browser.post("/dashboard/profile/two-factor", { intent: "disable", password: STRONG_PASSWORD, code });
    expectTimeLeft(off, remaining, "turning two-factor off");
    expect(await off.text()).toContain("Too many wrong codes. Two-factor sign-in is locked for");

    expectTimeLeft(await account.browser.post("/dashboard/profile/delete", { password: STRONG_PASSWORD, code }), remaining, "deleting the account");
    expect(await twoFactorEnabled(db, account.id)).toBe(true);
    expect(await db.query.users.findFirst({ where: eq(schema.users.id, account.id) })).toBeDefined();
  });

  it("answers the time left when turning it on", async () => {
    const account = await createConfirmedUser();
    const setup = await startSetup(deps(), account, await recentProofOf(account.id));
    const remaining = 2 * 60;
    await lockCodes(account.id, remaining * 1000);
    const on = await account.browser.post("/dashboard/profile/two-factor", { intent: "confirm", code: await totp(setup!.secret) });
    expectTimeLeft(on, remaining, "turning two-factor on");
    expect(await twoFactorEnabled(db, account.id)).toBe(false);
  });
});

describe("deleting a two-factor account", () => {
  it("asks for a code as well as the password; a missing or wrong code deletes nothing, the right one deletes the two-factor rows with the account", async () => {
    const account = await twoFactorAccount();
    const page = await account.browser.get("/dashboard/profile/delete");
    expect(await page.text()).toContain('name="code"');
    const exists = async () => (await db.query.users.findFirst({ where: eq(schema.users.id, account.id) })) !== undefined;

    const missing = await account.browser.post("/dashboard/profile/delete", { password: STRONG_PASSWORD });
    expect(missing.status).toBe(401);
    const code = await totp(account.secret);
    const wrong = await account.browser.post("/dashboard/profile/delete", { password: STRONG_PASSWORD, code: wrongCode(code) });
    expect(wrong.status).toBe(401);
    expect(await exists()).toBe(true);

    const right = await account.browser.post("/dashboard/profile/delete", { password: STRONG_PASSWORD, code });
    expect(right.status).toBe(302);
    expect(await exists()).toBe(false);
    expect(await db.select().from(schema.twoFactor).where(eq(schema.twoFactor.userId, account.id))).toEqual([]);
    expect(await db.select().from(schema.twoFactorRecoveryCodes).where(eq(schema.twoFactorRecoveryCodes.userId, account.id))).toEqual([]);
  });
});
