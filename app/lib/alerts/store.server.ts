// An account's alert rules and webhooks in D1 (issue 49, ADR 0033): every read and write names the
// account, so one account's ids never reach another's rows. Limits per account are checked by the
// insert itself (one statement), so parallel adds cannot pass them.
import { and, eq, inArray, lt } from "drizzle-orm";
import { HEALTH_ALERTS, WEBHOOKS } from "../constants";
import { type Db, schema } from "../db.server";
import type { HealthRule } from "../usage/ledger/types";

export type RuleKind = HealthRule["kind"];
export type WebhookDelivery = {
  id: string;
  eventType: string;
  attempt: number;
  statusCode: number | null;
  error: string | null;
  ok: boolean;
  deliveredAt: number;
};
export type WebhookView = { id: string; url: string; createdAt: number; deliveries: WebhookDelivery[] };

export async function listRules(db: Db, userId: string): Promise<Array<HealthRule & { createdAt: number }>> {
  const r = schema.alertRules;
  return db.select({ id: r.id, kind: r.kind, threshold: r.threshold, createdAt: r.createdAt }).from(r).where(eq(r.userId, userId)).orderBy(r.createdAt, r.id);
}

/** Adds a rule unless the account has HEALTH_ALERTS.maxRulesPerAccount; false when it has. */
export async function addRule(db: Db, userId: string, kind: RuleKind, threshold: number, now = Date.now()): Promise<boolean> {
  const result = await db.$client
    .prepare(
      `INSERT INTO alert_rules (id, user_id, kind, threshold, created_at)
       SELECT ?, ?, ?, ?, ? WHERE (SELECT count(*) FROM alert_rules WHERE user_id = ?) < ?`,
    )
    .bind(crypto.randomUUID(), userId, kind, threshold, now, userId, HEALTH_ALERTS.maxRulesPerAccount)
    .run();
  return result.meta.changes === 1;
}

export async function deleteRule(db: Db, userId: string, id: string): Promise<boolean> {
  const r = schema.alertRules;
  const gone = await db
    .delete(r)
    .where(and(eq(r.id, id), eq(r.userId, userId)))
    .returning({ id: r.id });
  return gone.length === 1;
}

/** The account's webhooks, oldest first, each with its newest deliveries. */
export async function listWebhooks(db: Db, userId: string): Promise<WebhookView[]> {
  const w = schema.webhooks;
  const hooks = await db.select({ id: w.id, url: w.url, createdAt: w.createdAt }).from(w).where(eq(w.userId, userId)).orderBy(w.createdAt, w.id);
  if (hooks.length === 0) return [];
  const rows = await db.$client
    .prepare(
      `SELECT id, webhook_id, event_type, attempt, status_code, error, ok, delivered_at FROM (
         SELECT d.*, row_number() OVER (PARTITION BY d.webhook_id ORDER BY d.delivered_at DESC, d.id) AS n
         FROM webhook_deliveries AS d JOIN webhooks AS w ON w.id = d.webhook_id WHERE w.user_id = ?
       ) WHERE n <= ? ORDER BY delivered_at DESC, id`,
    )
    .bind(userId, WEBHOOKS.deliveriesShown)
    .all<Record<string, string | number | null>>();
  return hooks.map((hook) => ({
    ...hook,
    deliveries: rows.results
      .filter((d) => d.webhook_id === hook.id)
      .map((d) => ({
        id: String(d.id),
        eventType: String(d.event_type),
        attempt: Number(d.attempt),
        statusCode: d.status_code === null ? null : Number(d.status_code),
        error: d.error === null ? null : String(d.error),
        ok: Number(d.ok) === 1,
        deliveredAt: Number(d.delivered_at),
      })),
  }));
}

/** Adds a webhook unless the account has WEBHOOKS.maxPerAccount; its id, or null when it has. */
export async function addWebhook(db: Db, userId: string, url: string, secretEnc: string, now = Date.now()): Promise<string | null> {
  const id = crypto.randomUUID();
  const result = await db.$client
    .prepare(
      `INSERT INTO webhooks (id, user_id, url, secret_enc, created_at)
       SELECT ?, ?, ?, ?, ? WHERE (SELECT count(*) FROM webhooks WHERE user_id = ?) < ?`,
    )
    .bind(id, userId, url, secretEnc, now, userId, WEBHOOKS.maxPerAccount)
    .run();
  return result.meta.changes === 1 ? id : null;
}

export async function deleteWebhook(db: Db, userId: string, id: string): Promise<boolean> {
  const w = schema.webhooks;
  const gone = await db
    .delete(w)
    .where(and(eq(w.id, id), eq(w.userId, userId)))
    .returning({ id: w.id });
  return gone.length === 1;
}

/** The webhooks of the accounts that have alerts to send: their ids, by account. */
export async function webhookIds(db: Db, userIds: string[]): Promise<Map<string, string[]>> {
  const byUser = new Map<string, string[]>();
  if (userIds.length === 0) return byUser;
  const w = schema.webhooks;
  const rows = await db.select({ id: w.id, userId: w.userId }).from(w).where(inArray(w.userId, userIds)).orderBy(w.createdAt, w.id);
  for (const row of rows) byUser.set(row.userId, [...(byUser.get(row.userId) ?? []), row.id]);
  return byUser;
}

/** One webhook of one account, for a delivery; null when it was removed since. */
export async function webhookOf(db: Db, userId: string, id: string) {
  const w = schema.webhooks;
  const [row] = await db
    .select({ url: w.url, secretEnc: w.secretEnc })
    .from(w)
    .where(and(eq(w.id, id), eq(w.userId, userId)))
    .limit(1);
  return row ?? null;
}

/** Notes one attempt, and forgets the webhook's deliveries older than WEBHOOKS.deliveriesKeptMs. */
export async function recordDelivery(db: Db, webhookId: string, d: Omit<WebhookDelivery, "id"> & { eventId: string }): Promise<void> {
  const t = schema.webhookDeliveries;
  await db.batch([
    db
      .insert(t)
      .values({ id: `${d.eventId}:${d.attempt}`, webhookId, ...d })
      .onConflictDoUpdate({ target: t.id, set: { statusCode: d.statusCode, error: d.error, ok: d.ok, deliveredAt: d.deliveredAt } }),
    db.delete(t).where(and(eq(t.webhookId, webhookId), lt(t.deliveredAt, d.deliveredAt - WEBHOOKS.deliveriesKeptMs))),
  ]);
}
