// The early-access administration: only admins reach it (page, actions, CSV); the lists are
// ordered, searchable and paged through the URL; granting makes one key and one mail even when
// two admins click at once; unassigned keys exist in plaintext only in the CSV answer; revoking;
// the statistics; bad input is a 4xx.
import { SELF } from "cloudflare:test";
import { and, count, eq, inArray, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureProfile } from "~/lib/profile/profile.server";
import { EARLY_ACCESS, MS } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { earlyAccessStats } from "~/lib/early-access/admin.server";
import { activationKeyHash, normaliseActivationKey } from "~/lib/early-access/keys";
import { createActivationKeys, redeemActivationKey } from "~/lib/early-access/keys.server";
import { Browser, db, insertUser, ORIGIN, queueSettled, signedInAs, uniqueEmail, waitForMail } from "./helpers";

const PAGE = "/dashboard/admin/early-access";
const CSV = "/dashboard/admin/early-access/keys.csv";
const KEY_FORMAT = /^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/;

let admin: Browser;
let adminId: string;
let member: Browser;
let redeemerId: string;

/** A user with a profile and no early access yet: an account redeems one key while its access lasts. */
async function newRedeemer() {
  const email = uniqueEmail("redeemer");
  const row = await insertUser({ email, passwordHash: "x", metadata: {}, confirmed: true });
  await ensureProfile(db, { id: row.id, email, createdAt: Date.now() });
  return row.id;
}

let seq = 0;
/** Waitlist rows written straight to D1 (the visitor's form is the other side of the programme). */
async function addEntries(entries: Array<{ priority?: number; company?: string; first?: string; last?: string; createdAt?: number; granted?: boolean }>) {
  const base = Date.now() - 60 * MS.MINUTE;
  const rows = entries.map((e, i) => ({
    id: crypto.randomUUID(),
    email: uniqueEmail(`wait${seq++}`),
    firstName: e.first ?? "Grace",
    lastName: e.last ?? "Hopper",
    company: e.company ?? null,
    priorityScore: e.priority ?? 0,
    earlyAccessGranted: e.granted ?? false,
    grantedAt: e.granted ? base : null,
    createdAt: e.createdAt ?? base + i * 1000,
  }));
  for (let i = 0; i < rows.length; i += 8) await db.insert(schema.waitlist).values(rows.slice(i, i + 8));
  return rows;
}

/** The rows of one of the page's tables (the hydration data repeats the e-mails elsewhere in the HTML). */
function table(html: string, testId: string): string {
  const start = html.indexOf(`data-testid="${testId}"`);
  expect(start).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf("</table>", start));
}
function order(html: string, emails: string[]): string[] {
  return emails.filter((e) => html.includes(e)).sort((a, b) => html.indexOf(a) - html.indexOf(b));
}

async function keysOf(waitlistId: string) {
  return db.select().from(schema.activationKeys).where(eq(schema.activationKeys.waitlistId, waitlistId));
}
async function outboxCount(to: string) {
  const [row] = await db.select({ n: count() }).from(schema.outbox).where(eq(schema.outbox.to, to));
  return row!.n;
}
function parseCsv(text: string) {
  const [header, ...rows] = text.trim().split("\r\n");
  return { header, rows: rows.map((r) => r.split(",") as [string, string]) };
}

beforeAll(async () => {
  const a = await signedInAs("admin");
  admin = a.browser;
  adminId = a.id;
  member = (await signedInAs("user")).browser;
  redeemerId = await newRedeemer();
});

