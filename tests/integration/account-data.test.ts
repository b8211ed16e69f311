// Issue 29: "Delete my account" and "Download my data", through the real Worker, queue, D1, R2,
// usage ledger and the Stripe stand-in.
import { createExecutionContext, createMessageBatch, createScheduledController, env, getQueueResult, SELF, waitOnExecutionContext } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { handlers } from "../worker";
import { accountPrefixes } from "~/lib/account/deletion.server";
import { DELETION_MESSAGES, EXPORT_MESSAGES } from "~/lib/account/messages";
import { type AccountData, EXPORTED_TABLES } from "~/lib/account/export-data.server";
import { buildExport, requestExport } from "~/lib/account/export.server";
import { DATA_EXPORT } from "~/lib/constants";
import { sha256Hex } from "~/lib/crypto";
import { schema } from "~/lib/db.server";
import { phoneCodeKey } from "~/lib/phone/codes.server";
import { Browser, createConfirmedUser, db, queueSettled, signedInAs, signUpAndConfirm, STRONG_PASSWORD, uniqueIp, waitFor, waitForMail } from "./helpers";
import { eventsFor, payCheckout, STANDIN, standin, deliver, waitProcessed } from "./stripe-helpers";
import { apiUser, postUsage, report, storedCount } from "./usage-helpers";

/** An account holding a record of every kind: subscription, device key, usage, pictures, archive, budget, downloads, support, waitlist, audit. */
async function fullAccount() {
  const account = await apiUser();
  const { browser, email, userId } = account;
  // A paid subscription through the stand-in's checkout.
  const checkout = await browser.post("/billing/checkout", {});
  expect(checkout.status).toBe(302);
  expect((await payCheckout(checkout.headers.get("Location")!)).status).toBe(303);
  const profile = await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, userId) });
  const events = await eventsFor(profile!.stripeCustomerId!);
  for (const event of events) await deliver(event);
  for (const event of events) await waitProcessed(event.id);
  const subscription = await db.query.subscriptions.findFirst({ where: eq(schema.subscriptions.userId, userId) });
  expect(subscription?.status).toMatch(/trial|active/);
  // Usage through the API (the device key), into the ledger and D1's rollup.
  expect((await postUsage(account.token, { reports: [report(), report()] })).status).toBeLessThan(300);
  await waitFor(async () => (await storedCount(userId)) >= 2, "usage rows");
  await waitFor(async () => (await db.select().from(schema.usageAccounts).where(eq(schema.usageAccounts.userId, userId))).length === 1, "usage account row");
  const now = Date.now();
  await db.batch([
    db.insert(schema.budgets).values({ userId, monthlyBudget: 20, dailyBudget: 2, alertThreshold: 80, notificationsEnabled: true }),
    db.insert(schema.downloadHistory).values({ id: crypto.randomUUID(), userId, platform: "windows", architecture: "x64" }),
    db.insert(schema.supportMessages).values({ id: crypto.randomUUID(), userId, name: "Ada", email, subject: "Help", message: "A question" }),
    db.insert(schema.waitlist).values({ id: crypto.randomUUID(), email, firstName: "Ada" }),
    db
      .insert(schema.auditLog)
      .values({ id: crypto.randomUUID(), actorUserId: null, targetUserId: userId, action: "test.note", details: { email, userId }, createdAt: now }),
  ]);
  await env.BUCKET.put(`${userId}/profile.png`, new Uint8Array([137, 80, 78, 71]));
  await env.BUCKET.put(`usage-archive/${userId}/2025-01.ndjson.gz`, new Uint8Array([1, 2, 3]));
  await env.KV.put(phoneCodeKey(userId), JSON.stringify({ id: "x" }));
  return { ...account, subscriptionId: subscription!.stripeSubscriptionId!, customerId: profile!.stripeCustomerId! };
}

type Column = { name: string; type: string };

