// The visitor's side of the early-access programme, through the whole Worker: joining the
// waitlist (score, one entry and one mail per address even in a burst, no account enumeration,
// the per-IP cap, the honeypot), redeeming keys (any case, with or without dashes; unknown, used,
// expired, revoked each refused with its own message; one winner when two users race for a key;
// rate limits per user and per IP), the key's link through sign-in and sign-up, and "account
// activated" unlocking downloads, Model Analytics and the API.
import { SELF } from "cloudflare:test";
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { hashSecret } from "~/lib/auth/password";
import { EARLY_ACCESS, MS } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { formatActivationKey } from "~/lib/early-access/keys";
import { createActivationKeys } from "~/lib/early-access/keys.server";
import { EARLY_ACCESS_MESSAGES as KM, WAITLIST_MESSAGES as WM } from "~/lib/early-access/messages";
import { Browser, createConfirmedUser, db, insertUser, linkPath, signUpFields, STRONG_PASSWORD, uniqueEmail, uniqueIp, waitForMail } from "./helpers";

const P = EARLY_ACCESS.priority;
const escaped = (text: string) => text.replaceAll("'", "&#x27;");

async function signedIn(ip?: string) {
  const email = uniqueEmail("member");
  const row = await insertUser({ email, passwordHash: await hashSecret(STRONG_PASSWORD), metadata: {}, confirmed: true });
  const browser = new Browser(ip);
  const signin = await browser.post("/auth?mode=signin", { intent: "signin", email, password: STRONG_PASSWORD });
  expect(signin.status).toBe(200);
  return { browser, id: row.id, email };
}

async function newKey(options: { now?: number; validityDays?: number } = {}) {
  const [key] = await createActivationKeys(db, { count: 1, createdBy: null, validityDays: options.validityDays }, options.now);
  return key!;
}

const profileOf = (userId: string) => db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, userId) });
const keyRow = (id: string) => db.query.activationKeys.findFirst({ where: eq(schema.activationKeys.id, id) });
const entryOf = (email: string) => db.query.waitlist.findFirst({ where: eq(schema.waitlist.email, email) });
async function mailsTo(to: string) {
  const [row] = await db.select({ n: count() }).from(schema.outbox).where(eq(schema.outbox.to, to));
  return row!.n;
}
const join = (browser: Browser, fields: Record<string, string>, path = "/early-access") =>
  browser.post(path, { email: uniqueEmail("wait"), firstName: "Ada", lastName: "Lovelace", company: "", ...fields });
const redeem = (browser: Browser, key: string) => browser.post("/activate", { key });

