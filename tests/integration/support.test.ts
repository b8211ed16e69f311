// Contact Support, the domain half: a message is stored, mailed to the support mailbox (replies
// to the sender) and acknowledged to the sender; bursts per sender address and per client address
// are capped atomically; admins close a message once, audited.
import { env } from "cloudflare:test";
import { and, count, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SUPPORT } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { closeSupportMessage, listSupportMessages, sendSupportMessage } from "~/lib/support/support.server";
import { supportMessageSchema } from "~/lib/support/validation";
import { SUPPORT_MESSAGES as M } from "~/lib/support/messages";
import { Browser, db, insertUser, signedInAs, uniqueEmail, uniqueIp, waitForMail } from "./helpers";

const INBOX = `support-${Date.now().toString(36)}@example.com`;
const deps = (ip: string | null = uniqueIp()) => ({ db, queue: env.EVENTS, origin: "http://localhost", ip, inbox: INBOX });
const form = (overrides: Record<string, unknown> = {}) =>
  supportMessageSchema.parse({ name: "Ada Lovelace", email: uniqueEmail("asker"), subject: "Cannot add my key", message: "Line one\nLine two", ...overrides });

describe("sending a support message", () => {
  it("stores it, mails the support mailbox and acknowledges the sender", async () => {
    const sent = form({ priority: "high" });
    const result = await sendSupportMessage(deps(), sent, null);
    expect(result.ok).toBe(true);
    const row = await db.query.supportMessages.findFirst({ where: eq(schema.supportMessages.email, sent.email) });
    expect(row).toMatchObject({
      name: "Ada Lovelace",
      subject: "Cannot add my key",
      message: "Line one\nLine two",
      priority: "high",
      status: "open",
      userId: null,
    });

    const inbox = await waitForMail(INBOX, /Cannot add my key/);
    expect(inbox.subject).toBe("[Support · high] Cannot add my key");
    expect(inbox.text).toContain(`From: Ada Lovelace <${sent.email}>`);
    expect(inbox.links[0]).toBe(`http://localhost/dashboard/admin/support?message=${row!.id}`);
    // Nobody proved the typed address: the acknowledgement is our fixed text (mail-relay.test.ts).
    const ack = await waitForMail(sent.email, /We received your message/);
    expect(ack.subject).toBe("We received your message");
    expect(ack.text).toContain(`within ${SUPPORT.responseHours} hours`);
    expect(ack.text).not.toContain("Line two");
  });

  it("records the signed-in sender's account", async () => {
    const user = await insertUser({ email: uniqueEmail("member"), passwordHash: "x", metadata: {}, confirmed: true });
    const result = await sendSupportMessage(deps(), form({ email: user.email }), { id: user.id, email: user.email });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect((await db.query.supportMessages.findFirst({ where: eq(schema.supportMessages.id, result.id) }))!.userId).toBe(user.id);
    // Their own confirmed address: the copy may quote them.
    expect((await waitForMail(user.email, /We received your message: Cannot add my key/)).text).toContain("> Line two");
  });

  it("takes at most 3 messages an hour from one sender address, even all at once", async () => {
    const email = uniqueEmail("burst");
    const results = await Promise.all(Array.from({ length: 8 }, () => sendSupportMessage(deps(), form({ email }), null)));
    expect(results.filter((r) => r.ok)).toHaveLength(SUPPORT.perAddress.limit);
    const refused = results.find((r) => !r.ok);
    expect(refused).toMatchObject({ ok: false, status: 429 });
    const [stored] = await db.select({ n: count() }).from(schema.supportMessages).where(eq(schema.supportMessages.email, email));
    expect(stored!.n).toBe(SUPPORT.perAddress.limit);
  });

  it("takes at most 5 messages an hour from one client address", async () => {
    const ip = uniqueIp();
    const emails = Array.from({ length: 9 }, () => uniqueEmail("office"));
    const results = await Promise.all(emails.map((email) => sendSupportMessage(deps(ip), form({ email }), null)));
    expect(results.filter((r) => r.ok)).toHaveLength(SUPPORT.perIp.limit);
    const [stored] = await db.select({ n: count() }).from(schema.supportMessages).where(inArray(schema.supportMessages.email, emails));
    expect(stored!.n).toBe(SUPPORT.perIp.limit);
  });
});

describe("the form's rules", () => {
  it("requires name, e-mail, subject and message, defaults the priority to medium and bounds lengths", () => {
    const empty = supportMessageSchema.safeParse({ name: " ", email: "", subject: "", message: "" });
    const issues = Object.fromEntries((empty.error?.issues ?? []).map((i) => [i.path.join("."), i.message]));
    expect(issues).toEqual({ name: M.nameRequired, email: M.emailRequired, subject: M.subjectRequired, message: M.messageRequired });
    expect(supportMessageSchema.parse({ name: "A", email: "A@B.CO", subject: "S", message: "M" })).toMatchObject({ email: "a@b.co", priority: "medium" });
    expect(supportMessageSchema.safeParse({ name: "A", email: "a@b.co", subject: "S", message: "x".repeat(SUPPORT.messageMax + 1) }).success).toBe(false);
    expect(supportMessageSchema.safeParse({ name: "A", email: "a@b.co", subject: "S\nBcc: x", message: "M" }).success).toBe(false);
    expect(supportMessageSchema.safeParse({ name: "A", email: "a@b.co", subject: "S", message: "M", priority: "urgent" }).success).toBe(false);
  });
});