/** Every table of D1 (the app's, not SQLite's or D1's own) and its columns, as the schema says now. */
async function schemaTables(): Promise<Array<{ name: string; columns: Column[]; refersToUsers: boolean }>> {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%'",
  ).all<{ name: string }>();
  return Promise.all(
    tables.results.map(async ({ name }) => {
      const columns = (await env.DB.prepare(`SELECT name, type FROM pragma_table_info(?)`).bind(name).all<Column>()).results;
      const keys = (await env.DB.prepare(`SELECT "table" AS target FROM pragma_foreign_key_list(?)`).bind(name).all<{ target: string }>()).results;
      return { name, columns, refersToUsers: name === "users" || keys.some((k) => k.target === "users") };
    }),
  );
}

async function postJson(browser: Browser, path: string) {
  return browser.post(path, {}, { Accept: "application/json" });
}

describe("delete my account", () => {
  it("refuses a wrong password and deletes nothing", async () => {
    const { browser, userId } = await apiUser();
    const page = await browser.get("/dashboard/profile/delete");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("There is no refund for the part of the month already paid.");
    expect(html).toContain("the security audit log, with your address replaced by a hash");
    const wrong = await browser.post("/dashboard/profile/delete", { password: "not-the-password" });
    expect(wrong.status).toBe(401);
    expect(await db.query.users.findFirst({ where: eq(schema.users.id, userId) })).toBeDefined();
    // Without an Origin of ours, the mutation is refused before it is read (React Router's own
    // check answers 400 on page actions, ours 403 elsewhere).
    const foreign = await browser.post("/dashboard/profile/delete", { password: STRONG_PASSWORD }, { Origin: "https://evil.example" });
    expect([400, 403]).toContain(foreign.status);
    const foreignExport = await browser.post("/dashboard/profile/export", {}, { Origin: "https://evil.example" });
    expect([400, 403]).toContain(foreignExport.status);
    expect(await db.query.dataExports.findFirst({ where: eq(schema.dataExports.userId, userId) })).toBeUndefined();
    expect(await db.query.users.findFirst({ where: eq(schema.users.id, userId) })).toBeDefined();
  });

  it("counts wrong passwords on the sign-in lockout: a burst of 20 gets at most its allowance checked, then even the right one waits", async () => {
    const { browser, userId } = await apiUser();
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => browser.post("/dashboard/profile/delete", { password: `Wrong-Password-${i}` })));
    const statuses = burst.map((r) => r.status);
    // The sign-in lockout checks at most 5 wrong passwords (the 5th locks); the rest are refused unread.
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(15);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    const right = await browser.post("/dashboard/profile/delete", { password: STRONG_PASSWORD });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await db.query.users.findFirst({ where: eq(schema.users.id, userId) })).toBeDefined();
  });

  it("deletes every row, object and credential of the account; the address can sign up again", async () => {
    const account = await fullAccount();
    const { browser, email, userId } = account;
    const tokens = await (
      await SELF.fetch("http://localhost/api/v1/auth/token", {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueIp() },
        body: JSON.stringify({ email, password: STRONG_PASSWORD }),
      })
    ).json<{ access_token: string; refresh_token: string }>();
    const oldCookies = new Browser();
    oldCookies.cookies = new Map(browser.cookies);
    // An export on record (the file in R2 under exports/<id>/), so its deletion is checked too.
    expect((await postJson(browser, "/dashboard/profile/export")).status).toBe(202);
    await waitFor(async () => (await db.query.dataExports.findFirst({ where: eq(schema.dataExports.userId, userId) }))?.status === "ready", "export ready");

    const deleted = await browser.post("/dashboard/profile/delete", { password: STRONG_PASSWORD });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("Location")).toBe("/?accountDeleted=1");
    await queueSettled();

    // D1: no table has a column holding the account's id, and none but the outbox holds its address.
    for (const table of await schemaTables()) {
      for (const column of table.columns) {
        const byId = await env.DB.prepare(`SELECT count(*) AS n FROM "${table.name}" WHERE CAST("${column.name}" AS TEXT) LIKE ?`)
          .bind(`%${userId}%`)
          .first<{ n: number }>();
        expect(byId!.n, `${table.name}.${column.name} holds the account's id`).toBe(0);
        if (table.name === "outbox") continue;
        const byEmail = await env.DB.prepare(`SELECT count(*) AS n FROM "${table.name}" WHERE CAST("${column.name}" AS TEXT) LIKE ?`)
          .bind(`%${email}%`)
          .first<{ n: number }>();
        expect(byEmail!.n, `${table.name}.${column.name} holds the address`).toBe(0);
      }
    }
    // The audit log keeps the account's entries with the address as a hash only.
    const audit = await db.select().from(schema.auditLog).where(eq(schema.auditLog.action, "test.note"));
    expect(audit.some((row) => String(row.details.subject).startsWith("sha256:"))).toBe(true);

    // R2: nothing under the account's prefixes; the ledger and KV are empty.
    for (const prefix of accountPrefixes(userId)) expect((await env.BUCKET.list({ prefix })).objects, prefix).toEqual([]);
    expect(await storedCount(userId)).toBe(0);
    expect(await env.KV.get(phoneCodeKey(userId))).toBeNull();

    // Every credential is dead: the old cookies, the device key and its refresh token.
    expect((await postJson(oldCookies, "/dashboard/profile/sessions")).status).toBe(401);
    expect((await oldCookies.get("/dashboard/profile")).headers.get("Location")).toBe("/auth");
    for (const token of [account.token, tokens.access_token]) {
      expect((await SELF.fetch("http://localhost/api/v1/me", { headers: { Authorization: `Bearer ${token}` } })).status).toBe(401);
    }
    const refresh = await SELF.fetch("http://localhost/api/v1/auth/refresh", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ refresh_token: tokens.refresh_token }),
    });
    expect(refresh.status).toBe(401);

    // Stripe: the subscription is cancelled at once; the customer (and its invoices) stay.
    const subscription = await standin<{ status: string }>(`/v1/subscriptions/${account.subscriptionId}`);
    expect(subscription.status).toBe("canceled");
    expect(STANDIN).toBeTruthy();

    await waitForMail(email, /Your Modelify account is deleted/);
    // The address signs up again, as a new account.
    const again = await signUpAndConfirm(email);
    const fresh = await db.query.users.findFirst({ where: eq(schema.users.email, email) });
    expect(fresh?.id).toBeDefined();
    expect(fresh!.id).not.toBe(userId);
    expect((await again.browser.get("/dashboard/profile")).status).toBe(200);
  });
});

