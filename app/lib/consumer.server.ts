// What the consumer Worker does with each queue message.
import type { Db } from "./db.server";
import { schema } from "./db.server";
import type { MailConfig, SmsConfig, StripeConfig } from "./config";
import { eq } from "drizzle-orm";
import { handleRecoveryMessage, handleSignUpMessage } from "./auth/accounts.server";
import { recordDeadLetter } from "./dead-letters.server";
import { getStripe } from "./billing/stripe.server";
import { subscriptionUpsert } from "./billing/sync.server";
import { deliverMail, enqueueMails } from "./mail/mail.server";
import { deliverSms } from "./phone/sms.server";
import { writeMarketingEvents } from "./marketing/events.server";
import { type MarketingEventMessage, queueMessageSchema, type StripeEventMessage } from "./queue";
import { budgetAlertMail } from "./usage/budget.server";
import { type AccountFacts, type AccountOutcome, accountFacts, ingestAccount, type SecureItem, type UsageItem, writeShared } from "./usage/ingest.server";
import type { LedgerNamespace } from "./usage/ledger/api";

export type ConsumerDeps = { db: Db; env: MailConfig & SmsConfig & StripeConfig; queue: Queue; ledgers: LedgerNamespace; fetcher?: typeof fetch };

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
  await handleUsage(deps, batch.queue, usage, secure);
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
 * The batch's usage, grouped by account: one call to each account's ledger (side by side), then
 * the shared figures in one D1 batch, then the acknowledgements. A report of an account that no
 * longer exists goes straight to the dead letters; an account whose ledger call fails is tried
 * report by report, so one poison report is retried (and then dead-lettered) alone while the
 * rest of its batch, and every other account, is kept.
 */
async function handleUsage(
  deps: ConsumerDeps,
  queueName: string,
  usage: Array<{ message: Message<unknown>; item: UsageItem }>,
  secure: Array<{ message: Message<unknown>; item: SecureItem }>,
) {
  if (usage.length === 0 && secure.length === 0) return;
  const groups = new Map<string, AccountGroup>();
  for (const u of usage) groupOf(groups, u.item.userId).usage.push(u);
  for (const s of secure) groupOf(groups, s.item.userId).secure.push(s);
  let facts: Map<string, AccountFacts>;
  try {
    facts = await accountFacts(deps.db, [...groups.keys()]);
  } catch (error) {
    console.error(JSON.stringify({ event: "usage_batch_failed", size: usage.length + secure.length, error: String(error) }));
    for (const { message } of [...usage, ...secure]) message.retry();
    return;
  }
  const now = Date.now();
  const written: Array<{ outcome: AccountOutcome; messages: Array<Message<unknown>> }> = [];
  await Promise.all(
    [...groups].map(async ([userId, group]) => {
      const account = facts.get(userId);
      if (!account) {
        for (const { message } of [...group.usage, ...group.secure]) {
          await recordDeadLetter(deps.db, queueName, message, "account_not_found");
          message.ack();
        }
        return;
      }
      const items = { usage: group.usage.map((u) => u.item), secure: group.secure.map((s) => s.item) };
      try {
        const result = await ingestAccount(deps.ledgers, userId, items.usage, items.secure, account.budget, now);
        written.push({ outcome: { userId, result, ...items }, messages: [...group.usage, ...group.secure].map((m) => m.message) });
      } catch (error) {
        console.error(JSON.stringify({ event: "usage_account_failed", size: items.usage.length + items.secure.length, error: String(error) }));
        for (const one of [...group.usage.map((u) => ({ ...u, kind: "usage" as const })), ...group.secure.map((s) => ({ ...s, kind: "secure" as const }))]) {
          try {
            const result =
              one.kind === "usage"
                ? await ingestAccount(deps.ledgers, userId, [one.item as UsageItem], [], account.budget, now)
                : await ingestAccount(deps.ledgers, userId, [], [one.item as SecureItem], account.budget, now);
            written.push({
              outcome: {
                userId,
                result,
                usage: one.kind === "usage" ? [one.item as UsageItem] : [],
                secure: one.kind === "secure" ? [one.item as SecureItem] : [],
              },
              messages: [one.message],
            });
          } catch (singleError) {
            console.error(JSON.stringify({ event: "usage_message_failed", id: one.message.id, attempts: one.message.attempts, error: String(singleError) }));
            one.message.retry();
          }
        }
      }
    }),
  );
  try {
    await writeShared(
      deps.db,
      written.map((w) => w.outcome),
    );
    for (const w of written) for (const message of w.messages) message.ack();
  } catch (error) {
    // The ledgers have the reports; a retry finds them there (stored once) and writes the same
    // absolute figures to D1 again.
    console.error(JSON.stringify({ event: "usage_rollup_failed", accounts: written.length, error: String(error) }));
    for (const w of written) for (const message of w.messages) message.retry();
  }
  const mails = written.flatMap((w) => w.outcome.result.alerts.map((alert) => budgetAlertMail(facts.get(w.outcome.userId)!.email, alert)));
  if (mails.length === 0) return;
  try {
    await enqueueMails(deps.queue, mails);
  } catch (error) {
    // Alerts are best effort: the usage is already stored and must not be retried for them.
    console.error(JSON.stringify({ event: "budget_alert_mail_failed", error: String(error) }));
  }
}

type Pending<T> = { message: Message<unknown>; item: T };
type AccountGroup = { usage: Array<Pending<UsageItem>>; secure: Array<Pending<SecureItem>> };

function groupOf(groups: Map<string, AccountGroup>, userId: string): AccountGroup {
  let group = groups.get(userId);
  if (!group) {
    group = { usage: [], secure: [] };
    groups.set(userId, group);
  }
  return group;
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
