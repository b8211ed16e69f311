// The visitor's side of the early-access programme, end to end through the Worker (SELF.fetch):
//
// - Joining the waitlist: the row is stored once per address (lower-cased) with the score the
//   server computes (+20 company, +30 a member's username in ?ref=, +10 the first 100 places; an
//   invented ref is kept but earns nothing); one confirmation mail, even for five joins at once; a
//   second join is answered kindly; an address with an account is answered like any other; an
//   invalid form is a 400 with the field messages; the honeypot stores and mails nothing; one
//   client address joins at most 10 times an hour.
// - Redeeming a key: any case, with or without dashes or spaces, gives 90 days of early access
//   and marks the key used by that user; unknown, used, expired, revoked, malformed keys, a
//   signed-out visitor and a member's second key each get their own status and message and spend
//   nothing; one winner when two users race for a key, one key spent when one user sends two;
//   the limits per user (6 tries in 15 minutes) and per client address (21) hold under bursts.
// - The key's e-mail link: the key waits in an HttpOnly cookie through sign-in or sign-up and
//   e-mail confirmation, fills the forms, and is dropped once answered for.
// - "Account activated": early access unlocks Model Analytics, downloads (page, prepare, file
//   link), the overview and /api/v1/me, and everything locks again when it expires.
// - Requests the routes must refuse: cross-site posts, repeated fields, huge or non-form bodies
//   (4xx, never a 500, nothing written).
import { env, SELF } from "cloudflare:test";
import { and, count, eq, inArray, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { hashSecret } from "~/lib/auth/password";
import { EARLY_ACCESS, MS, PERSON_NAME } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { DOWNLOAD_MESSAGES } from "~/lib/downloads/messages";
import { optionById, releaseKey } from "~/lib/downloads/options";
import { publishRelease } from "~/lib/downloads/releases.server";
import { formatActivationKey } from "~/lib/early-access/keys";
import { createActivationKeys } from "~/lib/early-access/keys.server";
import { EARLY_ACCESS_MESSAGES as KM, WAITLIST_MESSAGES as WM } from "~/lib/early-access/messages";
import { PERSON_NAME_MESSAGES } from "~/lib/person-name";
import { ensureProfile } from "~/lib/profile/profile.server";
import { Browser, db, insertUser, linkPath, ORIGIN, queueSettled, signUpFields, STRONG_PASSWORD, uniqueEmail, uniqueIp, waitForMail } from "./helpers";

const P = EARLY_ACCESS.priority;
const PER_USER = EARLY_ACCESS.redeemAttempts.perUser.maxFailures + 1; // 6 checks in the window
const PER_IP = EARLY_ACCESS.redeemAttempts.perIp.maxFailures + 1; // 21 checks in the window
const JOINS_PER_IP = EARLY_ACCESS.waitlistJoinsPerIp.limit; // 10 an hour
const LOCK_MINUTES = EARLY_ACCESS.redeemAttempts.perUser.windowMs / MS.MINUTE;

// ---- Helpers ------------------------------------------------------------------------------------

/** A confirmed account with a profile, signed in through the real sign-in form from `ip`. */
async function member(ip?: string) {
  const email = uniqueEmail("member");
  const row = await insertUser({ email, passwordHash: await hashSecret(STRONG_PASSWORD), metadata: {}, confirmed: true });
  await ensureProfile(db, { id: row.id, email, createdAt: Date.now() });
  const browser = new Browser(ip);
  const signin = await browser.post("/auth?mode=signin", { intent: "signin", email, password: STRONG_PASSWORD });
  expect(signin.status).toBe(200);
  expect(browser.cookies.has("mfy_access")).toBe(true);
  return { browser, id: row.id, email };
}

async function newKey(options: { now?: number; validityDays?: number; sentTo?: string } = {}) {
  const [key] = await createActivationKeys(db, { count: 1, createdBy: null, validityDays: options.validityDays, sentTo: options.sentTo }, options.now);
  return key!;
}

const profileOf = async (userId: string) => (await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, userId) }))!;
const keyRow = async (id: string) => (await db.query.activationKeys.findFirst({ where: eq(schema.activationKeys.id, id) }))!;
const entryOf = (email: string) => db.query.waitlist.findFirst({ where: eq(schema.waitlist.email, email) });
async function entriesFor(email: string) {
  const [row] = await db.select({ n: count() }).from(schema.waitlist).where(eq(schema.waitlist.email, email));
  return row!.n;
}
async function waitlistSize() {
  const [row] = await db.select({ n: count() }).from(schema.waitlist);
  return row!.n;
}
async function mailsTo(to: string) {
  const [row] = await db.select({ n: count() }).from(schema.outbox).where(eq(schema.outbox.to, to));
  return row!.n;
}

const join = (browser: Browser, fields: Record<string, string>) =>
  browser.post("/early-access", { email: uniqueEmail("wait"), firstName: "Ada", lastName: "Lovelace", company: "", ...fields });
const redeem = (browser: Browser, key: string) => browser.post("/activate", { key });

/** What a person sees: the HTML without scripts (the hydration data repeats every message), tags and entities. */
function visible(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, " ")
    .replace(/<style\b[^>]*>[\s\S]*?<\/style>/gi, " ")
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&#x27;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&")
    .replace(/\s+/g, " ");
}
/** Whether the page shows a message to the person (not only in its hydration data). */
function answered(html: string, message: string): boolean {
  return visible(html).includes(message);
}
/** The waitlist's answer box (role="status"), as text. */
function joinAnswer(html: string): string {
  const box = html.match(/<div role="status"[^>]*>([\s\S]*?)<\/div>/);
  expect(box, "the waitlist answer is shown").not.toBeNull();
  return visible(box![1]!).trim();
}
/** A section of the page starting at an element with this data-testid. */
function section(html: string, testId: string, length = 4000): string {
  const start = html.indexOf(`data-testid="${testId}"`);
  expect(start, testId).toBeGreaterThan(-1);
  return html.slice(start, start + length);
}
function pendingCookieOf(response: Response): string | undefined {
  return response.headers.getSetCookie().find((c) => c.startsWith("mfy_pending_key="));
}