describe("who reaches the early-access admin", () => {
  it("answers 404 to ordinary users on the page, every action and the CSV route; visitors go to sign-in", async () => {
    const [entry] = await addEntries([{}]);
    expect((await member.get(PAGE)).status).toBe(404);
    for (const fields of <Array<Record<string, string>>>[
      { intent: "grant", waitlistId: entry!.id },
      { intent: "grant-top", count: "1" },
      { intent: "revoke", keyId: crypto.randomUUID() },
    ]) {
      expect((await member.post(PAGE, fields)).status).toBe(404);
    }
    expect((await member.post(CSV, { count: "3" })).status).toBe(404);
    expect((await member.get(CSV)).status).toBe(404);
    // Nothing was written by any of them.
    expect(await keysOf(entry!.id)).toHaveLength(0);
    expect((await db.query.waitlist.findFirst({ where: eq(schema.waitlist.id, entry!.id) }))!.earlyAccessGranted).toBe(false);

    const visitor = new Browser();
    for (const response of [await visitor.get(PAGE), await visitor.post(PAGE, { intent: "grant-top", count: "1" }), await visitor.post(CSV, { count: "1" })]) {
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toMatch(/^\/auth/);
    }
  });

  it("shows the Early Access tab to admins only", async () => {
    expect(await (await admin.get("/dashboard")).text()).toContain(`href="${PAGE}"`);
    expect(await (await member.get("/dashboard")).text()).not.toContain(`href="${PAGE}"`);
  });

  it("refuses posts from other sites", async () => {
    const [entry] = await addEntries([{}]);
    const crossSite = await admin.post(PAGE, { intent: "grant", waitlistId: entry!.id }, { Origin: "https://evil.example" });
    expect([400, 403]).toContain(crossSite.status);
    const csv = await admin.post(CSV, { count: "2" }, { Origin: "https://evil.example" });
    expect(csv.status).toBe(403);
    expect(await keysOf(entry!.id)).toHaveLength(0);
  });
});

