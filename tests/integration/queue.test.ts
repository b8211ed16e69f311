import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { handlers as worker } from "../worker";
import { handleEventBatch } from "~/lib/queue/dispatch.server";
import { schema } from "~/lib/db.server";
import { parseConsumerEnv } from "../../workers/consumer-env";
import { pendingMessages, queueSettled } from "../queue-tracker";
import { Browser, db, signUpFields, uniqueEmail, waitForMail } from "./helpers";

const mail = (to: string) => ({ type: "mail.send", id: crypto.randomUUID(), to, subject: "Hello", text: "Body", links: [] });

describe("queue consumer", () => {
  it("consumes a message the site produced, through the real queue", async () => {
    const to = uniqueEmail("queue");
    await env.EVENTS.send(mail(to));
    const delivered = await waitForMail(to, /Hello/);
    expect(delivered.text).toBe("Body");
  });

  it("is idempotent: a redelivered message stores one mail", async () => {
    const to = uniqueEmail("idem");
    const message = mail(to);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const batch = createMessageBatch("modelify-events", [{ id: `m-${attempt}`, timestamp: new Date(), attempts: attempt, body: message }]);
      const ctx = createExecutionContext();
      await worker.queue(batch, env, ctx);
      expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual([`m-${attempt}`]);
    }
    expect(await db.select().from(schema.outbox).where(eq(schema.outbox.to, to))).toHaveLength(1);
  });

  it("dead-letters a malformed message and keeps the rest of the batch", async () => {
    const to = uniqueEmail("poison");
    const batch = createMessageBatch("modelify-events", [
      { id: "poison-1", timestamp: new Date(), attempts: 1, body: { type: "mail.send", to: "not-an-email" } as unknown },
      { id: "good-1", timestamp: new Date(), attempts: 1, body: mail(to) as unknown },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(["good-1", "poison-1"]);
    expect(result.retryMessages).toEqual([]);
    expect(await db.query.deadLetters.findFirst({ where: eq(schema.deadLetters.id, "poison-1") })).toBeTruthy();
    expect(await db.select().from(schema.outbox).where(eq(schema.outbox.to, to))).toHaveLength(1);
  });

  it("retries a message whose delivery fails, alone", async () => {
    const failing = vi.fn(async () => new Response("down", { status: 503 }));
    const batch = createMessageBatch("modelify-events", [{ id: "retry-1", timestamp: new Date(), attempts: 1, body: mail(uniqueEmail()) }]);
    const config = { ...parseConsumerEnv(env), MAIL_API_URL: "https://mail.example/emails", MAIL_API_KEY: "k" };
    await handleEventBatch({ db, env: config, queue: env.EVENTS, ledgers: env.USAGE_LEDGER, fetcher: failing }, batch);
    const ctx = createExecutionContext();
    const result = await getQueueResult(batch, ctx);
    expect(result.retryMessages.map((m) => m.msgId)).toEqual(["retry-1"]);
    expect(failing).toHaveBeenCalledOnce();
    const [url, init] = failing.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("https://mail.example/emails");
    expect((init.headers as Record<string, string>)["idempotency-key"]).toBeTruthy();
  });

  it("records messages that reach the dead-letter queue", async () => {
    // The dead-letter queue counts its own deliveries from 1; the row records the events queue's 4.
    const batch = createMessageBatch("modelify-events-dlq", [{ id: "dlq-1", timestamp: new Date(), attempts: 1, body: mail("x@example.com") }]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(["dlq-1"]);
    const row = await db.query.deadLetters.findFirst({ where: eq(schema.deadLetters.id, "dlq-1") });
    expect(row).toMatchObject({ queue: "modelify-events-dlq", attempts: 4 });
  });
});

describe("the test's queue tracker (tests/queue-tracker.ts)", () => {
  it("counts a request's messages from send until the consumer has handled them, chains included", async () => {
    const email = uniqueEmail("tracked");
    const browser = new Browser();
    // A sign-up enqueues the account message, whose handling enqueues the confirmation mail.
    expect((await browser.post("/auth?mode=signup", signUpFields(email))).status).toBe(200);
    expect(pendingMessages()).toBeGreaterThan(0);
    await queueSettled();
    expect(pendingMessages()).toBe(0);
    const mails = await db.select().from(schema.outbox).where(eq(schema.outbox.to, email));
    expect(mails.map((m) => m.subject)).toEqual(["Confirm your Modelify account"]);
  });

  it("counts a test's own sends and messages that end in the dead-letter queue", async () => {
    const to = uniqueEmail("tracked-own");
    await env.EVENTS.send(mail(to));
    await env.EVENTS.send({ type: "mail.send", to: "not-an-address" });
    await queueSettled();
    expect(await db.select().from(schema.outbox).where(eq(schema.outbox.to, to))).toHaveLength(1);
  });
});
