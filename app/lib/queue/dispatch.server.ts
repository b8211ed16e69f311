// What the consumer Worker does with each queue message: parse it with the queue's schemas, then
// hand it to the domain that owns it.
import { buildExport, failExport } from "../account/export.server";
import { handleRecoveryMessage, handleSignUpMessage } from "../auth/accounts.server";
import { handleStripeEvent } from "../billing/stripe-events.server";
import type { MailConfig, SmsConfig, StripeConfig } from "../config";
import type { WebhookDeps } from "../alerts/deliver.server";
import { EVENTS_QUEUE, LEDGER } from "../constants";
import type { Db } from "../db.server";
import { recordDeadLetter } from "../dead-letters/store.server";
import { deliverMail, enqueueMails } from "../mail/mail.server";
import { writeMarketingEvents } from "../marketing/events.server";
import { deliverSms } from "../phone/sms.server";
import { handleWebhookMessage } from "../alerts/deliver.server";
import { alertNotices } from "../alerts/notify.server";
import {
  type AccountFacts,
  type AccountOutcome,
  accountFacts,
  alertBudget,
  ingestAccount,
  type SecureItem,
  type UsageItem,
  writeShared,
} from "../usage/ingest.server";
import type { LedgerNamespace } from "../usage/ledger/api";
import { type TeamAlerts, ingestTeams, teamParts } from "../usage/team-ingest.server";
import { teamAlertMails } from "../teams/budget-alerts.server";
import { teamBudgetsOf } from "../teams/budget.server";
import { queuedUsageReportSchema } from "../usage/report";
import { enqueue } from "./enqueue";
import { type MarketingEventMessage, queueMessageSchema, type UsageMessage } from "./messages";
import { log } from "../log/log.server";

export type ConsumerDeps = {
  db: Db;
  env: MailConfig & SmsConfig & StripeConfig & WebhookDeps["env"];
  queue: Queue;
  ledgers: LedgerNamespace;
  /** R2: data exports are written here (the consumer Worker always has it; tests of other messages may leave it out). */
  bucket?: R2Bucket;
  fetcher?: typeof fetch;
};

export async function handleEventBatch(deps: ConsumerDeps, batch: MessageBatch<unknown>): Promise<void> {
  const usage: Array<Pending<UsageItem>> = [];
  const secure: Array<Pending<SecureItem>> = [];
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
      usage.push({ message, item: parsed.data, shared: false });
      continue;
    }
    if (parsed.data.type === "usage.reports") {
      const { reports, type: _, ...head } = parsed.data;
      let kept = 0;
      for (const [index, report] of reports.entries()) {
        const one = queuedUsageReportSchema.safeParse(report);
        if (one.success) {
          usage.push({ message, item: { ...head, report: one.data }, shared: reports.length > 1 });
          kept++;
          continue;
        }
        // The rest of the message goes on; this report alone is kept as a dead letter of its own.
        await recordDeadLetter(deps.db, batch.queue, reportOf(message, index, { type: "usage.report", ...head, report }), "malformed");
      }
      if (kept === 0) message.ack();
      continue;
    }
    if (parsed.data.type === "usage.secure") {
      secure.push({ message, item: parsed.data, shared: false });
      continue;
    }
    if (parsed.data.type === "marketing.event") {
      events.push({ message, item: parsed.data });
      continue;
    }
    // Acknowledged, or retried after a delay that grows with each attempt.
    if (parsed.data.type === "webhook.deliver") {
      await handleWebhookMessage(deps, message, parsed.data);
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
        case "account.export":
          if (!deps.bucket) throw new Error("account.export needs the R2 bucket");
          await buildExport({ ...deps, bucket: deps.bucket }, parsed.data);
          break;
        case "account.recovery":
          await handleRecoveryMessage(deps, parsed.data);
          break;
      }
      message.ack();
    } catch (error) {
      log.error("queue_message_failed", { id: message.id, type: parsed.data.type }, error);
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
    log.error("marketing_events_failed", { size: events.length }, error);
    for (const { message } of events) message.retry();
  }
}

/**
 * The batch's usage, grouped by account: one call to each account's ledger (side by side; more
 * only past LEDGER.maxReportsPerIngest), then the shared figures in one D1 batch, then the
 * acknowledgements. A report of an account that no longer exists goes straight to the dead
 * letters; an account whose ledger call fails is tried report by report, so one poison report is
 * retried (and then dead-lettered) alone while the rest of its batch, and every other account, is
 * kept. A poison report that shares its message with others is sent again as a message of its own,
 * and the rest of its message is acknowledged.
 */