describe("deletions at once", () => {
  it("a burst of deletions of one account: exactly one deletes it, the others are told it is under way", async () => {
    const { browser, email, userId } = await apiUser();
    // Five: the sign-in lockout's allowance, so every request's password is checked.
    const burst = await Promise.all(Array.from({ length: 5 }, () => browser.post("/dashboard/profile/delete", { password: STRONG_PASSWORD })));
    const deleted = burst.filter((r) => r.status === 302 && r.headers.get("Location") === "/?accountDeleted=1");
    expect(deleted).toHaveLength(1);
    const others = burst.filter((r) => !deleted.includes(r));
    const told = others.filter((r) => r.status === 409);
    expect(told.length).toBeGreaterThan(0);
    for (const answer of told) expect(await answer.text()).toContain(DELETION_MESSAGES.alreadyDeleting);
    // One that began after the deletion ended its session is sent to sign in.
    for (const answer of others.filter((r) => r.status !== 409)) expect(answer.headers.get("Location")).toBe("/auth");
    expect(await db.query.users.findFirst({ where: eq(schema.users.id, userId) })).toBeUndefined();

    // One deletion ran: one audit entry and one mail.
    await queueSettled();
    const subject = `sha256:${await sha256Hex(email)}`;
    const audit = await db.select().from(schema.auditLog).where(eq(schema.auditLog.action, "account.deleted"));
    expect(audit.filter((row) => row.details.subject === subject)).toHaveLength(1);
    const mails = await db.select().from(schema.outbox).where(eq(schema.outbox.to, email));
    expect(mails.filter((m) => /Your Modelify account is deleted/.test(m.subject))).toHaveLength(1);
  });
});