describe("joining the waitlist", () => {
  it("stores the entry with its server-computed score and mails a confirmation once", async () => {
    const referrer = await signedIn();
    const username = `ref_${Date.now().toString(36)}`;
    await db.update(schema.userProfiles).set({ username }).where(eq(schema.userProfiles.userId, referrer.id));
    const base = uniqueEmail("Scored").toUpperCase();
    const plain = uniqueEmail("plain");
    const selfRef = uniqueEmail("selfref");

    const visitor = new Browser();
    const answer = await join(visitor, { email: `  ${base} `, firstName: "Grace", lastName: "Hopper", company: "Navy Labs" }, `/early-access`);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain(escaped(WM.joined));
    await join(new Browser(), { email: plain });
    await join(new Browser(), { email: selfRef, ref: "not-a-member" });
    const referred = uniqueEmail("referred");
    await join(new Browser(), { email: referred, ref: username.toUpperCase() });

    const entry = await entryOf(base.toLowerCase());
    expect(entry).toMatchObject({ firstName: "Grace", lastName: "Hopper", company: "Navy Labs", earlyAccessGranted: false, referredBy: null });
    const early = (await entryOf(plain))!.priorityScore; // 10 while the list is short, 0 later
    expect([0, P.early]).toContain(early);
    expect(entry!.priorityScore - early).toBe(P.company);
    expect(await entryOf(selfRef)).toMatchObject({ referredBy: "not-a-member", priorityScore: early });
    expect(await entryOf(referred)).toMatchObject({ referredBy: username.toUpperCase(), priorityScore: early + P.referral });

    const mail = await waitForMail(base.toLowerCase(), /You're on the Modelify waitlist/);
    expect(mail.text).toContain("Hi Grace,");
    expect(mail.links[0]).toBe("http://localhost/activate");
  });

  it("keeps one entry and sends one mail when the same address joins again, even five at once in any case", async () => {
    const email = uniqueEmail("twice");
    const first = await join(new Browser(), { email });
    expect(await first.text()).toContain(escaped(WM.joined));
    await waitForMail(email, /waitlist/);
    const burst = await Promise.all(
      ["", "upper", "", "upper", ""].map((c) => join(new Browser(), { email: c ? email.toUpperCase() : email, firstName: "Changed" })),
    );
    for (const r of burst) {
      expect(r.status).toBe(200);
      expect(await r.text()).toContain(escaped(WM.alreadyJoined));
    }
    const [rows] = await db.select({ n: count() }).from(schema.waitlist).where(eq(schema.waitlist.email, email));
    expect(rows!.n).toBe(1);
    expect((await entryOf(email))!.firstName).toBe("Ada");
    await new Promise((r) => setTimeout(r, 500));
    expect(await mailsTo(email)).toBe(1);
  });

  it("answers an address that has an account exactly as a new one", async () => {
    const member = await signedIn();
    const forMember = await join(new Browser(), { email: member.email });
    const forStranger = await join(new Browser(), { email: uniqueEmail("stranger") });
    expect(forMember.status).toBe(forStranger.status);
    const message = (html: string) => html.match(/<p class="mt-2 text-sm leading-6 text-slate-700">([^<]*)<\/p>/)?.[1];
    const [a, b] = [message(await forMember.text()), message(await forStranger.text())];
    expect(a).toBe(escaped(WM.joined));
    expect(a).toBe(b);
  });

  it("refuses an invalid form with the field's message and stores nothing", async () => {
    const email = uniqueEmail("bad");
    const response = await join(new Browser(), { email: "not-an-address", firstName: "", lastName: "x".repeat(60) });
    expect(response.status).toBe(400);
    const html = await response.text();
    for (const message of [WM.emailInvalid, WM.firstNameRequired, WM.tooLong(50)]) expect(html).toContain(message);
    const named = await join(new Browser(), { email, firstName: " " });
    expect(named.status).toBe(400);
    expect(await entryOf(email)).toBeUndefined();
  });

  it("tells a bot that fills the hidden field it joined, and stores and mails nothing", async () => {
    const email = uniqueEmail("bot");
    const response = await join(new Browser(), { email, website: "http://spam.example" });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(escaped(WM.joined));
    expect(await entryOf(email)).toBeUndefined();
    await new Promise((r) => setTimeout(r, 500));
    expect(await mailsTo(email)).toBe(0);
  });

  it("takes at most 10 joins an hour from one address, counted atomically", async () => {
    const ip = uniqueIp();
    const emails = Array.from({ length: 14 }, () => uniqueEmail("crowd"));
    const answers = await Promise.all(emails.map((email) => join(new Browser(ip), { email })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(EARLY_ACCESS.waitlistJoinsPerIp.limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
    const refused = answers[statuses.indexOf(429)]!;
    expect(await refused.text()).toContain(WM.tooManyJoins);
    const stored = await Promise.all(emails.map(entryOf));
    expect(stored.filter(Boolean)).toHaveLength(EARLY_ACCESS.waitlistJoinsPerIp.limit);
  });
});

describe("redeeming a key", () => {
  it("accepts the key in any case, with or without dashes or spaces, and gives 90 days of early access", async () => {
    for (const shape of [(k: string) => formatActivationKey(k).toLowerCase(), (k: string) => k, (k: string) => ` ${k.slice(0, 8)} ${k.slice(8)} `]) {
      const { browser, id } = await signedIn();
      const key = await newKey();
      const before = Date.now();
      const response = await redeem(browser, shape(key.key));
      expect(response.status).toBe(200);
      expect(await response.text()).toContain(KM.redeemed);
      const profile = await profileOf(id);
      expect(profile!.earlyAccessStatus).toBe("active");
      expect(profile!.earlyAccessGrantedAt).toBeGreaterThanOrEqual(before);
      expect(profile!.earlyAccessExpiresAt! - profile!.earlyAccessGrantedAt!).toBe(EARLY_ACCESS.accessMs);
      expect(await keyRow(key.id)).toMatchObject({ isUsed: true, userId: id, usedAt: profile!.earlyAccessGrantedAt });
    }
  });

  it("refuses unknown, used, expired, revoked and malformed keys, each with its own message, and changes nothing", async () => {
    const { browser, id } = await signedIn();
    const used = await newKey();
    const winner = await signedIn();
    expect((await redeem(winner.browser, used.key)).status).toBe(200);
    const expired = await newKey({ now: Date.now() - 31 * MS.DAY });
    const revoked = await newKey();
    await db.update(schema.activationKeys).set({ revokedAt: Date.now() }).where(eq(schema.activationKeys.id, revoked.id));

    const cases: Array<[string, number, string]> = [
      ["ZZZZ-ZZZZ-ZZZZ-ZZZ9", 404, KM.unknownKey],
      [used.key, 409, KM.usedKey],
      [expired.key, 410, KM.expiredKey],
      [revoked.key, 410, KM.revokedKey],
      ["ABCD-1234", 400, KM.invalidKey],
    ];
    const seen = new Set<string>();
    for (const [key, status, message] of cases) {
      const response = await redeem(browser, key);
      expect(response.status, key).toBe(status);
      expect(await response.text()).toContain(escaped(message));
      seen.add(message);
    }
    expect(seen.size).toBe(cases.length);
    expect((await profileOf(id))!.earlyAccessStatus).not.toBe("active");
    expect(await keyRow(expired.id)).toMatchObject({ isUsed: false, userId: null });
    expect(await keyRow(revoked.id)).toMatchObject({ isUsed: false, userId: null });
  });

  it("refuses a signed-out visitor, a repeated field and a body that is not a form", async () => {
    const key = await newKey();
    expect((await redeem(new Browser(), key.key)).status).toBe(401);
    const { browser } = await signedIn();
    const repeated = await SELF.fetch("http://localhost/activate", {
      method: "POST",
      headers: { Cookie: browser.cookieHeader(), Origin: "http://localhost", "Content-Type": "application/x-www-form-urlencoded" },
      body: `key=${key.key}&key=${key.key}`,
    });
    expect(repeated.status).toBe(400);
    const json = await SELF.fetch("http://localhost/activate", {
      method: "POST",
      headers: { Cookie: browser.cookieHeader(), Origin: "http://localhost", "Content-Type": "application/json" },
      body: JSON.stringify({ key: key.key }),
    });
    expect(json.status).toBe(415);
    const crossSite = await browser.post("/activate", { key: key.key }, { Origin: "https://evil.example" });
    expect(crossSite.status).toBeGreaterThanOrEqual(400);
    expect(crossSite.status).toBeLessThan(500);
    expect(await keyRow(key.id)).toMatchObject({ isUsed: false });
  });

  it("keeps a member's second key unspent", async () => {
    const { browser } = await signedIn();
    const [first, second] = [await newKey(), await newKey()];
    expect((await redeem(browser, first.key)).status).toBe(200);
    const again = await redeem(browser, second.key);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain(KM.alreadyActive);
    expect(await keyRow(second.id)).toMatchObject({ isUsed: false });
  });

  it("gives one key to exactly one of two users who redeem it at the same moment", async () => {
    for (let round = 0; round < 3; round++) {
      const [a, b] = [await signedIn(), await signedIn()];
      const key = await newKey();
      const answers = await Promise.all([redeem(a.browser, key.key), redeem(b.browser, key.key)]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      const loser = answers.find((r) => r.status === 409)!;
      expect(await loser.text()).toContain(KM.usedKey);
      const profiles = await Promise.all([profileOf(a.id), profileOf(b.id)]);
      expect(profiles.filter((p) => p!.earlyAccessStatus === "active")).toHaveLength(1);
      const row = await keyRow(key.id);
      expect([a.id, b.id]).toContain(row!.userId);
      expect(profiles.find((p) => p!.earlyAccessStatus === "active")!.userId).toBe(row!.userId);
    }
  });

  it("spends one key when one user sends two keys at once", async () => {
    const { browser } = await signedIn();
    const keys = [await newKey(), await newKey()];
    const answers = await Promise.all(keys.map((k) => redeem(browser, k.key)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const rows = await Promise.all(keys.map((k) => keyRow(k.id)));
    expect(rows.filter((r) => r!.isUsed)).toHaveLength(1);
  });

  it("limits guesses per user: a burst of wrong keys gets 6 checks, then even a valid key waits", async () => {
    const { browser } = await signedIn();
    const wrong = Array.from({ length: 12 }, (_, i) => `QQQQ-QQQQ-QQQQ-${String(1000 + i)}`);
    const answers = await Promise.all(wrong.map((k) => redeem(browser, k)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 404)).toHaveLength(EARLY_ACCESS.redeemAttempts.perUser.maxFailures + 1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12 - (EARLY_ACCESS.redeemAttempts.perUser.maxFailures + 1));
    expect(await answers[statuses.indexOf(429)]!.text()).toContain(KM.tooManyAttempts(15));
    const key = await newKey();
    const refused = await redeem(browser, key.key);
    expect(refused.status).toBe(429);
    expect(await keyRow(key.id)).toMatchObject({ isUsed: false });
  });

  it("limits guesses per client address across accounts", async () => {
    const ip = uniqueIp();
    const users = await Promise.all(Array.from({ length: 6 }, () => signedIn(ip)));
    const rule = EARLY_ACCESS.redeemAttempts.perIp;
    // Four wrong keys each (under the per-user limit): 24 attempts from one address.
    const attempts = users.flatMap((u, i) =>
      Array.from({ length: 4 }, (_, j) => redeem(u.browser, `WWWW-WWWW-WW${String(i).padStart(2, "0")}-${String(1000 + j)}`)),
    );
    const statuses = (await Promise.all(attempts)).map((r) => r.status);
    expect(statuses.filter((s) => s === 404)).toHaveLength(rule.maxFailures + 1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(24 - (rule.maxFailures + 1));
    // The same accounts elsewhere are not blocked by that address.
    const elsewhere = new Browser(uniqueIp());
    elsewhere.cookies = users[0]!.browser.cookies;
    const key = await newKey();
    expect((await redeem(elsewhere, key.key)).status).toBe(200);
  });
});

describe("the key's link", () => {
  it("parks the key in an HttpOnly cookie, survives sign-in, fills the form and the overview, and is cleared once redeemed", async () => {
    const key = await newKey();
    const email = uniqueEmail("linked");
    await insertUser({ email, passwordHash: await hashSecret(STRONG_PASSWORD), metadata: {}, confirmed: true });
    const browser = new Browser();
    const opened = await browser.get(`/activate?key=${formatActivationKey(key.key).toLowerCase()}`);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("Location")).toBe("/activate");
    const cookie = opened.headers.getSetCookie().find((c) => c.startsWith("mfy_pending_key="));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(await keyRow(key.id)).toMatchObject({ isUsed: false });

    const waiting = await (await browser.get("/activate")).text();
    expect(waiting).toContain(`Your key ending in ${key.key.slice(-4)} is ready`);
    expect(waiting).not.toContain(key.key.slice(0, 12));

    const signin = await browser.post("/auth?mode=signin&from=activate", { intent: "signin", email, password: STRONG_PASSWORD });
    expect(await signin.text()).toContain("Redirecting to your activation key");
    const form = await (await browser.get("/activate")).text();
    expect(form).toContain(`value="${formatActivationKey(key.key)}"`);
    const overview = await (await browser.get("/dashboard")).text();
    expect(overview).toContain('data-testid="early-access-card"');
    expect(overview).toContain(`value="${formatActivationKey(key.key)}"`);

    const redeemed = await redeem(browser, formatActivationKey(key.key));
    expect(redeemed.status).toBe(200);
    expect(redeemed.headers.getSetCookie().some((c) => c.startsWith("mfy_pending_key=") && /Max-Age=0/i.test(c))).toBe(true);
    const member = await (await browser.get("/dashboard")).text();
    expect(member).toContain('data-testid="early-access-status"');
    expect(member).toContain("Active until");
    expect(member).not.toContain('data-testid="early-access-card"');
  });

  it("brings a visitor who signs up from the link back to the key after confirming", async () => {
    const key = await newKey();
    const email = uniqueEmail("newcomer");
    const browser = new Browser();
    await browser.get(`/activate?key=${key.key}`);
    expect((await browser.post("/auth?mode=signup&from=activate", signUpFields(email))).status).toBe(200);
    const mail = await waitForMail(email, /Confirm your Modelify account/);
    const path = linkPath(mail.links[0]!);
    await browser.get(path);
    const confirmed = await browser.post(path, { token: new URL(mail.links[0]!).searchParams.get("token")! });
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("Location")).toBe("/activate");
    expect((await redeem(browser, key.key)).status).toBe(200);
  });

  it("says so when the link does not hold a whole key", async () => {
    const response = await new Browser().get("/activate?key=ABCD-12");
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie().some((c) => c.startsWith("mfy_pending_key="))).toBe(false);
    expect(await response.text()).toContain("This link does not hold a complete key.");
  });
});

describe("an activated account", () => {
  it("unlocks Model Analytics, downloads and the API's account with early access, and locks them again when it ends", async () => {
    const { browser, id, email } = await signedIn();
    const locked = async () => ({
      analytics: (await (await browser.get("/dashboard/analytics")).text()).includes("Premium Feature"),
      downloads: (await (await browser.get("/dashboard/downloads")).text()).includes("Subscription Required"),
      prepare: (await browser.post("/downloads/prepare", { platform: "windows", arch: "x64" })).status === 403,
    });
    expect(await locked()).toEqual({ analytics: true, downloads: true, prepare: true });

    expect((await redeem(browser, (await newKey()).key)).status).toBe(200);
    expect(await locked()).toEqual({ analytics: false, downloads: false, prepare: false });

    const token = await SELF.fetch("http://localhost/api/v1/auth/token", {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueIp() },
      body: JSON.stringify({ email, password: STRONG_PASSWORD }),
    });
    const { access_token } = await token.json<{ access_token: string }>();
    const me = await (await SELF.fetch("http://localhost/api/v1/me", { headers: { Authorization: `Bearer ${access_token}` } })).json<Record<string, unknown>>();
    const profile = await profileOf(id);
    expect(me).toMatchObject({
      account_activated: true,
      has_early_access: true,
      has_active_subscription: false,
      early_access_expires_at: new Date(profile!.earlyAccessExpiresAt!).toISOString(),
    });

    await db
      .update(schema.userProfiles)
      .set({ earlyAccessExpiresAt: Date.now() - 1000 })
      .where(eq(schema.userProfiles.userId, id));
    expect(await locked()).toEqual({ analytics: true, downloads: true, prepare: true });
    const after = await (await SELF.fetch("http://localhost/api/v1/me", { headers: { Authorization: `Bearer ${access_token}` } })).json<
      Record<string, unknown>
    >();
    expect(after).toMatchObject({ account_activated: false, has_early_access: false, early_access_expires_at: null });
  });
});

describe("a real sign-up", () => {
  it("can redeem right away", async () => {
    const { browser } = await createConfirmedUser();
    expect((await redeem(browser, (await newKey()).key)).status).toBe(200);
  });
});