describe("closing a message", () => {
  it("closes an open message once, with one audit row, and lists it among the closed", async () => {
    const admin = await insertUser({ email: uniqueEmail("admin"), passwordHash: "x", metadata: {}, role: "admin", confirmed: true });
    const result = await sendSupportMessage(deps(), form(), null);
    if (!result.ok) throw new Error("not sent");
    expect((await listSupportMessages(db, "open")).some((m) => m.id === result.id)).toBe(true);
    const closes = await Promise.all([
      closeSupportMessage(db, { id: result.id, adminId: admin.id }),
      closeSupportMessage(db, { id: result.id, adminId: admin.id }, Date.now() + 1),
    ]);
    expect(closes.filter(Boolean)).toHaveLength(1);
    expect(await closeSupportMessage(db, { id: "no-such-message", adminId: admin.id })).toBe(false);
    expect((await listSupportMessages(db, "closed")).some((m) => m.id === result.id)).toBe(true);
    const audit = await db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.action, "support.close"), eq(schema.auditLog.actorUserId, admin.id)));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toEqual({ messageId: result.id });
  });
});

describe("POST /contact", () => {
  const post = (browser: Browser, fields: Record<string, string>) =>
    browser.post("/contact", { name: "Grace Hopper", email: uniqueEmail("page"), subject: "Billing question", message: "Hello", priority: "low", ...fields });

  it("sends a valid message and shows the confirmation; without the honeypot field too", async () => {
    const email = uniqueEmail("page");
    const response = await post(new Browser(), { email });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(M.sent.replace("'", "&#x27;"));
    expect(await db.query.supportMessages.findFirst({ where: eq(schema.supportMessages.email, email) })).toMatchObject({ priority: "low", status: "open" });
  });

  it("shows each missing field's message with 400 and stores nothing", async () => {
    const email = uniqueEmail("missing");
    const response = await post(new Browser(), { email, name: "", subject: "", message: " " });
    expect(response.status).toBe(400);
    const html = await response.text();
    for (const message of [M.nameRequired, M.subjectRequired, M.messageRequired]) expect(html).toContain(message);
    expect(await db.query.supportMessages.findFirst({ where: eq(schema.supportMessages.email, email) })).toBeUndefined();
  });

  it("tells a bot it worked and stores nothing; refuses a cross-site post", async () => {
    const bot = uniqueEmail("bot");
    const fooled = await post(new Browser(), { email: bot, website: "http://spam.example" });
    expect(fooled.status).toBe(200);
    const crossSite = await new Browser().post("/contact", { name: "A", email: bot, subject: "S", message: "M" }, { Origin: "https://evil.example" });
    expect(crossSite.status).toBeGreaterThanOrEqual(400);
    expect(crossSite.status).toBeLessThan(500);
    expect(await db.query.supportMessages.findFirst({ where: eq(schema.supportMessages.email, bot) })).toBeUndefined();
  });

  it("answers the cap with 429, its message and Retry-After", async () => {
    const email = uniqueEmail("capped");
    const answers = [];
    for (let i = 0; i <= SUPPORT.perAddress.limit; i++) answers.push(await post(new Browser(), { email }));
    const last = answers.at(-1)!;
    expect(last.status).toBe(429);
    expect(Number(last.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await last.text()).toContain(M.tooMany.replaceAll("'", "&#x27;"));
  });
});

describe("the admin's Support tab", () => {
  it("lists open messages to admins only, and an admin closes one once", async () => {
    const [admin, user] = [(await signedInAs("admin")).browser, (await signedInAs("user")).browser];
    const sent = await sendSupportMessage(deps(), form({ subject: "Admin tab test" }), null);
    if (!sent.ok) throw new Error("not sent");
    expect((await user.get("/dashboard/admin/support")).status).toBe(404);
    expect((await user.post("/dashboard/admin/support", { intent: "close", id: sent.id })).status).toBe(404);
    expect((await new Browser().get("/dashboard/admin/support")).status).toBe(302);

    const page = await admin.get(`/dashboard/admin/support?message=${sent.id}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Admin tab test");
    expect((await admin.post("/dashboard/admin/support", { intent: "close", id: sent.id })).status).toBe(200);
    expect((await admin.post("/dashboard/admin/support", { intent: "close", id: sent.id })).status).toBe(409);
    expect((await admin.post("/dashboard/admin/support", { intent: "close" })).status).toBe(400);
    expect(await db.query.supportMessages.findFirst({ where: eq(schema.supportMessages.id, sent.id) })).toMatchObject({ status: "closed" });
    expect(await (await admin.get("/dashboard/admin/support?status=closed")).text()).toContain("Admin tab test");
  });
});