describe("download my data", () => {
  it("covers every table that refers to an account", async () => {
    const keyed = (await schemaTables()).filter((t) => t.refersToUsers).map((t) => t.name);
    for (const name of keyed) expect(EXPORTED_TABLES as readonly string[], `${name} is missing from the export`).toContain(name);
  });

  it("two requests at once make one job; the file holds a record of each kind, for its owner only, for a limited time", async () => {
    const account = await fullAccount();
    const { browser, userId } = account;
    const [a, b] = await Promise.all([postJson(browser, "/dashboard/profile/export"), postJson(browser, "/dashboard/profile/export")]);
    expect([a.status, b.status].sort()).toEqual([202, 429]);
    expect(Number([a, b].find((r) => r.status === 429)!.headers.get("Retry-After"))).toBeGreaterThan(0);
    await waitFor(async () => (await db.query.dataExports.findFirst({ where: eq(schema.dataExports.userId, userId) }))?.status === "ready", "export ready");
    const rows = await db.select().from(schema.dataExports).where(eq(schema.dataExports.userId, userId));
    expect(rows).toHaveLength(1);
    const id = rows[0]!.id;

    const profile = await (await browser.get("/dashboard/profile")).text();
    expect(profile).toContain(`/dashboard/profile/export/${id}`);
    const file = await browser.get(`/dashboard/profile/export/${id}`);
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Disposition")).toMatch(/attachment/);
    const data = await file.json<AccountData>();
    for (const kind of [
      "users",
      "user_profiles",
      "sessions",
      "subscriptions",
      "checkout_sessions",
      "usage_rollup",
      "usage_accounts",
      "download_history",
      "budgets",
      "waitlist",
      "support_messages",
      "audit_log",
      "data_exports",
    ] as const) {
      expect(data.tables[kind].length, kind).toBeGreaterThan(0);
    }
    expect(data.tables.sessions.some((s) => s.client === "desktop")).toBe(true);
    expect(data.usageReports.length).toBeGreaterThanOrEqual(2);
    expect(data.stripe.invoices.length).toBeGreaterThan(0);
    expect(data.stripe.subscriptions.length).toBeGreaterThan(0);
    // No secret travels in the file.
    const text = JSON.stringify(data);
    for (const secret of ["passwordHash", "refreshTokenHash", "securityAnswerHash", "security_answer_hash", "pbkdf2_sha256"])
      expect(text).not.toContain(secret);

    // Another account gets nothing; nor does anyone once the link has expired.
    const other = await apiUser();
    expect((await other.browser.get(`/dashboard/profile/export/${id}`)).status).toBe(404);
    expect((await new Browser().get(`/dashboard/profile/export/${id}`)).status).toBe(401);
    await db
      .update(schema.dataExports)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(schema.dataExports.id, id));
    expect((await browser.get(`/dashboard/profile/export/${id}`)).status).toBe(404);
  });
});

describe("an export's mail", () => {
  // Issue 46: the owner hears when the file is ready, at the account's own address, in our words,
  // with a link to the profile's "Your data" (behind their sign-in), never to the file.
  it("mails the account's own address once when the export is ready, linking to Your data and not to the file", async () => {
    const { browser, email, id: userId } = await createConfirmedUser();
    const asked = Date.now();
    expect((await postJson(browser, "/dashboard/profile/export")).status).toBe(202);
    const mail = await waitForMail(email, /Your Modelify data is ready/, { after: asked });
    const row = await db.query.dataExports.findFirst({ where: eq(schema.dataExports.userId, userId) });
    expect(row?.status).toBe("ready");
    expect(mail.links).toEqual(["http://localhost/dashboard/profile#your-data"]);
    expect(mail.text).toContain("http://localhost/dashboard/profile#your-data");
    expect(mail.text).not.toContain("/dashboard/profile/export");
    expect(mail.text).not.toContain(row!.id);
    expect(mail.text).toContain(`The download works for ${EXPORT_MESSAGES.linkLife}.`);
    // The status the profile asks for while it waits: the owner's exports only, nobody else's.
    const status = await browser.get("/dashboard/profile/export");
    expect(status.status).toBe(200);
    expect(status.headers.get("Cache-Control")).toMatch(/no-store/);
    expect((await status.json<{ exports: Array<{ id: string; status: string }> }>()).exports).toEqual([
      expect.objectContaining({ id: row!.id, status: "ready" }),
    ]);
    expect((await new Browser().get("/dashboard/profile/export")).status).toBe(401);
    const other = await createConfirmedUser();
    expect((await (await other.browser.get("/dashboard/profile/export")).json<{ exports: unknown[] }>()).exports).toEqual([]);

    // A redelivered job finds the export ready: no second mail.
    await buildExport(
      { db, bucket: env.BUCKET, ledgers: env.USAGE_LEDGER, env: env as never, queue: env.EVENTS },
      { type: "account.export", exportId: row!.id, userId },
    );
    await queueSettled();
    const mails = await db.select().from(schema.outbox).where(eq(schema.outbox.to, email));
    expect(mails.filter((m) => /Your Modelify data is ready/.test(m.subject))).toHaveLength(1);
  });
});