async function handleUsage(deps: ConsumerDeps, queueName: string, usage: Array<Pending<UsageItem>>, secure: Array<Pending<SecureItem>>) {
  if (usage.length === 0 && secure.length === 0) return;
  const messages = new Set([...usage, ...secure].map((p) => p.message));
  const groups = new Map<string, AccountGroup>();
  for (const u of usage) groupOf(groups, u.item.userId).usage.push(u);
  for (const s of secure) groupOf(groups, s.item.userId).secure.push(s);
  let facts: Map<string, AccountFacts>;
  try {
    facts = await accountFacts(deps.db, [...groups.keys()]);
  } catch (error) {
    log.error("usage_batch_failed", { size: usage.length + secure.length }, error);
    for (const message of messages) message.retry();
    return;
  }
  const now = Date.now();
  const outcome: BatchOutcome = { written: [], counted: { usage: [], secure: [] }, retry: new Set(), resend: [], deadLettered: new Set() };
  await Promise.all([...groups].map(([userId, group]) => ingestGroup(deps, queueName, userId, group, facts.get(userId), now, outcome)));
  const { written, retry, resend, deadLettered } = outcome;
  // What the members' ledgers took also counts for the teams it was sent under (ADR 0038), and
  // against their budgets (ADR 0039).
  const parts = teamParts(outcome.counted.usage, outcome.counted.secure, facts);
  const teamAlerts = await ingestTeams(deps.ledgers, parts, now, retry, await teamBudgets(deps.db, [...parts.keys()]));
  if (resend.length) {
    try {
      await enqueue(deps.queue, resend);
    } catch (error) {
      // Their messages are retried whole: the reports already stored are found and skipped.
      log.error("usage_resend_failed", { size: resend.length }, error);
      for (const u of usage) if (u.shared) retry.add(u.message);
    }
  }
  try {
    await writeShared(
      deps.db,
      written.map((w) => w.outcome),
    );
  } catch (error) {
    // The ledgers have the reports; a retry finds them there (stored once) and writes the same
    // absolute figures to D1 again.
    log.error("usage_rollup_failed", { accounts: written.length }, error);
    for (const w of written) for (const message of w.messages) retry.add(message);
  }
  for (const message of messages) {
    if (retry.has(message) && !deadLettered.has(message)) message.retry();
    else message.ack();
  }
  await sendAlerts(
    deps,
    written.map((w) => ({ userId: w.outcome.userId, alerts: w.outcome.result.alerts, health: w.outcome.result.health ?? [] })),
    facts,
  );
  await sendTeamAlerts(deps, teamAlerts);
}

/**
 * The budgets of the batch's teams. Without them (D1 failed) the teams' ledgers decide no alert this
 * time; the next report's ingest decides it, as alerts follow the period's spend, not one report.
 */
async function teamBudgets(db: Db, teamIds: string[]) {
  try {
    return await teamBudgetsOf(db, teamIds);
  } catch (error) {
    log.error("team_budgets_failed", { teams: teamIds.length }, error);
    return new Map();
  }
}

/** Team budget alerts to each team's owner and admins. Best effort, like the accounts' alerts. */
async function sendTeamAlerts(deps: ConsumerDeps, decided: TeamAlerts[]) {
  if (decided.length === 0) return;
  try {
    const mails = await teamAlertMails(deps.db, decided);
    if (mails.length) await enqueueMails(deps.queue, mails);
  } catch (error) {
    log.error("team_alert_notices_failed", {}, error);
  }
}

/** The alerts' mails and webhook deliveries. Best effort: the usage is stored and must not be retried for them. */
async function sendAlerts(deps: ConsumerDeps, decided: Parameters<typeof alertNotices>[1], facts: Map<string, AccountFacts>) {
  if (decided.every((d) => d.alerts.length + d.health.length === 0)) return;
  try {
    const { mails, webhooks } = await alertNotices(deps.db, decided, facts);
    if (mails.length) await enqueueMails(deps.queue, mails);
    if (webhooks.length) await enqueue(deps.queue, webhooks);
  } catch (error) {
    log.error("alert_notices_failed", {}, error);
  }
}

/** What a batch's ledger calls came to: what to write to D1, retry, send again alone, or leave dead-lettered. */
type BatchOutcome = {
  written: Array<{ outcome: AccountOutcome; messages: Array<Message<unknown>> }>;
  /** Every report a member's ledger took, with its message: those sent under a team go to the team's too. */
  counted: AccountGroup;
  retry: Set<Message<unknown>>;
  resend: UsageMessage[];
  deadLettered: Set<Message<unknown>>;
};