describe("the lists", () => {
  it("orders waiting entries by priority then age, and all entries newest first", async () => {
    const tag = `Order${Date.now()}`;
    const t = Date.now() - 10 * MS.MINUTE;
    const rows = await addEntries([
      { company: tag, priority: 5, createdAt: t },
      { company: tag, priority: 9, createdAt: t + 2000 },
      { company: tag, priority: 9, createdAt: t + 1000 },
      { company: tag, priority: 1, createdAt: t + 3000 },
      { company: tag, priority: 100, createdAt: t + 4000, granted: true },
    ]);
    const emails = rows.map((r) => r.email);
    const waiting = table(await (await admin.get(`${PAGE}?q=${tag}`)).text(), "waitlist-table");
    expect(order(waiting, emails)).toEqual([emails[2], emails[1], emails[0], emails[3]]);
    expect(waiting.match(/>Grant early access</g)).toHaveLength(4);

    const all = table(await (await admin.get(`${PAGE}?view=all&q=${tag}`)).text(), "waitlist-table");
    expect(order(all, emails)).toEqual([emails[4], emails[3], emails[1], emails[2], emails[0]]);
    expect(all).toContain("Granted");
  });

  it("searches by e-mail, full name and company, with % and _ taken literally", async () => {
    const tag = `srch${Date.now()}`;
    const [a, b, c] = await addEntries([{ first: "Katherine", last: `Johnson${tag}` }, { company: `Acme_${tag}` }, { company: `Acme%${tag}` }]);
    const find = async (q: string) => table(await (await admin.get(`${PAGE}?view=all&q=${encodeURIComponent(q)}`)).text(), "waitlist-table");
    const byName = await find(`Katherine Johnson${tag}`);
    expect(byName).toContain(a!.email);
    expect(byName).not.toContain(b!.email);
    expect(await find(a!.email.toUpperCase().slice(0, 20))).toContain(a!.email);
    const underscore = await find(`Acme_${tag}`);
    expect(underscore).toContain(b!.email);
    expect(underscore).not.toContain(c!.email);
    expect(await find(`%${tag}`)).toContain(c!.email);
    expect(await find(`%${tag}`)).not.toContain(b!.email);
  });

  it("pages through the list in the URL, and reads garbage in the address as the first page", async () => {
    const tag = `Page${Date.now()}`;
    const t = Date.now() - 20 * MS.MINUTE;
    const rows = await addEntries(Array.from({ length: EARLY_ACCESS.pageSize + 3 }, (_, i) => ({ company: tag, priority: 7, createdAt: t + i * 1000 })));
    const emails = rows.map((r) => r.email);
    const first = await (await admin.get(`${PAGE}?q=${tag}`)).text();
    expect(order(table(first, "waitlist-table"), emails)).toEqual(emails.slice(0, EARLY_ACCESS.pageSize));
    expect(first).toContain(`Page 1 of 2`);
    expect(first).toContain(`${PAGE}?q=${tag}&amp;page=2`);
    const second = await (await admin.get(`${PAGE}?q=${tag}&page=2`)).text();
    expect(order(table(second, "waitlist-table"), emails)).toEqual(emails.slice(EARLY_ACCESS.pageSize));
    // Past the end: the last page. Garbage: the first.
    expect(order(table(await (await admin.get(`${PAGE}?q=${tag}&page=99`)).text(), "waitlist-table"), emails)).toEqual(emails.slice(EARLY_ACCESS.pageSize));
    for (const query of ["page=-1", "page=abc", "view=evil&kstate=nope&kpage=1e99", `q=${"x".repeat(500)}`]) {
      expect((await admin.get(`${PAGE}?${query}`)).status).toBe(200);
    }
  });

  it("lists keys newest first with their state, who used them and when, masked; searchable by last 4 and e-mail", async () => {
    const now = Date.now();
    const sentTo = uniqueEmail("sent");
    const [unused] = await createActivationKeys(db, { count: 1, createdBy: adminId, sentTo }, now - 3000);
    const [used] = await createActivationKeys(db, { count: 1, createdBy: adminId }, now - 2000);
    const [expired] = await createActivationKeys(db, { count: 1, createdBy: adminId, validityDays: 1 }, now - 2 * MS.DAY);
    const [revoked] = await createActivationKeys(db, { count: 1, createdBy: adminId }, now - 1000);
    const redeemer = await db.query.users.findFirst({ where: eq(schema.users.id, redeemerId) });
    expect((await redeemActivationKey(db, redeemerId, used!.key)).ok).toBe(true);
    expect((await admin.post(PAGE, { intent: "revoke", keyId: revoked!.id })).status).toBe(200);

    const html = await (await admin.get(PAGE)).text();
    const keys = table(html, "keys-table");
    for (const k of [unused, used, expired, revoked]) {
      expect(keys).not.toContain(k!.key);
      expect(html).not.toContain(k!.key);
    }
    const positions = [revoked, used, unused].map((k) => keys.indexOf(`••••-••••-••••-${k!.key.slice(-4)}`));
    expect(positions.every((p) => p > -1)).toBe(true);
    expect([...positions].sort((x, y) => x - y)).toEqual(positions);

    const search = async (q: string, state = "all") =>
      table(await (await admin.get(`${PAGE}?kq=${encodeURIComponent(q)}&kstate=${state}`)).text(), "keys-table");
    const byLast4 = await search(`••••-${used!.key.slice(-4).toLowerCase()}`);
    expect(byLast4).toContain(`••••-••••-••••-${used!.key.slice(-4)}`);
    expect(byLast4).toContain(">used<");
    expect(byLast4).toContain(redeemer!.email);
    expect(await search(sentTo)).toContain(`••••-••••-••••-${unused!.key.slice(-4)}`);
    expect(await search(redeemer!.email)).toContain(`••••-••••-••••-${used!.key.slice(-4)}`);
    const expiredOnly = await search("", "expired");
    expect(expiredOnly).toContain(`••••-••••-••••-${expired!.key.slice(-4)}`);
    expect(expiredOnly).not.toContain(">unused<");
    expect(expiredOnly).not.toContain(">Revoke<");
    const revokedOnly = await search("", "revoked");
    expect(revokedOnly).toContain(`••••-••••-••••-${revoked!.key.slice(-4)}`);
    expect(revokedOnly).not.toContain(">used<");
  });
});