describe("an export holds the account's own data only", () => {
  it("an admin's export says what the admin did and when, never to whom: no other account's address or id; the other account's says nothing of the admin", async () => {
    const admin = await signedInAs("admin");
    const other = await createConfirmedUser();
    // The admin acts on the other account: a complimentary year, and early access for its address
    // on the waitlist. The audit log names the account and, in the early access's details, its address.
    expect((await admin.browser.post("/dashboard/admin", { intent: "grant-year", email: other.email, confirm: "yes" })).status).toBe(200);
    const waitlistId = crypto.randomUUID();
    await db.insert(schema.waitlist).values({ id: waitlistId, email: other.email, firstName: "Ada" });
    expect((await admin.browser.post("/dashboard/admin/early-access", { intent: "grant", waitlistId })).status).toBe(200);
    const logged = await db.select().from(schema.auditLog).where(eq(schema.auditLog.actorUserId, admin.id));
    expect(logged.map((row) => row.action).sort()).toEqual(["early_access.grant", "subscription.grant_year"]);
    expect(JSON.stringify(logged)).toContain(other.email);
    expect(JSON.stringify(logged)).toContain(other.id);

    const id = await readyExport(admin.browser, admin.id);
    const text = await (await admin.browser.get(`/dashboard/profile/export/${id}`)).text();
    expect(text).not.toContain(other.email);
    expect(text).not.toContain(other.id);
    const data = JSON.parse(text) as AccountData;
    expect(data.tables.audit_log.map((entry) => entry.action).sort()).toEqual(["early_access.grant", "subscription.grant_year"]);
    for (const entry of data.tables.audit_log) {
      expect(Object.keys(entry).sort()).toEqual(["action", "actorUserId", "createdAt", "id"]);
      expect(entry.actorUserId).toBe(admin.id);
    }

    // The account acted on sees what was done to it and its own details, not who did it.
    const theirs = await readyExport(other.browser, other.id);
    const theirText = await (await other.browser.get(`/dashboard/profile/export/${theirs}`)).text();
    const audit = (JSON.parse(theirText) as AccountData).tables.audit_log;
    expect(audit.map((entry) => entry.action)).toEqual(["subscription.grant_year"]);
    expect(audit[0]).toEqual({ id: expect.any(String), action: "subscription.grant_year", createdAt: expect.any(Number), targetUserId: other.id, details: {} });
    // Nowhere in their file: not in the granted subscription's row either.
    expect(theirText).not.toContain(admin.id);
    expect(theirText).not.toContain(admin.email);
  });
});

const exportRow = (id: string) => db.query.dataExports.findFirst({ where: eq(schema.dataExports.id, id) });
const exportKey = (userId: string, id: string) => `exports/${userId}/${id}.json`;

/** The account's one export, once the consumer has made it. */
async function readyExport(browser: Browser, userId: string): Promise<string> {
  expect((await postJson(browser, "/dashboard/profile/export")).status).toBe(202);
  let id = "";
  await waitFor(async () => {
    const row = await db.query.dataExports.findFirst({ where: and(eq(schema.dataExports.userId, userId), eq(schema.dataExports.status, "ready")) });
    id = row?.id ?? "";
    return id !== "";
  }, "export ready");
  return id;
}