/** One account's part of the batch into its ledger: whole, or report by report once a call fails. */
async function ingestGroup(
  deps: ConsumerDeps,
  queueName: string,
  userId: string,
  group: AccountGroup,
  account: AccountFacts | undefined,
  now: number,
  { written, counted, retry, resend, deadLettered }: BatchOutcome,
) {
  if (!account) {
    for (const message of new Set([...group.usage, ...group.secure].map((p) => p.message))) {
      await recordDeadLetter(deps.db, queueName, message, "account_not_found");
      deadLettered.add(message);
    }
    return;
  }
  for (const part of partsOf(group)) {
    const items = { usage: part.usage.map((u) => u.item), secure: part.secure.map((s) => s.item) };
    try {
      const result = await ingestAccount(deps.ledgers, userId, items.usage, items.secure, alertBudget(account), now, account.timeZone, account.rules);
      written.push({ outcome: { userId, result, ...items }, messages: [...part.usage, ...part.secure].map((m) => m.message) });
      counted.usage.push(...part.usage);
      counted.secure.push(...part.secure);
    } catch (error) {
      log.error("usage_account_failed", { size: items.usage.length + items.secure.length }, error);
      for (const one of [...part.usage.map((u) => ({ ...u, kind: "usage" as const })), ...part.secure.map((s) => ({ ...s, kind: "secure" as const }))]) {
        const alone = one.kind === "usage" ? { usage: [one.item as UsageItem], secure: [] } : { usage: [], secure: [one.item as SecureItem] };
        try {
          const result = await ingestAccount(deps.ledgers, userId, alone.usage, alone.secure, alertBudget(account), now, account.timeZone, account.rules);
          written.push({ outcome: { userId, result, ...alone }, messages: [one.message] });
          if (one.kind === "usage") counted.usage.push({ ...one, item: one.item as UsageItem });
          else counted.secure.push({ ...one, item: one.item as SecureItem });
        } catch (singleError) {
          log.error("usage_message_failed", { id: one.message.id, attempts: one.message.attempts }, singleError);
          if (one.shared) resend.push({ type: "usage.report", ...(one.item as UsageItem) });
          else retry.add(one.message);
        }
      }
    }
  }
}

/** A report of a usage.reports message, as a message of its own (for its dead letter). */
function reportOf(message: Message<unknown>, index: number, body: unknown): Message<unknown> {
  return { id: `${message.id}.${index}`, timestamp: message.timestamp, attempts: message.attempts, body, ack() {}, retry() {} };
}

/** Pending reports with the message that carried them (shared: the message carries others too). */
type Pending<T> = { message: Message<unknown>; item: T; shared: boolean };
type AccountGroup = { usage: Array<Pending<UsageItem>>; secure: Array<Pending<SecureItem>> };

/** An account's part of a batch in ledger calls of at most LEDGER.maxReportsPerIngest reports. */
function partsOf(group: AccountGroup): AccountGroup[] {
  if (group.usage.length + group.secure.length <= LEDGER.maxReportsPerIngest) return [group];
  const parts: AccountGroup[] = [];
  for (let i = 0; i < group.usage.length; i += LEDGER.maxReportsPerIngest)
    parts.push({ usage: group.usage.slice(i, i + LEDGER.maxReportsPerIngest), secure: [] });
  for (let i = 0; i < group.secure.length; i += LEDGER.maxReportsPerIngest)
    parts.push({ usage: [], secure: group.secure.slice(i, i + LEDGER.maxReportsPerIngest) });
  return parts;
}

function groupOf(groups: Map<string, AccountGroup>, userId: string): AccountGroup {
  let group = groups.get(userId);
  if (!group) {
    group = { usage: [], secure: [] };
    groups.set(userId, group);
  }
  return group;
}

/**
 * Messages whose retries are used up: each is kept as a dead letter, and a job someone waits for
 * is ended, so it does not look as if it were still running (an export ends "failed").
 */
export async function handleDeadLetters(deps: { db: Db; bucket: R2Bucket; deadLetterKey?: string }, batch: MessageBatch<unknown>): Promise<void> {
  for (const message of batch.messages) {
    // The original is kept (sealed) where the message can be replayed (lib/dead-letters/policy.ts).
    // Its attempts are the events queue's deliveries, not this queue's (which start again at 1).
    await recordDeadLetter(deps.db, batch.queue, message, "retries_exhausted", {
      key: deps.deadLetterKey,
      attempts: EVENTS_QUEUE.maxRetries + message.attempts,
    });
    const parsed = queueMessageSchema.safeParse(message.body);
    if (parsed.success && parsed.data.type === "account.export") await failExport(deps, parsed.data);
    message.ack();
  }
}
