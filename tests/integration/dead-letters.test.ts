// Issue 25 F7: dead letters used to keep whole queue bodies (reset and confirmation links, phone
// codes, password and security-answer hashes, mail text) forever. Messages are dead-lettered
// through the consumer Worker's real entry (a poison message on the events queue, a message that
// reached the dead-letter queue) and the stored row is read: only the kind, the account, why,
// attempts and times survive. The hourly cron then deletes dead letters after 14 days.
import { createExecutionContext, createMessageBatch, createScheduledController, env, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { and, eq, gte, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { handlers as worker } from "../worker";
import { DEAD_LETTERS, MS } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { db, uniqueEmail } from "./helpers";

const HASH = "pbkdf2_sha256$100000$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaA";
const ANSWER_HASH = "pbkdf2_sha256$100000$YW5zd2Vyc2FsdGFuc3dlcg$YW5zd2VyaGFzaGFuc3dlcmhhc2hhbnN3ZXI";
const PROOF_HASH = `${"a".repeat(40)}0123456789abcdef01234567`;

function resetMail(to: string) {
  const token = `tok${crypto.randomUUID().replaceAll("-", "")}`;
  const link = `http://localhost/auth/callback?type=recovery&token=${token}`;
  const body = {
    type: "mail.send",
    id: crypto.randomUUID(),
    to,
    subject: "Reset your Modelify password",
    text: `Someone asked to reset the password of your Modelify account.\n\nChoose a new password here:\n${link}`,
    links: [link],
  };
  return { body, token, link };
}

function signUp(email: string, overrides: Record<string, unknown> = {}) {
  return {
    type: "account.signup",
    id: crypto.randomUUID(),
    email,
    passwordHash: HASH,
    proofHash: PROOF_HASH,
    metadata: {
      first_name: "Ada",
      last_name: "Lovelace",
      initial: null,
      phone_number: "+15551234567",
      security_question: "first-pet",
      security_answer_hash: ANSWER_HASH,
    },
    origin: "http://localhost",
    submittedAt: Date.now(),
    ...overrides,
  };
}

type Stored = { kind: string; userId: string | null; reason: string; error: string | null; sentAt: number | null };

async function deadLetter(id: string) {
  const row = await db.query.deadLetters.findFirst({ where: eq(schema.deadLetters.id, id) });
  expect(row, `no dead letter ${id}`).toBeTruthy();
  return { row: row!, stored: JSON.parse(row!.body) as Stored };
}

/** What must never be in a dead letter, whatever its message carried. */
function expectNoSecrets(body: string, secrets: string[]) {
  for (const secret of secrets) expect(body, `the dead letter keeps "${secret}"`).not.toContain(secret);
  expect(body).not.toMatch(/https?:\/\//);
  expect(body).not.toMatch(/pbkdf2_sha256/);
  expect(body).not.toContain("@");
}

async function throughConsumer(queue: string, messages: Array<{ id: string; attempts: number; body: unknown; timestamp?: Date }>) {
  const batch = createMessageBatch(
    queue,
    messages.map((m) => ({ timestamp: new Date(), ...m })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  return getQueueResult(batch, ctx);
}

describe("a dead letter keeps what an operator needs and no secret", () => {
  it("of a reset mail and a sign-up that reached the dead-letter queue", async () => {
    const to = uniqueEmail("victim");
    const mail = resetMail(to);
    const email = uniqueEmail("signup");
    const sentAt = new Date(Date.now() - 5 * MS.MINUTE);
    const id = crypto.randomUUID();
    const result = await throughConsumer("modelify-events-dlq", [
      // The dead-letter queue counts its own deliveries from 1: the row says the events queue's 4.
      { id: `dlq-mail-${id}`, attempts: 1, body: mail.body, timestamp: sentAt },
      { id: `dlq-signup-${id}`, attempts: 1, body: signUp(email), timestamp: sentAt },
    ]);
    expect(result.explicitAcks.sort()).toEqual([`dlq-mail-${id}`, `dlq-signup-${id}`]);

    const dead = await deadLetter(`dlq-mail-${id}`);
    expectNoSecrets(dead.row.body, [mail.token, mail.link, to, mail.body.subject, "Choose a new password", mail.body.id]);
    expect(dead.row).toMatchObject({ queue: "modelify-events-dlq", attempts: 4 });
    expect(dead.stored).toEqual({ kind: "mail.send", userId: null, reason: "retries_exhausted", error: null, sentAt: sentAt.getTime() });

    // The message itself is kept for a replay (ADR 0024), sealed: none of it readable in the row.
    expect(dead.row.original).toMatch(/^v1\./);
    expectNoSecrets(dead.row.original!, [mail.token, mail.link, to, mail.body.subject, "Choose a new password", mail.body.id]);

    const signup = await deadLetter(`dlq-signup-${id}`);
    expectNoSecrets(signup.row.body, [email, HASH, ANSWER_HASH, PROOF_HASH, "Lovelace", "+15551234567", "first-pet"]);
    expectNoSecrets(signup.row.original!, [email, HASH, ANSWER_HASH, PROOF_HASH, "Lovelace", "+15551234567", "first-pet"]);
    expect(signup.row).toMatchObject({ queue: "modelify-events-dlq", attempts: 4 });
    expect(signup.stored).toMatchObject({ kind: "account.signup", userId: null, reason: "retries_exhausted" });
  });

  it("keeps the account of a message that names one, and a phone code does not survive", async () => {
    const userId = crypto.randomUUID();
    const code = "654321";
    const sms = {
      type: "sms.send",
      id: crypto.randomUUID(),
      to: "+15557654321",
      text: `Your Modelify verification code is ${code}.`,
      links: [`http://localhost/verify-phone?code=${code}&phone=%2B15557654321`],
    };
    const stripe = {
      type: "stripe.event",
      eventId: `evt_${userId.slice(0, 8)}`,
      eventType: "customer.subscription.updated",
      subscriptionId: "sub_secretish",
      customerId: "cus_secretish",
      userId,
    };
    await throughConsumer("modelify-events-dlq", [
      { id: `dlq-sms-${userId}`, attempts: 1, body: sms },
      { id: `dlq-stripe-${userId}`, attempts: 1, body: stripe },
    ]);
    const text = await deadLetter(`dlq-sms-${userId}`);
    expectNoSecrets(text.row.body, [code, sms.to, "15557654321", sms.id]);
    expect(text.stored).toMatchObject({ kind: "sms.send", userId: null });
    const event = await deadLetter(`dlq-stripe-${userId}`);
    expect(event.stored).toMatchObject({ kind: "stripe.event", userId, reason: "retries_exhausted" });
    expect(event.row.body).not.toContain("cus_secretish");
  });

  it("of a malformed message on the events queue: straight to the table, with why but without its words", async () => {
    const mail = resetMail("not-an-address");
    const id = `poison-${crypto.randomUUID()}`;
    const result = await throughConsumer("modelify-events", [{ id, attempts: 1, body: mail.body }]);
    expect(result.explicitAcks).toEqual([id]);
    const dead = await deadLetter(id);
    expectNoSecrets(dead.row.body, [mail.token, mail.link, "not-an-address", "Choose a new password"]);
    expect(dead.row).toMatchObject({ queue: "modelify-events", attempts: 1 });
    expect(dead.stored).toMatchObject({ kind: "mail.send", userId: null, reason: "malformed" });
    expect(dead.stored.error).toMatch(/\bto\b/); // which field was wrong, not what it held
    // It would fail the same way again: nothing is kept to replay.
    expect(dead.row.original).toBeNull();
  });

  it("of a malformed sign-up sent through the real queue", async () => {
    const start = Date.now();
    const email = uniqueEmail("poisoned-signup");
    await env.EVENTS.send(signUp(email, { origin: "not a url" }));
    const deadline = Date.now() + 8000;
    let rows: Array<typeof schema.deadLetters.$inferSelect> = [];
    while (rows.length === 0 && Date.now() < deadline) {
      rows = await db
        .select()
        .from(schema.deadLetters)
        .where(
          and(eq(schema.deadLetters.queue, "modelify-events"), gte(schema.deadLetters.createdAt, start), like(schema.deadLetters.body, "%account.signup%")),
        );
      if (rows.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(rows).toHaveLength(1);
    expectNoSecrets(rows[0]!.body, [email, HASH, ANSWER_HASH, PROOF_HASH, "Lovelace", "+15551234567", "not a url"]);
    expect(JSON.parse(rows[0]!.body)).toMatchObject({ kind: "account.signup", reason: "malformed", error: expect.stringMatching(/origin/) });
  });
});

describe("the hourly cron", () => {
  it("deletes dead letters older than 14 days and keeps younger ones", async () => {
    const now = Date.now();
    const id = crypto.randomUUID();
    const body = JSON.stringify({ kind: "mail.send", userId: null, reason: "retries_exhausted", error: null, sentAt: null });
    await db.insert(schema.deadLetters).values([
      { id: `old-${id}`, queue: "modelify-events-dlq", body, attempts: 4, createdAt: now - 15 * MS.DAY },
      { id: `young-${id}`, queue: "modelify-events-dlq", body, attempts: 4, createdAt: now - 13 * MS.DAY },
    ]);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "0 * * * *", scheduledTime: now }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await db.query.deadLetters.findFirst({ where: eq(schema.deadLetters.id, `old-${id}`) })).toBeUndefined();
    expect(await db.query.deadLetters.findFirst({ where: eq(schema.deadLetters.id, `young-${id}`) })).toBeTruthy();
    expect(DEAD_LETTERS.keepMs).toBe(14 * MS.DAY);
  });
});