async function hourlyCron(scheduledTime: number) {
  const ctx = createExecutionContext();
  await handlers.scheduled(createScheduledController({ cron: "0 * * * *", scheduledTime }), env, ctx);
  await waitOnExecutionContext(ctx);
}

/** An export message that used up its retries, handed to the consumer's dead-letter queue. */
async function deadLetterExport(exportId: string, userId: string) {
  const batch = createMessageBatch("modelify-events-dlq", [
    { id: `dlq-export-${exportId}`, timestamp: new Date(), attempts: 4, body: { type: "account.export", exportId, userId } },
  ]);
  const ctx = createExecutionContext();
  await handlers.queue(batch, env, ctx);
  return getQueueResult(batch, ctx);
}

describe("an export's end", () => {
  it("the hourly cron deletes expired files from R2, page after page, and marks their exports expired; live ones stay", async () => {
    const { browser, userId } = await apiUser();
    const id = await readyExport(browser, userId);
    const other = await apiUser();
    const live = await readyExport(other.browser, other.userId);
    expect(await env.BUCKET.head(exportKey(userId, id))).not.toBeNull();
    const now = Date.now();
    await db
      .update(schema.dataExports)
      .set({ expiresAt: now - 1 })
      .where(eq(schema.dataExports.id, id));
    // More expired exports than one page of the sweep (rows of a made-up past, in statements under D1's 100 parameters).
    const old = Array.from({ length: DATA_EXPORT.sweepPage + 5 }, () => ({
      id: crypto.randomUUID(),
      userId,
      status: "ready" as const,
      byteSize: 2,
      readyAt: now - DATA_EXPORT.linkTtlMs - 1000,
      expiresAt: now - 1000,
      createdAt: now - DATA_EXPORT.linkTtlMs - 2000,
    }));
    for (let i = 0; i < old.length; i += 10) await db.insert(schema.dataExports).values(old.slice(i, i + 10));
    await Promise.all(old.map((row) => env.BUCKET.put(exportKey(userId, row.id), "{}")));

    await hourlyCron(now);
    expect((await env.BUCKET.list({ prefix: `exports/${userId}/` })).objects).toEqual([]);
    const rows = await db.select().from(schema.dataExports).where(eq(schema.dataExports.userId, userId));
    expect(rows).toHaveLength(old.length + 1);
    expect(rows.every((row) => row.status === "expired")).toBe(true);
    expect(await env.BUCKET.head(exportKey(other.userId, live))).not.toBeNull();
    expect((await exportRow(live))?.status).toBe("ready");
    expect((await browser.get(`/dashboard/profile/export/${id}`)).status).toBe(404);
    expect(await (await browser.get("/dashboard/profile")).text()).toContain("link expired");
    expect((await other.browser.get(`/dashboard/profile/export/${live}`)).status).toBe(200);
  });

  it("a dead-lettered export ends failed, its half-written file goes, and the user may ask again at once; a late dead letter leaves a ready export alone", async () => {
    const { browser, userId } = await apiUser();
    // A job that never runs (a queue that drops it), so the dead letter finds its export pending.
    const dropped = { send: async () => {}, sendBatch: async () => {} } as unknown as Queue;
    const asked = await requestExport({ db, queue: dropped }, userId);
    if (!asked.ok) throw new Error("export refused");
    expect((await postJson(browser, "/dashboard/profile/export")).status).toBe(429);
    await env.BUCKET.put(exportKey(userId, asked.id), "{ half");

    const result = await deadLetterExport(asked.id, userId);
    expect(result.explicitAcks).toEqual([`dlq-export-${asked.id}`]);
    expect((await exportRow(asked.id))?.status).toBe("failed");
    expect(await env.BUCKET.head(exportKey(userId, asked.id))).toBeNull();
    expect(await db.query.deadLetters.findFirst({ where: eq(schema.deadLetters.id, `dlq-export-${asked.id}`) })).toBeTruthy();
    expect(await (await browser.get("/dashboard/profile")).text()).toContain("could not be prepared");

    const again = await readyExport(browser, userId);
    expect(again).not.toBe(asked.id);
    await deadLetterExport(again, userId);
    expect((await exportRow(again))?.status).toBe("ready");
    expect(await env.BUCKET.head(exportKey(userId, again))).not.toBeNull();
  });

  it("an export whose account is deleted while it is being made leaves no file", async () => {
    const { browser, id: userId } = await createConfirmedUser();
    // The job is run by hand below, so the queue's copy is dropped.
    const dropped = { send: async () => {}, sendBatch: async () => {} } as unknown as Queue;
    const asked = await requestExport({ db, queue: dropped }, userId);
    if (!asked.ok) throw new Error("export refused");
    // The owner deletes the account after the data was gathered and before the file lands: the
    // deletion empties exports/<userId>/ (nothing there yet) and takes the export's row with it.
    let deleted = 0;
    const bucket = {
      put: async (...args: Parameters<R2Bucket["put"]>) => {
        deleted = (await browser.post("/dashboard/profile/delete", { password: STRONG_PASSWORD })).status;
        return env.BUCKET.put(...args);
      },
      delete: (keys: string | string[]) => env.BUCKET.delete(keys),
    } as unknown as R2Bucket;

    await buildExport({ db, bucket, ledgers: env.USAGE_LEDGER, env: env as never, queue: dropped }, { type: "account.export", exportId: asked.id, userId });
    expect(deleted).toBe(302);
    expect(await db.query.users.findFirst({ where: eq(schema.users.id, userId) })).toBeUndefined();
    expect(await exportRow(asked.id)).toBeUndefined();
    expect((await env.BUCKET.list({ prefix: `exports/${userId}/` })).objects).toEqual([]);
  });

  it("the hourly cron deletes export files that have no export row, page after page, and keeps live exports' files and files being written", async () => {
    const { browser, userId } = await apiUser();
    const live = await readyExport(browser, userId);
    // Orphans: files of exports whose rows went (an account deleted after its export was marked
    // ready), more than one R2 listing's worth, and a file of no export's form.
    const orphans = [
      ...Array.from({ length: DATA_EXPORT.orphanListPage + 5 }, () => exportKey(crypto.randomUUID(), crypto.randomUUID())),
      "exports/stray.json",
    ];
    for (let i = 0; i < orphans.length; i += 100) await Promise.all(orphans.slice(i, i + 100).map((key) => env.BUCKET.put(key, "{}")));
    const settledAt = Math.max(...(await Promise.all(orphans.map(async (key) => (await env.BUCKET.head(key))!.uploaded.getTime()))));
    // A file written after them, whose build has not yet checked its row.
    await waitFor(() => Date.now() > settledAt, "the clock to move on");
    const fresh = exportKey(crypto.randomUUID(), crypto.randomUUID());
    await env.BUCKET.put(fresh, "{}");
    expect((await env.BUCKET.head(fresh))!.uploaded.getTime()).toBeGreaterThan(settledAt);

    // The cron runs when the last orphan has just become old enough to be swept, and the fresh file not yet.
    await hourlyCron(settledAt + DATA_EXPORT.orphanGraceMs);
    const left = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await env.BUCKET.list({ prefix: "exports/", cursor });
      for (const object of page.objects) left.add(object.key);
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
    expect(orphans.filter((key) => left.has(key))).toEqual([]);
    expect(left.has(exportKey(userId, live))).toBe(true);
    expect(left.has(fresh)).toBe(true);
    expect((await browser.get(`/dashboard/profile/export/${live}`)).status).toBe(200);

    // An hour on, the fresh file is old enough, and it has no row: it goes.
    await hourlyCron(settledAt + DATA_EXPORT.orphanGraceMs + 60 * 60 * 1000);
    expect(await env.BUCKET.head(fresh)).toBeNull();
    expect(await env.BUCKET.head(exportKey(userId, live))).not.toBeNull();
  });
});
