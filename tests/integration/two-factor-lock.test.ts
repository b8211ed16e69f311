// The two-factor code lock that grows and tells (issue 45, F6), through the real runtime: a lock
// that trips mails the owner once, however many wrong codes arrive together; each repeat lasts
// twice as long, up to a day, and really refuses codes until it ends; a correct code, or a week
// without a trip, starts the ladder again. The clock is the `now` the functions take.
import { env } from "cloudflare:test";
import { generateTOTP } from "@epic-web/totp";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { accountKey, tripsKey } from "~/lib/auth/lockout";
import { encryptSecret } from "~/lib/auth/two-factor-secret";
import { TOTP_OPTIONS, type TwoFactorDeps, verifySecondFactor } from "~/lib/auth/two-factor.server";
import { LOCKOUT, TWO_FACTOR_LOCK_GROWTH } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { twoFactorKeys } from "~/lib/keys";
import { Browser, createConfirmedUser, db, keySettings, ORIGIN, queueSettled, STRONG_PASSWORD, uniqueIp, waitForMail } from "./helpers";

const SUBJECT = /^Wrong two-factor codes were entered/;
const CHANGE_PASSWORD = `${ORIGIN}/auth?mode=forgot-password`;
const MINUTE = 60_000;
const deps = (): TwoFactorDeps => ({ db, queue: env.EVENTS, env: keySettings, ip: uniqueIp(), origin: ORIGIN });
const totp = async (secret: string) => (await generateTOTP({ secret, ...TOTP_OPTIONS })).otp;
const wrongCode = (right: string) => String((Number(right) + 500_000) % 1_000_000).padStart(6, "0");

type Account = { id: string; email: string; secret: string };

/** A confirmed account with two-factor on, written straight to D1 (the setup's own tests are in two-factor.test.ts). */
async function twoFactorAccount(): Promise<Account> {
  const account = await createConfirmedUser();
  const { secret } = await generateTOTP(TOTP_OPTIONS);
  const secretEnc = await encryptSecret(twoFactorKeys(keySettings), secret);
  await db.insert(schema.twoFactor).values({ userId: account.id, secretEnc, enabledAt: Date.now(), lastStep: null, createdAt: Date.now() });
  return { id: account.id, email: account.email, secret };
}

/** Wrong codes at `now` until the lock trips; returns the tripping answer's wait, in seconds. */
async function trip(account: Account, now: number): Promise<number> {
  const wrong = wrongCode(await totp(account.secret));
  for (let i = 0; i < LOCKOUT.twoFactor.maxFailures; i++) {
    expect(await verifySecondFactor(deps(), account.id, wrong, now)).toEqual({ ok: false, reason: "invalid" });
  }
  const last = await verifySecondFactor(deps(), account.id, wrong, now);
  if (last.ok || last.reason !== "locked") throw new Error(`the lock did not trip: ${JSON.stringify(last)}`);
  return last.retryAfterSeconds;
}

const tripsRow = async (userId: string) =>
  db.query.attemptCounters.findFirst({ where: eq(schema.attemptCounters.key, tripsKey(await accountKey("twoFactor", userId))) });

const lockMails = async (to: string) => (await db.select().from(schema.outbox).where(eq(schema.outbox.to, to))).filter((row) => SUBJECT.test(row.subject));

