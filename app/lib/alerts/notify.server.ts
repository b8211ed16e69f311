// What the consumer sends for the alerts its ledgers decided (issue 49): an e-mail for each when
// the account has e-mail alerts on, and one webhook.deliver message per alert and webhook. Each
// delivery has its own id (the event's), the same on all its attempts.
import type { Db } from "../db.server";
import type { OutgoingMessage } from "../queue/messages";
import { budgetAlertMail } from "../usage/budget.server";
import type { AccountFacts } from "../usage/ingest.server";
import type { BudgetAlert, HealthAlert } from "../usage/ledger/types";
import { type AlertEvent, budgetEvent, healthEvent } from "./events";
import { healthAlertMail } from "./mail.server";
import { webhookIds } from "./store.server";
import type { OutgoingMail } from "../mail/mail.server";

export type DecidedAlerts = { userId: string; alerts: BudgetAlert[]; health: HealthAlert[] };

/** The mails and webhook messages of a batch's alerts; D1 is read only for accounts that have webhooks. */
export async function alertNotices(
  db: Db,
  decided: DecidedAlerts[],
  facts: Map<string, AccountFacts>,
): Promise<{ mails: OutgoingMail[]; webhooks: OutgoingMessage[] }> {
  const mails: OutgoingMail[] = [];
  const events = new Map<string, Array<(id: string) => AlertEvent>>();
  for (const { userId, alerts, health } of decided) {
    const account = facts.get(userId);
    if (!account || alerts.length + health.length === 0) continue;
    if (account.budget.notificationsEnabled) {
      mails.push(...alerts.map((a) => budgetAlertMail(account.email, a)), ...health.map((a) => healthAlertMail(account.email, a)));
    }
    if (account.webhooks > 0) {
      const made = [...alerts.map((a) => (id: string) => budgetEvent(id, a)), ...health.map((a) => (id: string) => healthEvent(id, a))];
      events.set(userId, [...(events.get(userId) ?? []), ...made]);
    }
  }
  const webhooks: OutgoingMessage[] = [];
  if (events.size === 0) return { mails, webhooks };
  const hooks = await webhookIds(db, [...events.keys()]);
  for (const [userId, made] of events) {
    for (const webhookId of hooks.get(userId) ?? []) {
      for (const event of made) webhooks.push({ type: "webhook.deliver", userId, webhookId, event: event(crypto.randomUUID()) });
    }
  }
  return { mails, webhooks };
}
