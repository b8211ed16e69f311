// What the consumer Worker does with each queue message.
import type { Db } from "./db.server";
import { schema } from "./db.server";
import type { MailConfig, SmsConfig, StripeConfig } from "./config";
import { eq } from "drizzle-orm";
import { handleRecoveryMessage, handleSignUpMessage } from "./auth/accounts.server";
import { recordDeadLetter } from "./dead-letters.server";
import { getStripe } from "./billing/stripe.server";
import { subscriptionUpsert } from "./billing/sync.server";
import { deliverMail } from "./mail/mail.server";
import { deliverSms } from "./phone/sms.server";
import { writeMarketingEvents } from "./marketing/events.server";
import { type MarketingEventMessage, queueMessageSchema, type StripeEventMessage } from "./queue";
import { checkBudgetAlerts } from "./usage/budget.server";
import { writeUsage, type SecureItem, type UsageItem } from "./usage/ingest.server";

export type ConsumerDeps = { db: Db; env: MailConfig & SmsConfig & StripeConfig; queue: Queue; fetcher?: typeof fetch };

export async function handleEventBatch(deps: ConsumerDeps, batch: MessageBatch<unknown>): Promise<void> {
  const usage: Array<{ message: Message<unknown>; item: UsageItem }> = [];
  const secure: Array<{ message: Message<unknown>; item: SecureItem }> = [];
  const events: Array<{ message: Message<unknown>; item: MarketingEventMessage }> = [];
  for (const message of batch.messages) {
    const parsed = queueMessageSchema.safeParse(message.body);
    if (!parsed.success) {
      // Retrying cannot fix a malformed message: straight to the dead-letter table.
      await recordDeadLetter(deps.db, batch.queue, message, "malformed");
      message.ack();
      continue;
    }
    // Usage reports are written together below, in as few statements as possible.
    if (parsed.data.type === "usage.report") {
      usage.push({ message, item: parsed.data });
      continue;
    }
    if (parsed.data.type === "usage.secure") {
      secure.push({ message, item: parsed.data });
      continue;
    }
    if (parsed.data.type === "marketing.event") {
      events.push({ message, item: parsed.data });
      continue;
    }
    try {
      switch (parsed.data.type) {
        case "mail.send":
          await deliverMail(deps.env, deps.db, parsed.data, deps.fetcher);
          break;
        case "sms.send":
          await deliverSms(deps.env, deps.db, parsed.data, deps.fetcher);
          break;
        case "stripe.event":
          await handleStripeEvent(deps, parsed.data);
          break;
        case "account.signup":
          await handleSignUpMessage(deps, parsed.data);
          break;
        case "account.recovery":
          await handleRecoveryMessage(deps, parsed.data);
          break;
      }
      message.ack();
    } catch (error) {
      console.error(JSON.stringify({ event: "queue_message_failed", id: message.id, type: parsed.data.type, error: String(error) }));
      message.retry();
    }
  }
  await handleUsage(deps, usage, secure);
  await handleMarketingEvents(deps.db, events);
}

/** The batch's marketing events in one write; retried together if it fails. */
async function handleMarketingEvents(db: Db, events: Array<{ message: Message<unknown>; item: MarketingEventMessage }>) {
  if (events.length === 0) return;
  try {
    await writeMarketingEvents(
      db,
      events.map((e) => e.item),
    );
    for (const { message } of events) message.ack();
  } catch (error) {
    console.error(JSON.stringify({ event: "marketing_events_failed", size: events.length, error: String(error) }));
    for (const { message } of events) message.retry();
  }
}

/**
 * All usage of the batch in one transaction. If that fails (say a report of a deleted account
 * breaks a foreign key), each report is tried alone, so one poison message is retried and
 * dead-lettered by itself while the rest of the batch is kept.
 */
async function handleUsage(
  deps: ConsumerDeps,
  usage: Array<{ message: Message<unknown>; item: UsageItem }>,
  secure: Array<{ message: Message<unknown>; item: SecureItem }>,
) {
  if (usage.length === 0 && secure.length === 0) return;
  try {
    await writeUsage(
      deps.db,
      usage.map((u) => u.item),
      secure.map((s) => s.item),
    );
    for (const { message } of [...usage, ...secure]) message.ack();
  } catch (error) {
    console.error(JSON.stringify({ event: "usage_batch_failed", size: usage.length + secure.length, error: String(error) }));
    for (const { message, item } of usage) await single(message, () => writeUsage(deps.db, [item], []));
    for (const { message, item } of secure) await single(message, () => writeUsage(deps.db, [], [item]));
  }
  const users = new Set([...usage.map((u) => u.item.userId), ...secure.map((s) => s.item.userId)]);
  try {
    await checkBudgetAlerts(deps.db, deps.queue, [...users]);
  } catch (error) {
    // Alerts are best effort: the usage is already stored and must not be retried for them.
    console.error(JSON.stringify({ event: "budget_alert_check_failed", error: String(error) }));
  }
}

async function single(message: Message<unknown>, run: () => Promise<void>) {
  try {
    await run();
    message.ack();
  } catch (error) {
    console.error(JSON.stringify({ event: "usage_message_failed", id: message.id, attempts: message.attempts, error: String(error) }));
    message.retry();
  }
}

export async function handleDeadLetters(db: Db, batch: MessageBatch<unknown>): Promise<void> {
  for (const message of batch.messages) {
    await recordDeadLetter(db, batch.queue, message, "retries_exhausted");
    message.ack();
  }
}

/**
 * Applies one Stripe event at most once: the processed-event row is written in the same D1
 * batch as the subscription change, so a redelivery either sees it and stops, or (after a
 * failure) finds nothing written and does the whole thing again.
 */
async function handleStripeEvent(deps: ConsumerDeps, message: StripeEventMessage): Promise<void> {
  const done = await deps.db.query.processedMessages.findFirst({ where: eq(schema.processedMessages.id, message.eventId) });
  if (done) return;
  const stripe = getStripe(deps.env);
  if (!stripe) throw new Error("Stripe is not configured");
  const upsert = await subscriptionUpsert(deps.db, stripe, message);
  const mark = deps.db.insert(schema.processedMessages).values({ id: message.eventId, kind: `stripe:${message.eventType}`, processedAt: Date.now() });
  await deps.db.batch([mark, ...(upsert?.statements ?? [])]);
}