describe("a tripped two-factor code lock", () => {
  it("mails the owner exactly once when 20 wrong codes arrive together, with a link to change the password and no code or address", async () => {
    const account = await twoFactorAccount();
    const now = Date.now();
    const wrong = wrongCode(await totp(account.secret));
    const ips = Array.from({ length: 20 }, uniqueIp);
    const results = await Promise.all(ips.map((ip) => verifySecondFactor({ ...deps(), ip }, account.id, wrong, now)));
    expect(results.filter((r) => !r.ok && r.reason === "locked").length).toBeGreaterThanOrEqual(20 - (LOCKOUT.twoFactor.maxFailures + 1));
    expect(results.some((r) => r.ok)).toBe(false);

    const mail = await waitForMail(account.email, SUBJECT);
    await queueSettled();
    expect(await lockMails(account.email)).toHaveLength(1);
    expect((await tripsRow(account.id))?.count).toBe(1);
    expect(mail.text).toContain("Someone who knows your Modelify password");
    expect(mail.links).toEqual([CHANGE_PASSWORD]);
    expect(mail.text).toContain(CHANGE_PASSWORD);
    expect(mail.text).not.toContain(wrong);
    expect(mail.text).not.toMatch(/\b\d{6}\b/);
    for (const ip of ips) expect(mail.text).not.toContain(ip);
  });

  it("on sign-in's code step answers the longer lock in Retry-After, and mails a link on the site's own origin", async () => {
    const account = await twoFactorAccount();
    // One earlier trip, a day ago: this one is the second.
    const key = tripsKey(await accountKey("twoFactor", account.id));
    await db.insert(schema.attemptCounters).values({ key, count: 1, expiresAt: Date.now() + TWO_FACTOR_LOCK_GROWTH.forgetAfterMs - 24 * 60 * MINUTE });
    const browser = new Browser();
    expect((await browser.post("/auth?mode=signin", { intent: "signin", email: account.email, password: STRONG_PASSWORD })).status).toBe(302);
    const wrong = wrongCode(await totp(account.secret));
    for (let i = 0; i < LOCKOUT.twoFactor.maxFailures; i++) expect((await browser.post("/auth/two-factor", { code: wrong })).status).toBe(401);
    const locked = await browser.post("/auth/two-factor", { code: wrong });
    expect(locked.status).toBe(429);
    const wait = Number(locked.headers.get("Retry-After"));
    expect(wait).toBeLessThanOrEqual((2 * LOCKOUT.twoFactor.lockMs) / 1000);
    // Allows for the seconds the requests themselves take.
    expect(wait).toBeGreaterThan((2 * LOCKOUT.twoFactor.lockMs) / 1000 - 30);
    // The right code is refused too, with the time left in the longer lock.
    const refused = await browser.post("/auth/two-factor", { code: await totp(account.secret) });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(LOCKOUT.twoFactor.lockMs / 1000);
    // The page names the longer lock, not the first one's 15 minutes.
    expect(await refused.text()).toContain("Two-factor sign-in is locked for 30 minutes.");
    expect(browser.cookies.has("mfy_access")).toBe(false);

    const mail = await waitForMail(account.email, SUBJECT);
    expect(mail.links).toEqual([CHANGE_PASSWORD]);
    await queueSettled();
    expect(await lockMails(account.email)).toHaveLength(1);
  });
});

describe("the two-factor lock's length", () => {
  it("doubles each time it trips again, up to 24 hours, refusing even the right code until it ends; each trip is mailed", async () => {
    const account = await twoFactorAccount();
    const right = await totp(account.secret);
    const ladderMinutes = [15, 30, 60, 120, 240, 480, 960, 1440, 1440];
    let now = Date.now();
    for (const minutes of ladderMinutes) {
      const lockMs = minutes * MINUTE;
      expect(await trip(account, now), `trip of a ${minutes}-minute lock`).toBe(lockMs / 1000);
      expect(await verifySecondFactor(deps(), account.id, right, now + 1000)).toEqual({ ok: false, reason: "locked", retryAfterSeconds: lockMs / 1000 - 1 });
      expect(await verifySecondFactor(deps(), account.id, right, now + lockMs - 1000)).toEqual({ ok: false, reason: "locked", retryAfterSeconds: 1 });
      now += lockMs + 1000;
    }
    expect(Math.max(...ladderMinutes) * MINUTE).toBe(TWO_FACTOR_LOCK_GROWTH.maxLockMs);
    await waitForMail(account.email, SUBJECT);
    await queueSettled();
    expect(await lockMails(account.email)).toHaveLength(ladderMinutes.length);
  });

  it("starts again from 15 minutes after a correct code", async () => {
    const account = await twoFactorAccount();
    const lockSeconds = LOCKOUT.twoFactor.lockMs / 1000;
    const first = Date.now();
    expect(await trip(account, first)).toBe(lockSeconds);
    const second = first + LOCKOUT.twoFactor.lockMs + 1000;
    expect(await trip(account, second)).toBe(2 * lockSeconds);
    const after = second + 2 * LOCKOUT.twoFactor.lockMs + 1000;
    expect(await verifySecondFactor(deps(), account.id, await totp(account.secret), after)).toEqual({ ok: true });
    expect(await tripsRow(account.id)).toBeUndefined();
    expect(await trip(account, after + 1000)).toBe(lockSeconds);
  });

  it("starts again from 15 minutes a week after the latest trip, not before", async () => {
    const account = await twoFactorAccount();
    const lockSeconds = LOCKOUT.twoFactor.lockMs / 1000;
    const forget = TWO_FACTOR_LOCK_GROWTH.forgetAfterMs;
    const first = Date.now();
    expect(await trip(account, first)).toBe(lockSeconds);
    // Each trip keeps the count a week longer: one a little under a week later still doubles.
    const second = first + forget - 1000;
    expect(await trip(account, second)).toBe(2 * lockSeconds);
    const third = second + forget - 1000;
    expect(await trip(account, third)).toBe(4 * lockSeconds);
    expect(await trip(account, third + forget + 1000)).toBe(lockSeconds);
  });
});