describe("granting early access", () => {
  it("creates one key, marks the entry granted, mails a working link and writes the audit log", async () => {
    const [entry] = await addEntries([{ first: "Ada" }]);
    const before = Date.now();
    const response = await admin.post(PAGE, { intent: "grant", waitlistId: entry!.id });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(`the key was e-mailed to ${entry!.email}`);

    const row = await db.query.waitlist.findFirst({ where: eq(schema.waitlist.id, entry!.id) });
    expect(row!.earlyAccessGranted).toBe(true);
    expect(row!.grantedAt).toBeGreaterThanOrEqual(before);
    const keys = await keysOf(entry!.id);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ sentTo: entry!.email, createdBy: adminId, isUsed: false });

    const mail = await waitForMail(entry!.email, /early access/i);
    expect(mail.subject).toBe("Your Modelify early access key");
    const link = new URL(mail.links[0]!);
    expect(`${link.origin}${link.pathname}`).toBe(`${ORIGIN}/activate`);
    const formatted = link.searchParams.get("key")!;
    expect(formatted).toMatch(KEY_FORMAT);
    expect(mail.text).toContain(formatted);
    expect(mail.text).toContain("Hi,"); // never the name typed into the waitlist (mail-relay.test.ts)
    // The key in the mail is the stored one: its hash is the row's, and it redeems.
    const key = normaliseActivationKey(formatted)!;
    expect(await activationKeyHash(key)).toBe(keys[0]!.codeHash);
    expect(await redeemActivationKey(db, await newRedeemer(), key)).toMatchObject({ ok: true });

    const audit = await db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.actorUserId, adminId), eq(schema.auditLog.action, "early_access.grant"), like(schema.auditLog.details, `%${entry!.id}%`)));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toMatchObject({ waitlistId: entry!.id, email: entry!.email, keyId: keys[0]!.id });
    expect(JSON.stringify(audit[0]!.details)).not.toContain(key);

    // Granting again: refused, nothing new.
    expect((await admin.post(PAGE, { intent: "grant", waitlistId: entry!.id })).status).toBe(409);
    expect(await keysOf(entry!.id)).toHaveLength(1);
  });

  it("makes one key and one mail when admins grant the same entry at once", async () => {
    const [entry] = await addEntries([{}]);
    const other = (await signedInAs("admin")).browser;
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? admin : other).post(PAGE, { intent: "grant", waitlistId: entry!.id })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
    expect(await keysOf(entry!.id)).toHaveLength(1);
    await waitForMail(entry!.email, /early access/i);
    await queueSettled();
    expect(await outboxCount(entry!.email)).toBe(1);
    const [audits] = await db
      .select({ n: count() })
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.action, "early_access.grant"), like(schema.auditLog.details, `%${entry!.id}%`)));
    expect(audits!.n).toBe(1);
  });

  it("grants the top N waiting entries by priority, with one audit row for the batch", async () => {
    // Far above every other test's priorities, so these are the top of the whole list.
    const top = 10_000_000 + (Date.now() % 1_000_000) * 10;
    const t = Date.now() - 5 * MS.MINUTE;
    const rows = await addEntries([
      { priority: top + 1, createdAt: t },
      { priority: top + 3, createdAt: t + 1000 },
      { priority: top + 2, createdAt: t + 2000 },
      { priority: top + 2, createdAt: t + 3000 },
      { priority: top + 5, createdAt: t + 4000, granted: true },
    ]);
    const response = await admin.post(PAGE, { intent: "grant-top", count: "3" });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Early access granted to 3");
    const picked = [rows[1]!, rows[2]!, rows[3]!];
    for (const entry of picked) {
      expect((await db.query.waitlist.findFirst({ where: eq(schema.waitlist.id, entry.id) }))!.earlyAccessGranted).toBe(true);
      const keys = await keysOf(entry.id);
      expect(keys).toHaveLength(1);
      expect(keys[0]!.sentTo).toBe(entry.email);
      const mail = await waitForMail(entry.email, /early access/i);
      const key = normaliseActivationKey(new URL(mail.links[0]!).searchParams.get("key")!)!;
      expect(await activationKeyHash(key)).toBe(keys[0]!.codeHash);
    }
    expect((await db.query.waitlist.findFirst({ where: eq(schema.waitlist.id, rows[0]!.id) }))!.earlyAccessGranted).toBe(false);
    expect(await keysOf(rows[0]!.id)).toHaveLength(0);
    expect(await keysOf(rows[4]!.id)).toHaveLength(0);

    const audit = await db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.action, "early_access.grant_bulk"), like(schema.auditLog.details, `%${rows[1]!.id}%`)));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorUserId: adminId, details: { requested: 3, granted: 3 } });
    expect(new Set(audit[0]!.details.waitlistIds as string[])).toEqual(new Set(picked.map((p) => p.id)));
  });

  it("never grants one entry twice when bulk grants run in parallel", async () => {
    const top = 20_000_000 + (Date.now() % 1_000_000) * 10;
    const rows = await addEntries(Array.from({ length: 4 }, (_, i) => ({ priority: top + i })));
    const answers = await Promise.all(Array.from({ length: 4 }, () => admin.post(PAGE, { intent: "grant-top", count: "2" })));
    for (const a of answers) expect([200, 409]).toContain(a.status);
    const keys = await db
      .select()
      .from(schema.activationKeys)
      .where(
        inArray(
          schema.activationKeys.waitlistId,
          rows.map((r) => r.id),
        ),
      );
    expect(keys).toHaveLength(4);
    expect(new Set(keys.map((k) => k.waitlistId)).size).toBe(4);
  });
});

