// Issue 30, "dead letters an operator can act on": a message is dead-lettered through the consumer
// Worker's real entry, seen on Dashboard → Dead Letters, replayed (its effect happens exactly
// once, however often the replay is asked for) and another one discarded, both audited; anyone
// but an admin gets a 404; the admins get one alert e-mail for a burst (ADR 0024).
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { and, eq, gte, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DEAD_LETTERS, MS } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { alertAdminsOfDeadLetters } from "~/lib/dead-letters/alert.server";
import { unseal } from "~/lib/dead-letters/sealed";
import { clearCounter } from "~/lib/limits/counters.server";
import { accountHash, setLogSalt } from "~/lib/log/log.server";
import { handlers as worker } from "../worker";
import { Browser, createConfirmedUser, db, queueSettled, signedInAs, uniqueEmail, visibleText } from "./helpers";
import { report, storedCount } from "./usage-helpers";

const PAGE = "/dashboard/admin/dead-letters";
const KEY = (env as unknown as { DEAD_LETTER_KEY: string }).DEAD_LETTER_KEY;
const SALT = (env as unknown as { LOG_SALT: string }).LOG_SALT;

/** Messages that used up their retries: through the dead-letter queue's consumer. */
async function deadLetter(messages: Array<{ id: string; body: unknown; timestamp?: Date }>) {
  const batch = createMessageBatch<unknown>(
    "modelify-events-dlq",
    messages.map((m) => ({ timestamp: new Date(), attempts: 1, ...m })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  const result = await getQueueResult(batch, ctx);
  expect(result.explicitAcks.sort()).toEqual(messages.map((m) => m.id).sort());
  // The alert mail it may have sent goes through the queue too.
  await queueSettled();
}

function usageMessage(userId: string) {
  return { type: "usage.report", userId, receivedAt: Date.now(), report: { ...report(), occurred_at: Date.now() } };
}

function mailMessage(to: string) {
  return { type: "mail.send", id: crypto.randomUUID(), to, subject: "Your export is ready", text: "Download it from your profile.", links: [] };
}

const row = (id: string) => db.query.deadLetters.findFirst({ where: eq(schema.deadLetters.id, id) });
const audits = (action: string, id: string) =>
  db
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.action, action), like(schema.auditLog.details, `%${id}%`)));

let admin: Awaited<ReturnType<typeof signedInAs>>;
beforeAll(async () => {
  admin = await signedInAs("admin");
});