async function apiToken(email: string) {
  const response = await SELF.fetch(`${ORIGIN}/api/v1/auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueIp() },
    body: JSON.stringify({ email, password: STRONG_PASSWORD }),
  });
  expect(response.status).toBe(200);
  return (await response.json<{ access_token: string }>()).access_token;
}
async function me(token: string) {
  const response = await SELF.fetch(`${ORIGIN}/api/v1/me`, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return response.json<Record<string, unknown>>();
}

// ---- Joining the waitlist -----------------------------------------------------------------------

describe("joining the waitlist", () => {
  it("stores the entry lower-cased with the server's score: company +20, a member's username +30, the first 100 places +10", async () => {
    // Brings the list to 99 entries (when it is shorter), so the next join is place 100 and the one after it place 101.
    const start = await waitlistSize();
    const filler = Array.from({ length: Math.max(0, P.earlyPlaces - 1 - start) }, (_, i) => ({
      id: crypto.randomUUID(),
      email: uniqueEmail(`filler${i}`),
      firstName: "Fill",
      lastName: "Er",
      createdAt: Date.now() - MS.HOUR,
    }));
    for (let i = 0; i < filler.length; i += 8) await db.insert(schema.waitlist).values(filler.slice(i, i + 8));

    const referrer = await member();
    const username = `ada_${Date.now().toString(36)}`;
    await db.update(schema.userProfiles).set({ username }).where(eq(schema.userProfiles.userId, referrer.id));

    // Place 100 (or later when the list was already long): only the early bonus can apply.
    const place = (await waitlistSize()) + 1;
    const first = uniqueEmail("first");
    expect((await join(new Browser(), { email: first })).status).toBe(200);
    expect((await entryOf(first))!.priorityScore).toBe(place <= P.earlyPlaces ? P.early : 0);

    // Past place 100 from here on: each bonus is visible on its own.
    const shouted = uniqueEmail("Grace").toUpperCase();
    const company = await join(new Browser(), { email: `  ${shouted}  `, firstName: " Grace ", lastName: "Hopper", company: " Navy Labs " });
    expect(company.status).toBe(200);
    expect(joinAnswer(await company.text())).toContain(WM.joined);
    const plain = uniqueEmail("plain");
    const referred = uniqueEmail("referred");
    const both = uniqueEmail("both");
    const invented = uniqueEmail("invented");
    const scripted = uniqueEmail("scripted");
    for (const fields of <Array<Record<string, string>>>[
      { email: plain },
      { email: referred, ref: username.toUpperCase() }, // usernames are matched in any case
      { email: both, ref: username, company: "Acme" },
      { email: invented, ref: "my-own-code" },
      { email: scripted, ref: "<script>alert(1)</script>" },
    ]) {
      expect((await join(new Browser(), fields)).status).toBe(200);
    }

    const stored = await entryOf(shouted.toLowerCase());
    expect(stored).toMatchObject({
      email: shouted.toLowerCase(),
      firstName: "Grace",
      lastName: "Hopper",
      company: "Navy Labs",
      referredBy: null,
      earlyAccessGranted: false,
      grantedAt: null,
      priorityScore: P.company,
    });
    expect(await entriesFor(shouted)).toBe(0); // nothing stored under the address as typed
    expect(await entryOf(plain)).toMatchObject({ priorityScore: 0, company: null, referredBy: null });
    expect(await entryOf(referred)).toMatchObject({ priorityScore: P.referral, referredBy: username.toUpperCase() });
    expect(await entryOf(both)).toMatchObject({ priorityScore: P.referral + P.company, referredBy: username });
    // A code that names nobody is kept for the record and earns nothing; markup is not even kept.
    expect(await entryOf(invented)).toMatchObject({ priorityScore: 0, referredBy: "my-own-code" });
    expect(await entryOf(scripted)).toMatchObject({ priorityScore: 0, referredBy: null });

    const mail = await waitForMail(shouted.toLowerCase(), /waitlist/);
    expect(mail.subject).toBe("You're on the Modelify waitlist");
    expect(mail.text).toContain("Hi,"); // never the typed name (mail-relay.test.ts)
    expect(mail.links).toEqual([`${ORIGIN}/activate`]);
    await queueSettled();
    expect(await mailsTo(shouted.toLowerCase())).toBe(1);
  });

  it("carries ?ref= from the page into the form, and drops one that is not a plain code", async () => {
    const page = await (await new Browser().get("/early-access?ref=grace_h.1")).text();
    expect(page).toContain('<input type="hidden" name="ref" value="grace_h.1"/>');
    const hostile = await (await new Browser().get(`/early-access?ref=${encodeURIComponent('"><script>x</script>')}`)).text();
    expect(hostile).not.toContain('name="ref"');
  });

  it("stores and mails an address once when it joins five times at once in mixed case, and answers the rest kindly", async () => {
    const email = uniqueEmail("burst");
    const spellings = [email, email.toUpperCase(), ` ${email} `, email.replace(/^b/, "B"), email.toUpperCase()];
    const answers = await Promise.all(spellings.map((spelling, i) => join(new Browser(), { email: spelling, firstName: `Name${i}` })));
    const texts = await Promise.all(answers.map(async (a) => ({ status: a.status, text: joinAnswer(await a.text()) })));
    expect(texts.map((t) => t.status)).toEqual([200, 200, 200, 200, 200]);
    expect(texts.filter((t) => t.text.includes(WM.joined))).toHaveLength(1);
    expect(texts.filter((t) => t.text.includes(WM.alreadyJoined))).toHaveLength(4);
    expect(await entriesFor(email)).toBe(1);

    // Later, again: still one entry (the first details are kept), the same kind answer, no mail.
    const again = await join(new Browser(), { email: email.toUpperCase(), firstName: "Changed", company: "Other" });
    expect(again.status).toBe(200);
    expect(joinAnswer(await again.text())).toContain(WM.alreadyJoined);
    expect(await entriesFor(email)).toBe(1);
    const winner = texts.findIndex((t) => t.text.includes(WM.joined));
    expect(await entryOf(email)).toMatchObject({ firstName: `Name${winner}`, company: null });

    await waitForMail(email, /waitlist/);
    await queueSettled();
    expect(await mailsTo(email)).toBe(1);
  });

  it("answers an address that has an account exactly as an address nobody knows", async () => {
    const registered = await member();
    const stranger = uniqueEmail("stranger");
    const answers = [await join(new Browser(), { email: registered.email }), await join(new Browser(), { email: stranger })];
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const [a, b] = (await Promise.all(answers.map(async (r) => joinAnswer(await r.text())))) as [string, string];
    expect(a).toContain(WM.joined);
    expect(a.replace(registered.email, "EMAIL")).toBe(b.replace(stranger, "EMAIL"));
    expect(a).not.toMatch(/already|registered|account exists|sign in/i);
    // Both are on the list and both are mailed the same words.
    expect(await entriesFor(registered.email)).toBe(1);
    expect(await entriesFor(stranger)).toBe(1);
    const [mailA, mailB] = [await waitForMail(registered.email, /waitlist/), await waitForMail(stranger, /waitlist/)];
    expect(mailA.text).toBe(mailB.text);

    // Joining again is answered alike too.
    const [againA, againB] = [await join(new Browser(), { email: registered.email }), await join(new Browser(), { email: stranger })];
    expect(againA.status).toBe(againB.status);
    expect(joinAnswer(await againA.text()).replace(registered.email, "EMAIL")).toBe(joinAnswer(await againB.text()).replace(stranger, "EMAIL"));
  });

  it("refuses an invalid form with 400 and each field's message, and stores and mails nothing", async () => {
    const email = uniqueEmail("invalid");
    const cases: Array<[Record<string, string>, string[]]> = [
      [{ email: "", firstName: "", lastName: "" }, [WM.emailRequired, WM.firstNameRequired, WM.lastNameRequired]],
      [
        { email: "not-an-address", company: "c".repeat(101), lastName: "x".repeat(PERSON_NAME.maxLength + 1) },
        [WM.emailInvalid, WM.tooLong(100), PERSON_NAME_MESSAGES.tooLong("Last name")],
      ],
      [{ email, firstName: "   " }, [WM.firstNameRequired]],
      [{ email, lastName: "Love\u0000lace" }, [WM.invalidCharacters]],
      [{ email: `${"a".repeat(250)}@example.com` }, [WM.emailInvalid]],
    ];
    for (const [fields, messages] of cases) {
      const response = await join(new Browser(), fields);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      const html = await response.text();
      for (const message of messages) expect(answered(html, message), `${JSON.stringify(fields)}: ${message}`).toBe(true);
      expect(html).not.toContain('role="status"');
    }
    // A form without any field at all.
    const empty = await new Browser().post("/early-access", {});
    expect(empty.status).toBe(400);
    expect(answered(await empty.text(), WM.emailRequired)).toBe(true);

    expect(await entriesFor(email)).toBe(0);
    await queueSettled();
    expect(await mailsTo(email)).toBe(0);
  });

  it("tells a bot that fills the hidden field it joined, and stores and mails nothing", async () => {
    const bot = uniqueEmail("bot");
    const response = await join(new Browser(), { email: bot, website: "http://spam.example" });
    expect(response.status).toBe(200);
    expect(joinAnswer(await response.text())).toContain(WM.joined);
    expect(await entryOf(bot)).toBeUndefined();

    // The field sent empty (a person) or not at all (a client without the page) is a real join.
    const person = uniqueEmail("person");
    const client = uniqueEmail("client");
    expect((await join(new Browser(), { email: person, website: "" })).status).toBe(200);
    expect((await new Browser().post("/early-access", { email: client, firstName: "Ada", lastName: "Byron" })).status).toBe(200);
    expect(await entriesFor(person)).toBe(1);
    expect(await entriesFor(client)).toBe(1);

    await queueSettled();
    expect(await mailsTo(bot)).toBe(0);
    expect(await mailsTo(person)).toBe(1);
  });

  it("takes at most 10 joins an hour from one client address, even all at once", async () => {
    const ip = uniqueIp();
    const emails = Array.from({ length: JOINS_PER_IP + 2 }, () => uniqueEmail("crowd"));
    const answers = await Promise.all(emails.map((email) => join(new Browser(ip), { email })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(JOINS_PER_IP);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    for (const refused of answers.filter((a) => a.status === 429)) {
      const wait = Number(refused.headers.get("Retry-After"));
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(EARLY_ACCESS.waitlistJoinsPerIp.windowMs / 1000);
      const html = await refused.text();
      expect(answered(html, WM.tooManyJoins)).toBe(true);
      expect(html).not.toContain('role="status"');
    }
    const stored = await db.select({ email: schema.waitlist.email }).from(schema.waitlist).where(inArray(schema.waitlist.email, emails));
    expect(stored).toHaveLength(JOINS_PER_IP);
    // The refused addresses are exactly the ones not stored, and another address is not affected.
    const storedEmails = new Set(stored.map((s) => s.email));
    for (const [i, email] of emails.entries()) expect(storedEmails.has(email), email).toBe(statuses[i] === 200);
    expect((await join(new Browser(uniqueIp()), {})).status).toBe(200);
    expect((await join(new Browser(ip), {})).status).toBe(429);
  });
});

// ---- Redeeming a key ----------------------------------------------------------------------------

describe("redeeming a key", () => {
  it("accepts the key in any case, with or without dashes or spaces, and gives 90 days of early access", async () => {
    const shapes: Array<(k: string) => string> = [
      (k) => formatActivationKey(k).toLowerCase(),
      (k) => k,
      (k) => k.toLowerCase(),
      (k) => ` ${k.slice(0, 4)} ${k.slice(4, 8)}\t${k.slice(8, 12).toLowerCase()}\n${k.slice(12)} `,
      (k) => `${formatActivationKey(k)}`,
    ];
    for (const shape of shapes) {
      const { browser, id } = await member();
      const key = await newKey();
      const before = Date.now();
      const response = await redeem(browser, shape(key.key));
      expect(response.status, shape(key.key)).toBe(200);
      const html = await response.text();
      expect(section(html, "redeem-success")).toContain(KM.redeemed);
      const profile = await profileOf(id);
      expect(profile.earlyAccessStatus).toBe("active");
      expect(profile.earlyAccessGrantedAt).toBeGreaterThanOrEqual(before);
      expect(profile.earlyAccessGrantedAt).toBeLessThanOrEqual(Date.now());
      expect(profile.earlyAccessExpiresAt! - profile.earlyAccessGrantedAt!).toBe(90 * MS.DAY);
      expect(await keyRow(key.id)).toMatchObject({ isUsed: true, userId: id, usedAt: profile.earlyAccessGrantedAt });
    }
  });

  it("refuses unknown, used, expired and revoked keys, each with its own status and message, and spends nothing", async () => {
    const { browser, id } = await member();
    const used = await newKey();
    const first = await member();
    expect((await redeem(first.browser, used.key)).status).toBe(200);
    // Valid 30 days from 31 days ago: expired a day ago.
    const expired = await newKey({ now: Date.now() - 31 * MS.DAY });
    const revoked = await newKey();
    await db.update(schema.activationKeys).set({ revokedAt: Date.now() }).where(eq(schema.activationKeys.id, revoked.id));
    const unknown = "ZZZZ-ZZZZ-ZZZZ-ZZ99";

    const cases: Array<[string, number, string]> = [
      [unknown, 404, KM.unknownKey],
      [formatActivationKey(used.key), 409, KM.usedKey],
      [expired.key, 410, KM.expiredKey],
      [revoked.key.toLowerCase(), 410, KM.revokedKey],
    ];
    for (const [key, status, message] of cases) {
      const response = await redeem(browser, key);
      expect(response.status, key).toBe(status);
      const text = visible(await response.text());
      expect(text).toContain(message);
      for (const [, , other] of cases) if (other !== message) expect(text).not.toContain(other);
      expect(text).not.toContain(KM.redeemed);
    }
    expect(new Set(cases.map(([, , m]) => m)).size).toBe(cases.length);

    const profile = await profileOf(id);
    expect(profile.earlyAccessStatus).not.toBe("active");
    expect(profile.earlyAccessExpiresAt).toBeNull();
    expect(await keyRow(used.id)).toMatchObject({ isUsed: true, userId: first.id });
    expect(await keyRow(expired.id)).toMatchObject({ isUsed: false, userId: null, usedAt: null });
    expect(await keyRow(revoked.id)).toMatchObject({ isUsed: false, userId: null, usedAt: null });
  });

  it("answers a malformed key with 400 without counting it as a guess", async () => {
    const { browser, id } = await member();
    const malformed = [
      "ABCD-1234",
      "ABCD-1234-EFGH-567!",
      "ABCD1234EFGH56789",
      "",
      "    ",
      "ÄBCD-1234-EFGH-5678",
      "x".repeat(65),
      "ABCD_1234_EFGH_5678",
      "ABCD-1234-EFGH-56 78 9",
    ];
    // More malformed keys than the per-user limit allows guesses: none is a 429.
    expect(malformed.length).toBeGreaterThan(PER_USER);
    for (const key of malformed) {
      const response = await redeem(browser, key);
      expect(response.status, JSON.stringify(key)).toBe(400);
      expect(visible(await response.text())).toContain(KM.invalidKey);
    }
    const key = await newKey();
    expect((await redeem(browser, key.key)).status).toBe(200);
    expect((await profileOf(id)).earlyAccessStatus).toBe("active");
  });

  it("asks a signed-out visitor to sign in (401) and spends nothing", async () => {
    const key = await newKey();
    const response = await redeem(new Browser(), key.key);
    expect(response.status).toBe(401);
    expect(visible(await response.text())).toContain(KM.signInToRedeem);
    expect(await keyRow(key.id)).toMatchObject({ isUsed: false, userId: null });
    // A session cookie that is not a session is signed out too.
    const forged = new Browser();
    forged.cookies.set("mfy_access", "not-a-token");
    expect((await redeem(forged, key.key)).status).toBe(401);
    expect(await keyRow(key.id)).toMatchObject({ isUsed: false });
  });

  it("keeps a member's second key unspent (409), and such tries are not counted as guesses", async () => {
    const { browser, id } = await member();
    const [first, second] = [await newKey(), await newKey()];
    expect((await redeem(browser, first.key)).status).toBe(200);
    const grantedUntil = (await profileOf(id)).earlyAccessExpiresAt;
    for (let i = 0; i < PER_USER + 2; i++) {
      const again = await redeem(browser, second.key);
      expect(again.status).toBe(409);
      expect(visible(await again.text())).toContain(KM.alreadyActive);
    }
    expect(await keyRow(second.id)).toMatchObject({ isUsed: false, userId: null });
    expect((await profileOf(id)).earlyAccessExpiresAt).toBe(grantedUntil);
    // The second key still works for someone else.
    expect((await redeem((await member()).browser, second.key)).status).toBe(200);
  });
});

describe("races", () => {
  it("gives one key to exactly one of two users who redeem it at the same moment", async () => {
    for (let round = 0; round < 3; round++) {
      const [a, b] = await Promise.all([member(), member()]);
      const key = await newKey();
      const answers = await Promise.all([redeem(a.browser, key.key), redeem(b.browser, formatActivationKey(key.key))]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(visible(await answers.find((r) => r.status === 409)!.text())).toContain(KM.usedKey);
      const winner = answers[0]!.status === 200 ? a : b;
      const loser = winner === a ? b : a;
      expect((await profileOf(winner.id)).earlyAccessStatus).toBe("active");
      expect((await profileOf(loser.id)).earlyAccessStatus).not.toBe("active");
      expect(await keyRow(key.id)).toMatchObject({ isUsed: true, userId: winner.id });
    }
  });

  it("spends exactly one key when one user sends two valid keys at once", async () => {
    const { browser, id } = await member();
    const keys = [await newKey(), await newKey()];
    const answers = await Promise.all(keys.map((k) => redeem(browser, k.key)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(visible(await answers.find((r) => r.status === 409)!.text())).toContain(KM.alreadyActive);
    const rows = await Promise.all(keys.map((k) => keyRow(k.id)));
    expect(rows.filter((r) => r.isUsed)).toHaveLength(1);
    expect(rows.find((r) => r.isUsed)!.userId).toBe(id);
    expect(rows.find((r) => !r.isUsed)!.userId).toBeNull();
  });
});

describe("limits on guessing", () => {
  it("gives one user 6 checks in a burst of 10 wrong keys; then even a valid key waits, from any address", async () => {
    const { browser, id } = await member();
    const wrong = Array.from({ length: 10 }, (_, i) => `QQQQ-QQQQ-QQQQ-${String(1000 + i)}`);
    const answers = await Promise.all(wrong.map((k) => redeem(browser, k)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 404)).toHaveLength(PER_USER);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10 - PER_USER);
    for (const refused of answers.filter((r) => r.status === 429)) {
      expect(visible(await refused.text())).toContain(KM.tooManyAttempts(LOCK_MINUTES));
    }

    const key = await newKey();
    const refused = await redeem(browser, key.key);
    expect(refused.status).toBe(429);
    expect(visible(await refused.text())).toContain(KM.tooManyAttempts(LOCK_MINUTES));
    // The lock belongs to the account: another network does not lift it.
    const elsewhere = new Browser(uniqueIp());
    elsewhere.cookies = new Map(browser.cookies);
    expect((await redeem(elsewhere, key.key)).status).toBe(429);
    expect(await keyRow(key.id)).toMatchObject({ isUsed: false, userId: null });
    expect((await profileOf(id)).earlyAccessStatus).not.toBe("active");
    // Another account is not affected by this one's lock.
    expect((await redeem((await member()).browser, key.key)).status).toBe(200);
  });

  it("counts an attempt one limit refused against neither: one account cannot lock out its address, nor a locked address an account", async () => {
    const ip = uniqueIp();
    const [greedy, neighbour] = [await member(ip), await member(ip)];
    // 30 wrong keys from one account: 6 are checked, 24 refused by the account's own limit.
    const statuses = [];
    for (let i = 0; i < 30; i++) statuses.push((await redeem(greedy.browser, `XXXX-XXXX-XXXX-${String(1000 + i)}`)).status);
    expect(statuses.filter((s) => s === 404)).toHaveLength(PER_USER);
    // The address has seen only those 6 checks: its neighbour still redeems.
    const key = await newKey();
    expect((await redeem(neighbour.browser, key.key)).status).toBe(200);

    // An address locked by many accounts: the refusals there do not count against an account.
    const busy = uniqueIp();
    const crowd = await Promise.all(Array.from({ length: 5 }, () => member(busy)));
    for (const [u, user] of crowd.entries()) {
      for (let j = 0; j < 5; j++) await redeem(user.browser, `YYYY-YYYY-YY${String(u).padStart(2, "0")}-${String(1000 + j)}`);
    }
    const traveller = await member(busy);
    for (let i = 0; i < 10; i++) expect((await redeem(traveller.browser, `ZZZZ-ZZZZ-ZZZZ-${String(1000 + i)}`)).status).toBe(429);
    const away = new Browser(uniqueIp());
    away.cookies = new Map(traveller.browser.cookies);
    const fresh = await newKey();
    expect((await redeem(away, fresh.key)).status).toBe(200);
  });

  it("checks at most 21 keys in the window from one client address across accounts, then refuses everyone there", async () => {
    const ip = uniqueIp();
    const users = await Promise.all(Array.from({ length: 6 }, () => member(ip)));
    let sent = 0;
    // Five accounts, under their own limit (4 wrong keys each) ...
    for (const [u, user] of users.slice(0, 5).entries()) {
      for (let j = 0; j < 4; j++) {
        const response = await redeem(user.browser, `WWWW-WWWW-WW${String(u).padStart(2, "0")}-${String(1000 + j)}`);
        sent++;
        expect(response.status, `attempt ${sent}`).toBe(404);
      }
    }
    // ... reach attempt 21 with the sixth account, which is still checked.
    expect(sent).toBe(PER_IP - 1);
    expect((await redeem(users[5]!.browser, "WWWW-WWWW-WW05-1000")).status).toBe(404);
    // Attempt 22 from that address: refused, whoever sends it and whatever the key.
    const key = await newKey();
    for (const user of [users[5]!, users[0]!]) {
      const refused = await redeem(user.browser, key.key);
      expect(refused.status).toBe(429);
      expect(visible(await refused.text())).toContain(KM.tooManyAttempts(LOCK_MINUTES));
    }
    expect(await keyRow(key.id)).toMatchObject({ isUsed: false });
    // The same account from another address redeems it.
    const elsewhere = new Browser(uniqueIp());
    elsewhere.cookies = new Map(users[5]!.browser.cookies);
    expect((await redeem(elsewhere, key.key)).status).toBe(200);
    expect(await keyRow(key.id)).toMatchObject({ isUsed: true, userId: users[5]!.id });
  });
});

// ---- The key's e-mail link ------------------------------------------------------------------------

describe("the key's e-mail link", () => {
  it("parks the key in an HttpOnly cookie, survives sign-in, fills the forms, and is cleared once redeemed", async () => {
    const email = uniqueEmail("linked");
    const user = await insertUser({ email, passwordHash: await hashSecret(STRONG_PASSWORD), metadata: {}, confirmed: true });
    const key = await newKey({ sentTo: email });
    const formatted = formatActivationKey(key.key);
    const browser = new Browser();

    const opened = await browser.get(`/activate?key=${formatted.toLowerCase()}`);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("Location")).toBe("/activate");
    const cookie = pendingCookieOf(opened);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).toMatch(/; Path=\//i);
    expect(cookie).toMatch(new RegExp(`; Max-Age=${EARLY_ACCESS.pendingKeyMs / 1000}`, "i"));
    // Opening the link (as a mail scanner would) spends nothing.
    expect(await keyRow(key.id)).toMatchObject({ isUsed: false, userId: null });

    const waiting = await browser.get("/activate");
    expect(waiting.status).toBe(200);
    const waitingHtml = await waiting.text();
    expect(visible(waitingHtml)).toContain(`Your key ending in ${key.key.slice(-4)} is ready`);
    expect(waitingHtml).not.toContain(key.key.slice(0, 12));
    expect(waitingHtml).not.toContain(formatted.slice(0, 14));

    const signin = await browser.post("/auth?mode=signin&from=activate", { intent: "signin", email, password: STRONG_PASSWORD });
    expect(signin.status).toBe(200);
    expect(visible(await signin.text())).toContain("Redirecting to your activation key");

    const form = await browser.get("/activate");
    expect(form.status).toBe(200);
    const formHtml = await form.text();
    expect(formHtml).toContain(`value="${formatted}"`);
    expect(visible(formHtml)).toContain("The key from your e-mail is filled in.");
    const overview = await (await browser.get("/dashboard")).text();
    expect(section(overview, "early-access-card")).toContain(`value="${formatted}"`);
    expect(overview).not.toContain('data-testid="early-access-status"');

    const redeemed = await redeem(browser, formatted);
    expect(redeemed.status).toBe(200);
    expect(pendingCookieOf(redeemed)).toMatch(/Max-Age=0/i);
    expect(browser.cookies.has("mfy_pending_key")).toBe(false);
    expect(await keyRow(key.id)).toMatchObject({ isUsed: true, userId: user.id });

    const after = await (await browser.get("/dashboard")).text();
    expect(section(after, "early-access-status", 600)).toContain("Active until");
    expect(after).not.toContain('data-testid="early-access-card"');
    expect(after).not.toContain(formatted);
    const activate = await browser.get("/activate");
    expect(visible(await activate.text())).toContain(KM.alreadyActive);
  });

  it("brings a visitor who signs up from the link back to /activate after confirming, with the key filled in", async () => {
    const email = uniqueEmail("newcomer");
    const key = await newKey({ sentTo: email });
    const browser = new Browser();
    expect((await browser.get(`/activate?key=${key.key}`)).status).toBe(302);
    expect(browser.cookies.has("mfy_pending_key")).toBe(true);

    const signup = await browser.post("/auth?mode=signup&from=activate", signUpFields(email));
    expect(signup.status).toBe(200);
    const mail = await waitForMail(email, /Confirm your Modelify account/);
    const path = linkPath(mail.links[0]!);
    expect((await browser.get(path)).status).toBe(200);
    const confirmed = await browser.post(path, { token: new URL(mail.links[0]!).searchParams.get("token")! });
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("Location")).toBe("/activate");

    expect(await (await browser.get("/activate")).text()).toContain(`value="${formatActivationKey(key.key)}"`);
    expect((await redeem(browser, key.key)).status).toBe(200);
    const userId = (await db.query.users.findFirst({ where: eq(schema.users.email, email) }))!.id;
    expect(await keyRow(key.id)).toMatchObject({ isUsed: true, userId });
    expect((await profileOf(userId)).earlyAccessStatus).toBe("active");

    // Without a waiting key the same confirmation lands on the dashboard.
    const other = uniqueEmail("plain-signup");
    const plain = new Browser();
    expect((await plain.post("/auth?mode=signup", signUpFields(other))).status).toBe(200);
    const plainMail = await waitForMail(other, /Confirm your Modelify account/);
    const plainPath = linkPath(plainMail.links[0]!);
    await plain.get(plainPath);
    const plainConfirmed = await plain.post(plainPath, { token: new URL(plainMail.links[0]!).searchParams.get("token")! });
    expect(plainConfirmed.headers.get("Location")).toBe("/dashboard");
  });

  it("keeps the waiting key after a malformed or rate-limited post, and drops it once the key is answered for", async () => {
    const { browser } = await member();
    const key = await newKey();
    await browser.get(`/activate?key=${key.key}`);
    // Someone else redeems it first.
    expect((await redeem((await member()).browser, key.key)).status).toBe(200);

    const typo = await redeem(browser, "ABCD");
    expect(typo.status).toBe(400);
    expect(pendingCookieOf(typo)).toBeUndefined();
    expect(browser.cookies.has("mfy_pending_key")).toBe(true);

    // Another (unknown) key typed in leaves the waiting one alone.
    const other = await redeem(browser, "KKKK-KKKK-KKKK-KKKK");
    expect(other.status).toBe(404);
    expect(pendingCookieOf(other)).toBeUndefined();
    expect(browser.cookies.has("mfy_pending_key")).toBe(true);

    const used = await redeem(browser, key.key);
    expect(used.status).toBe(409);
    expect(visible(await used.text())).toContain(KM.usedKey);
    expect(pendingCookieOf(used)).toMatch(/Max-Age=0/i);
    expect(browser.cookies.has("mfy_pending_key")).toBe(false);
    expect(await (await browser.get("/activate")).text()).not.toContain(`value="${formatActivationKey(key.key)}"`);

    // A user locked out for guessing keeps the waiting key for later.
    const locked = await member();
    for (let i = 0; i < PER_USER; i++) expect((await redeem(locked.browser, `LLLL-LLLL-LLLL-${1000 + i}`)).status).toBe(404);
    const fresh = await newKey();
    await locked.browser.get(`/activate?key=${fresh.key}`);
    const limited = await redeem(locked.browser, fresh.key);
    expect(limited.status).toBe(429);
    expect(pendingCookieOf(limited)).toBeUndefined();
    expect(await (await locked.browser.get("/activate")).text()).toContain(`value="${formatActivationKey(fresh.key)}"`);
    expect(await keyRow(fresh.id)).toMatchObject({ isUsed: false });
  });

  it("says so when the link does not hold a whole key, and ignores a forged waiting-key cookie", async () => {
    for (const bad of ["ABCD-12", "ABCD-1234-EFGH-567!", "x".repeat(5000), ""]) {
      const response = await new Browser().get(`/activate?key=${encodeURIComponent(bad)}`);
      expect(response.status, bad.slice(0, 20)).toBe(200);
      expect(pendingCookieOf(response)).toBeUndefined();
      expect(visible(await response.text())).toContain("This link does not hold a complete key.");
    }
    const forged = new Browser();
    forged.cookies.set("mfy_pending_key", "<not base64>");
    const page = await forged.get("/activate");
    expect(page.status).toBe(200);
    expect(visible(await page.text())).not.toContain("Your key ending in");
  });
});

// ---- Account activation -----------------------------------------------------------------------------

describe("an account activated by early access", () => {
  beforeAll(async () => {
    // A published build, so the download call and the file link can be followed all the way.
    const option = optionById("win-x86")!;
    const version = `0.${Date.now() % 1_000_000}.3`;
    await env.BUCKET.put(releaseKey(option, version), new Uint8Array([7, 7, 7, 7]));
    const published = await publishRelease(db, env.BUCKET, { optionId: option.id, version, r2Key: releaseKey(option, version), publishedBy: null });
    if (!published.ok) throw new Error(published.message);
  });

  it("unlocks Model Analytics, downloads, the overview and the API's account, and locks them again when it expires", async () => {
    const { browser, id, email } = await member();
    const token = await apiToken(email);
    const prepare = () => browser.post("/downloads/prepare", { platform: "windows", arch: "x86" });
    const state = async () => {
      const [analytics, downloads, overview, prepared] = await Promise.all([
        browser.get("/dashboard/analytics").then((r) => r.text()),
        browser.get("/dashboard/downloads").then((r) => r.text()),
        browser.get("/dashboard").then((r) => r.text()),
        prepare(),
      ]);
      return {
        analyticsLocked: visible(analytics).includes("Premium Feature"),
        downloadsLocked: visible(downloads).includes("Subscription Required"),
        prepareStatus: prepared.status,
        statusCard: overview.includes('data-testid="early-access-status"'),
        keyCard: overview.includes('data-testid="early-access-card"'),
        overview,
        prepared: (await prepared.json()) as { success: boolean; download_url?: string; error?: string },
      };
    };

    const locked = await state();
    expect(locked).toMatchObject({ analyticsLocked: true, downloadsLocked: true, prepareStatus: 403, statusCard: false, keyCard: true });
    expect(locked.prepared.error).toBe(DOWNLOAD_MESSAGES.subscriptionRequired);
    expect(await me(token)).toMatchObject({
      account_activated: false,
      has_early_access: false,
      has_active_subscription: false,
      early_access_expires_at: null,
    });

    expect((await redeem(browser, (await newKey()).key)).status).toBe(200);
    const profile = await profileOf(id);

    const open = await state();
    expect(open).toMatchObject({ analyticsLocked: false, downloadsLocked: false, prepareStatus: 200, statusCard: true, keyCard: false });
    expect(section(open.overview, "early-access-status", 600)).toContain("Active until");
    expect(open.prepared.success).toBe(true);
    const file = await browser.get(new URL(open.prepared.download_url!).pathname);
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array([7, 7, 7, 7]));
    const account = await me(token);
    expect(account).toMatchObject({
      account_activated: true,
      has_early_access: true,
      has_active_subscription: false,
      early_access_expires_at: new Date(profile.earlyAccessExpiresAt!).toISOString(),
    });
    expect(Date.parse(account.early_access_expires_at as string) - Date.now()).toBeGreaterThan(89 * MS.DAY);
    const rows = await db.select({ n: count() }).from(schema.downloadHistory).where(eq(schema.downloadHistory.userId, id));
    expect(rows[0]!.n).toBe(1);

    // Ninety days later (the expiry moved into the past): locked again everywhere.
    await db
      .update(schema.userProfiles)
      .set({ earlyAccessExpiresAt: Date.now() - 1000 })
      .where(eq(schema.userProfiles.userId, id));
    const relocked = await state();
    expect(relocked).toMatchObject({ analyticsLocked: true, downloadsLocked: true, prepareStatus: 403, statusCard: false, keyCard: true });
    expect((await browser.get(new URL(open.prepared.download_url!).pathname)).status).toBe(403);
    expect(await me(token)).toMatchObject({ account_activated: false, has_early_access: false, early_access_expires_at: null });

    // After expiry a new key works again (keys cannot be stacked, but they can follow each other).
    const next = await newKey();
    expect((await redeem(browser, next.key)).status).toBe(200);
    expect(await me(token)).toMatchObject({ account_activated: true, has_early_access: true });
    expect(await keyRow(next.id)).toMatchObject({ isUsed: true, userId: id });
  });
});

// ---- Requests the routes refuse ---------------------------------------------------------------------

describe("requests the routes refuse", () => {
  it("refuses cross-site posts to /activate, with or without the user's cookies, and spends nothing", async () => {
    const { browser, id } = await member();
    const key = await newKey();
    const attempts: Response[] = [
      await browser.post("/activate", { key: key.key }, { Origin: "https://evil.example" }),
      await browser.post("/activate", { key: key.key }, { Origin: "null" }),
      await new Browser().post("/activate", { key: key.key }, { Origin: "https://evil.example" }),
      await SELF.fetch(`${ORIGIN}/activate`, {
        method: "POST",
        headers: { Cookie: browser.cookieHeader(), "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "cross-site" },
        body: new URLSearchParams({ key: key.key }),
      }),
    ];
    for (const response of attempts) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
    // React Router refuses a cross-site action itself (400); our layout's check answers 403.
    for (const response of attempts) expect([400, 403]).toContain(response.status);
    expect(await keyRow(key.id)).toMatchObject({ isUsed: false, userId: null });
    expect((await profileOf(id)).earlyAccessStatus).not.toBe("active");
    // Nothing was counted against the user either: the same key from our own page works.
    expect((await redeem(browser, key.key)).status).toBe(200);
  });

  it("answers a repeated key field, a huge body and a body that is not a form with 4xx, never 500, and spends nothing", async () => {
    const { browser, id } = await member();
    const key = await newKey();
    const post = (body: BodyInit, type: string, extra: Record<string, string> = {}) =>
      SELF.fetch(`${ORIGIN}/activate`, {
        method: "POST",
        headers: { Cookie: browser.cookieHeader(), Origin: ORIGIN, "CF-Connecting-IP": browser.ip, "Content-Type": type, ...extra },
        body,
      });
    const form = "application/x-www-form-urlencoded";

    const repeated = await post(`key=${key.key}&key=${key.key}`, form);
    expect(repeated.status).toBe(400);
    expect(visible(await repeated.text())).toContain(KM.invalidKey);

    const huge = await post(`key=${key.key}&pad=${"a".repeat(40 * 1024)}`, form);
    expect(huge.status).toBe(413);

    // The same without a declared length: the cap holds while the body streams in.
    const chunk = new TextEncoder().encode("a".repeat(8 * 1024));
    let sentChunks = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sentChunks === 0) controller.enqueue(new TextEncoder().encode(`key=${key.key}&pad=`));
        if (sentChunks++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const streamed = await post(stream, form);
    expect(streamed.status).toBe(413);

    const json = await post(JSON.stringify({ key: key.key }), "application/json");
    expect(json.status).toBe(415);
    const text = await post(`key=${key.key}`, "text/plain");
    expect(text.status).toBe(415);
    const brokenMultipart = await post("--nope\r\nnot multipart at all", "multipart/form-data; boundary=xyz");
    expect(brokenMultipart.status).toBe(400);
    const noType = await SELF.fetch(`${ORIGIN}/activate`, {
      method: "POST",
      headers: { Cookie: browser.cookieHeader(), Origin: ORIGIN },
      body: new Uint8Array([0xff, 0xfe, 0x00]),
    });
    expect(noType.status).toBeGreaterThanOrEqual(400);
    expect(noType.status).toBeLessThan(500);

    expect(await keyRow(key.id)).toMatchObject({ isUsed: false, userId: null });
    expect((await profileOf(id)).earlyAccessStatus).not.toBe("active");
    // None of these was a guess: the key still redeems.
    expect((await redeem(browser, key.key)).status).toBe(200);
  });

  it("answers cross-site, huge and non-form posts to the waitlist with 4xx and stores nothing", async () => {
    const email = uniqueEmail("refused");
    const fields = { email, firstName: "Ada", lastName: "Lovelace" };
    const crossSite = await new Browser().post("/early-access", fields, { Origin: "https://evil.example" });
    expect([400, 403]).toContain(crossSite.status);
    const huge = await new Browser().post("/early-access", { ...fields, company: "c".repeat(40 * 1024) });
    expect(huge.status).toBe(413);
    const json = await SELF.fetch(`${ORIGIN}/early-access`, {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "application/json", "CF-Connecting-IP": uniqueIp() },
      body: JSON.stringify(fields),
    });
    expect(json.status).toBe(415);
    const repeated = await SELF.fetch(`${ORIGIN}/early-access`, {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": uniqueIp() },
      body: `email=${encodeURIComponent(email)}&email=other%40example.com&firstName=Ada&lastName=Lovelace`,
    });
    expect(repeated.status).toBeGreaterThanOrEqual(400);
    expect(repeated.status).toBeLessThan(500);
    expect(await entriesFor(email)).toBe(0);
    expect(
      await db
        .select()
        .from(schema.waitlist)
        .where(and(like(schema.waitlist.email, "other@example.com"))),
    ).toHaveLength(0);
  });
});