describe("unassigned keys and revoking", () => {
  it("answers the CSV of N new keys that redeem; no plaintext key is stored anywhere", async () => {
    const response = await admin.post(CSV, { count: "7" });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/csv/);
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="modelify-early-access-keys-.+\.csv"$/);
    expect(response.headers.get("Cache-Control")).toContain("no-store");
    const { header, rows } = parseCsv(await response.text());
    expect(header).toBe("key,expires_at");
    expect(rows).toHaveLength(7);
    const formatted = rows.map(([key]) => key);
    for (const [key, expires] of rows) {
      expect(key).toMatch(KEY_FORMAT);
      expect(Date.parse(expires) - Date.now()).toBeGreaterThan(EARLY_ACCESS.keyValidityMs - MS.MINUTE);
    }
    expect(new Set(formatted).size).toBe(7);

    const compact = formatted.map((k) => normaliseActivationKey(k)!);
    const stored = await db.select().from(schema.activationKeys);
    const dump = JSON.stringify(stored) + JSON.stringify(await db.select().from(schema.auditLog));
    for (const key of [...compact, ...formatted]) expect(dump).not.toContain(key);
    const hashes = await Promise.all(compact.map((k) => activationKeyHash(k)));
    const mine = stored.filter((r) => hashes.includes(r.codeHash));
    expect(mine).toHaveLength(7);
    for (const row of mine) expect(row).toMatchObject({ createdBy: adminId, waitlistId: null, sentTo: null, isUsed: false });
    const audit = await db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.action, "early_access.keys_create"), like(schema.auditLog.details, `%${mine[0]!.id}%`)));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorUserId: adminId, details: { count: 7 } });

    for (const key of compact) expect(await redeemActivationKey(db, await newRedeemer(), key)).toMatchObject({ ok: true });
  });

  it("revokes an unused key (redeeming it then fails as revoked); a used key cannot be revoked", async () => {
    const [fresh, spent] = await createActivationKeys(db, { count: 2, createdBy: adminId });
    const revoked = await admin.post(PAGE, { intent: "revoke", keyId: fresh!.id });
    expect(revoked.status).toBe(200);
    expect(await revoked.text()).toContain(`Key ending ${fresh!.key.slice(-4)} revoked.`);
    expect(await redeemActivationKey(db, await newRedeemer(), fresh!.key)).toEqual({ ok: false, reason: "revoked" });
    expect((await db.query.activationKeys.findFirst({ where: eq(schema.activationKeys.id, fresh!.id) }))!.revokedBy).toBe(adminId);
    const [audit] = await db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.action, "early_access.key_revoke"), like(schema.auditLog.details, `%${fresh!.id}%`)));
    expect(audit).toMatchObject({ actorUserId: adminId });
    expect((await admin.post(PAGE, { intent: "revoke", keyId: fresh!.id })).status).toBe(409);

    expect((await redeemActivationKey(db, await newRedeemer(), spent!.key)).ok).toBe(true);
    const refused = await admin.post(PAGE, { intent: "revoke", keyId: spent!.id });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("A used key cannot be revoked.");
    expect((await db.query.activationKeys.findFirst({ where: eq(schema.activationKeys.id, spent!.id) }))!.revokedAt).toBeNull();
  });
});