describe("Dashboard → Dead Letters", () => {
  it("lists a dead letter, replays it with exactly one effect, and refuses a second replay", async () => {
    const { id: userId } = await createConfirmedUser();
    const id = `dl-usage-${crypto.randomUUID()}`;
    const body = usageMessage(userId);
    await deadLetter([{ id, body }]);

    // Stored redacted, with the original sealed beside it (opened only with the key and its own id).
    const stored = (await row(id))!;
    expect(stored.body).not.toContain(body.report.report_id);
    expect(stored.original).not.toContain(body.report.report_id);
    expect(JSON.parse((await unseal(KEY, stored.original!, id))!)).toEqual(body);
    expect(await unseal(KEY, stored.original!, "another-id")).toBeNull();
    expect(await unseal("another-key-0123456789abcdef0123456789", stored.original!, id)).toBeNull();

    const page = await admin.browser.get(PAGE);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`data-dead-letter="${id}"`);
    const text = visibleText(html);
    setLogSalt(SALT);
    expect(text).toContain(accountHash(userId)); // the account as the logs show it
    setLogSalt(undefined);
    expect(text).not.toContain(userId);
    expect(text).toMatch(/usage\.report.*Retries used up.*Attempts\s*4.*First seen/);

    expect(await storedCount(userId)).toBe(0);
    const replay = await admin.browser.post(PAGE, { intent: "replay", id });
    expect(replay.status).toBe(200);
    expect(visibleText(await replay.text())).toContain("Replayed: the usage.report message is back on the queue.");
    await queueSettled();
    expect(await storedCount(userId)).toBe(1);
    expect(await row(id)).toBeUndefined();
    expect(await audits("dead_letter.replay", id)).toEqual([expect.objectContaining({ actorUserId: admin.id, targetUserId: userId })]);

    // Asked again: gone. And the same message delivered once more still stores nothing new.
    const again = await admin.browser.post(PAGE, { intent: "replay", id });
    expect(again.status).toBe(409);
    expect(visibleText(await again.text())).toContain("That dead letter is no longer here");
    await env.EVENTS.send(body);
    await queueSettled();
    expect(await storedCount(userId)).toBe(1);
  });

  it("replays once when two admins replay at the same moment: one mail in the outbox", async () => {
    const other = await signedInAs("admin");
    const to = uniqueEmail("replayed-mail");
    const mail = mailMessage(to);
    const id = `dl-mail-${crypto.randomUUID()}`;
    await deadLetter([{ id, body: mail }]);
    const answers = await Promise.all([admin.browser.post(PAGE, { intent: "replay", id }), other.browser.post(PAGE, { intent: "replay", id })]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    await queueSettled();
    expect(await db.select().from(schema.outbox).where(eq(schema.outbox.to, to))).toHaveLength(1);
    expect(await audits("dead_letter.replay", id)).toHaveLength(1);
  });

  it("discards another after asking, audited; nothing is sent", async () => {
    const to = uniqueEmail("discarded-mail");
    const id = `dl-discard-${crypto.randomUUID()}`;
    await deadLetter([{ id, body: mailMessage(to) }]);

    const asking = visibleText(await (await admin.browser.get(`${PAGE}?discard=${id}`)).text());
    expect(asking).toContain("Discard this dead letter for good?");
    const discard = await admin.browser.post(PAGE, { intent: "discard", id });
    expect(discard.status).toBe(200);
    expect(visibleText(await discard.text())).toContain("Discarded.");
    expect(await row(id)).toBeUndefined();
    expect(await audits("dead_letter.discard", id)).toEqual([expect.objectContaining({ actorUserId: admin.id })]);
    expect((await admin.browser.post(PAGE, { intent: "discard", id })).status).toBe(409);
    await queueSettled();
    expect(await db.select().from(schema.outbox).where(eq(schema.outbox.to, to))).toHaveLength(0);
  });

  it("says why a dead letter cannot be replayed, and refuses it", async () => {
    const id = `dl-malformed-${crypto.randomUUID()}`;
    const batch = createMessageBatch<unknown>("modelify-events", [{ id, timestamp: new Date(), attempts: 1, body: mailMessage("not-an-address") }]);
    await worker.queue(batch, env, createExecutionContext());
    await queueSettled();
    expect((await row(id))!.original).toBeNull();
    const text = visibleText(await (await admin.browser.get(PAGE)).text());
    expect(text).toContain("Cannot be replayed: It never matched the message format");
    const replay = await admin.browser.post(PAGE, { intent: "replay", id });
    expect(replay.status).toBe(409);
    expect(await row(id)).toBeTruthy();

    // A mail older than a day: its links have expired.
    const old = `dl-old-mail-${crypto.randomUUID()}`;
    await deadLetter([{ id: old, body: mailMessage(uniqueEmail("old")), timestamp: new Date(Date.now() - DEAD_LETTERS.replayMessageMs - MS.HOUR) }]);
    expect((await admin.browser.post(PAGE, { intent: "replay", id: old })).status).toBe(409);
  });

  it("is a 404 for anyone but an admin, and refuses a post from another site", async () => {
    const id = `dl-guarded-${crypto.randomUUID()}`;
    await deadLetter([{ id, body: mailMessage(uniqueEmail("guarded")) }]);
    const user = await signedInAs("user");
    expect((await user.browser.get(PAGE)).status).toBe(404);
    expect((await user.browser.post(PAGE, { intent: "discard", id })).status).toBe(404);
    expect((await user.browser.post(PAGE, { intent: "replay", id })).status).toBe(404);
    const signedOut = await new Browser().get(PAGE);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toBe("/auth");
    // The dashboard's tabs show it to admins only.
    expect(await (await user.browser.get("/dashboard")).text()).not.toContain(PAGE);
    expect(await (await admin.browser.get("/dashboard")).text()).toContain(PAGE);

    const foreign = await admin.browser.post(PAGE, { intent: "discard", id }, { Origin: "https://evil.example" });
    expect(foreign.status).toBeGreaterThanOrEqual(400);
    expect(foreign.status).toBeLessThan(500);
    expect(await row(id)).toBeTruthy();
    expect(await audits("dead_letter.discard", id)).toHaveLength(0);
  });
});

describe("the admins' alert", () => {
  it("is mailed once for a burst of dead letters across batches, with counts per kind and nothing else", async () => {
    const alerted = await signedInAs("admin");
    const start = Date.now();
    await clearCounter(db, "alert:dead-letters");
    const secretTo = uniqueEmail("burst-victim");
    await deadLetter([
      { id: `burst-1-${crypto.randomUUID()}`, body: mailMessage(secretTo) },
      { id: `burst-2-${crypto.randomUUID()}`, body: mailMessage(secretTo) },
    ]);
    await deadLetter([{ id: `burst-3-${crypto.randomUUID()}`, body: usageMessage(crypto.randomUUID()) }]);
    await Promise.all([alertAdminsOfDeadLetters({ db, queue: env.EVENTS }), alertAdminsOfDeadLetters({ db, queue: env.EVENTS })]);
    await queueSettled();
    const mails = await db
      .select()
      .from(schema.outbox)
      .where(and(eq(schema.outbox.to, alerted.email), gte(schema.outbox.createdAt, start)));
    expect(mails).toHaveLength(1);
    // Sent after the first batch: the hour's dead letters so far (this file's earlier ones too), by kind.
    expect(mails[0]!.subject).toMatch(/^Modelify: \d+ queue messages dead-lettered$/);
    expect(mails[0]!.text).toMatch(/^- mail\.send: \d+$/m);
    expect(mails[0]!.text).toContain("Dashboard → Dead Letters");
    expect(mails[0]!.text).not.toContain(secretTo);
    expect(mails[0]!.links).toEqual([]);
  });
});