describe("statistics", () => {
  it("count the waitlist, grants and keys by state, the redemption rate and activations per week", async () => {
    const before = await earlyAccessStats(db);
    const [first, second] = await addEntries([{}, {}, {}]);
    expect((await admin.post(PAGE, { intent: "grant", waitlistId: first!.id })).status).toBe(200);
    expect((await admin.post(PAGE, { intent: "grant", waitlistId: second!.id })).status).toBe(200);
    const { rows } = parseCsv(await (await admin.post(CSV, { count: "4" })).text());
    const [a, b, c] = rows.map(([key]) => normaliseActivationKey(key)!);
    expect((await redeemActivationKey(db, await newRedeemer(), a!)).ok).toBe(true);
    expect((await redeemActivationKey(db, await newRedeemer(), b!)).ok).toBe(true);
    // One of the two redeemed a week ago: it belongs to the previous ISO week's bar.
    await db
      .update(schema.activationKeys)
      .set({ usedAt: Date.now() - 7 * MS.DAY })
      .where(eq(schema.activationKeys.codeHash, await activationKeyHash(b!)));
    const cRow = await db.query.activationKeys.findFirst({ where: eq(schema.activationKeys.codeHash, await activationKeyHash(c!)) });
    expect((await admin.post(PAGE, { intent: "revoke", keyId: cRow!.id })).status).toBe(200);
    await createActivationKeys(db, { count: 1, createdBy: adminId, validityDays: 1 }, Date.now() - 2 * MS.DAY);

    const after = await earlyAccessStats(db);
    expect(after.waitlistSize - before.waitlistSize).toBe(3);
    expect(after.granted - before.granted).toBe(2);
    expect(after.keysCreated - before.keysCreated).toBe(7);
    expect(after.keysUsed - before.keysUsed).toBe(2);
    expect(after.keysRevoked - before.keysRevoked).toBe(1);
    expect(after.keysExpired - before.keysExpired).toBe(1);
    expect(after.redemptionRate).toBe(Math.round((after.keysUsed / after.keysCreated) * 1000) / 10);
    expect(after.activationsPerWeek).toHaveLength(8);
    const weeks = after.activationsPerWeek.map((w, i) => w.count - before.activationsPerWeek[i]!.count);
    expect(weeks).toEqual([0, 0, 0, 0, 0, 0, 1, 1]);
    for (const w of after.activationsPerWeek) expect(new Date(w.weekStart).getUTCDay()).toBe(1);

    // The page shows the same numbers and the chart.
    const html = await (await admin.get(PAGE)).text();
    expect(html).toContain(`data-testid="stat-waitlist">${after.waitlistSize}<`);
    expect(html).toContain(`data-testid="stat-used">${after.keysUsed}<`);
    expect(html).toContain(`data-testid="stat-rate">${after.redemptionRate}%<`);
    expect(html).toContain('aria-label="Activation keys redeemed per week"');
  });
});

describe("bad input", () => {
  it("answers 4xx, never 500, and writes nothing", async () => {
    const [entry] = await addEntries([{}]);
    const keysBefore = (await db.select({ n: count() }).from(schema.activationKeys))[0]!.n;
    const cases: Array<[Record<string, string>, number]> = [
      [{ intent: "grant-top", count: "0" }, 400],
      [{ intent: "grant-top", count: String(EARLY_ACCESS.bulkMax + 1) }, 400],
      [{ intent: "grant-top", count: "abc" }, 400],
      [{ intent: "grant-top", count: "2.5" }, 400],
      [{ intent: "grant-top" }, 400],
      [{ intent: "grant", waitlistId: crypto.randomUUID() }, 404],
      [{ intent: "grant", waitlistId: "" }, 400],
      [{ intent: "grant", waitlistId: "x".repeat(500) }, 400],
      [{ intent: "revoke", keyId: crypto.randomUUID() }, 404],
      [{ intent: "revoke", keyId: "'; DROP TABLE activation_keys; --" }, 404],
      [{ intent: "delete-everything" }, 400],
      [{}, 400],
    ];
    for (const [fields, status] of cases) {
      const response = await admin.post(PAGE, fields);
      expect(response.status, JSON.stringify(fields)).toBe(status);
    }
    for (const count of ["0", String(EARLY_ACCESS.bulkMax + 1), "x", "-3", ""]) {
      const response = await admin.post(CSV, { count });
      expect(response.status, count).toBe(400);
      expect(response.headers.get("Content-Disposition")).toBeNull();
    }
    const json = await SELF.fetch(`${ORIGIN}${CSV}`, {
      method: "POST",
      headers: { Cookie: admin.cookieHeader(), Origin: ORIGIN, "Content-Type": "application/json" },
      body: JSON.stringify({ count: 3 }),
    });
    expect(json.status).toBe(415);
    expect((await admin.get(CSV)).status).toBe(405);
    expect((await db.select({ n: count() }).from(schema.activationKeys))[0]!.n).toBe(keysBefore);
    expect((await db.query.waitlist.findFirst({ where: eq(schema.waitlist.id, entry!.id) }))!.earlyAccessGranted).toBe(false);
  });
});
