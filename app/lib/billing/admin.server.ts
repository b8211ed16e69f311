// Admin-only subscription tools (the spec's debug tab), each change written to the audit log.
// Ordinary users can change their subscription only through Stripe.
import { desc, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { type RevocationDeps, revokeAccountAccess } from "../auth/revocation.server";
import { MS } from "../constants";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { getSubscription, type SubscriptionRow } from "../subscriptions.server";
import type { Stripe } from "./stripe.server";
import type { ADMIN_STATUSES } from "./statuses";
import { subscriptionUpsert } from "./sync.server";

const COMPLIMENTARY_DAYS = 365;

export type AdminResult = {
  ok: boolean;
  message: string;
  subscription?: SubscriptionRow | null;
  audit?: Array<{ action: string; createdAt: number; actor: string }>;
};

async function target(db: Db, email: string) {
  return db.query.users.findFirst({ where: eq(schema.users.email, email.toLowerCase()), columns: { id: true, email: true } });
}

function auditInsert(db: Db, actorId: string, targetId: string, action: string, details: Record<string, unknown>) {
  return db.insert(schema.auditLog).values({ id: crypto.randomUUID(), actorUserId: actorId, targetUserId: targetId, action, details, createdAt: Date.now() });
}

async function recentAudit(db: Db, targetId: string) {
  const rows = await db
    .select({ action: schema.auditLog.action, createdAt: schema.auditLog.createdAt, actor: sql<string>`coalesce(${schema.users.email}, 'system')` })
    .from(schema.auditLog)
    .leftJoin(schema.users, eq(schema.users.id, schema.auditLog.actorUserId))
    .where(eq(schema.auditLog.targetUserId, targetId))
    .orderBy(desc(schema.auditLog.createdAt))
    .limit(10);
  return rows;
}

export async function adminLookup(db: Db, actor: { id: string; email: string }, email: string): Promise<AdminResult> {
  const user = await target(db, email);
  if (!user) return { ok: false, message: `No account found for ${email}` };
  const subscription = (await getSubscription(db, user.id)) ?? null;
  const self = user.id === actor.id;
  if (!subscription)
    return {
      ok: true,
      message: self ? "No subscription found for current user" : `No subscription found for ${user.email}`,
      subscription: null,
      audit: await recentAudit(db, user.id),
    };
  return { ok: true, message: "Subscription data retrieved", subscription, audit: await recentAudit(db, user.id) };
}

/** The spec's "emergency fix", for admins: a complimentary year of the paid plan, audited. */
export async function adminGrantYear(db: Db, actor: { id: string; email: string }, email: string, now = Date.now()): Promise<AdminResult> {
  const user = await target(db, email);
  if (!user) return { ok: false, message: `Failed to fix subscription: no account found for ${email}` };
  const before = (await getSubscription(db, user.id)) ?? null;
  const values = {
    status: "active" as const,
    currentPeriodStart: now,
    currentPeriodEnd: now + COMPLIMENTARY_DAYS * MS.DAY,
    cancelAt: null,
    canceledAt: null,
    endedAt: null,
    // Who granted it is in the audit log: the account's own row names no other person.
    metadata: { complimentary: true },
    updatedAt: now,
  };
  const statements: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] = [
    db
      .insert(schema.subscriptions)
      .values({ id: crypto.randomUUID(), userId: user.id, createdAt: now, ...values })
      .onConflictDoUpdate({ target: schema.subscriptions.userId, set: values }),
    auditInsert(db, actor.id, user.id, "subscription.grant_year", { before, after: values }),
  ];
  await db.batch(statements);
  const self = user.id === actor.id;
  return {
    ok: true,
    message: self ? "Subscription fixed for current user" : `Subscription fixed for ${user.email}`,
    subscription: (await getSubscription(db, user.id)) ?? null,
    audit: await recentAudit(db, user.id),
  };
}

export async function adminSetStatus(
  db: Db,
  actor: { id: string; email: string },
  email: string,
  status: (typeof ADMIN_STATUSES)[number],
  now = Date.now(),
): Promise<AdminResult> {
  const user = await target(db, email);
  if (!user) return { ok: false, message: `No account found for ${email}` };
  const before = await getSubscription(db, user.id);
  if (!before) return { ok: false, message: user.id === actor.id ? "No subscription found for current user" : `No subscription found for ${user.email}` };
  await db.batch([
    db.update(schema.subscriptions).set({ status, updatedAt: now }).where(eq(schema.subscriptions.userId, user.id)),
    auditInsert(db, actor.id, user.id, "subscription.set_status", { from: before.status, to: status }),
  ]);
  return {
    ok: true,
    message: "Subscription updated successfully",
    subscription: (await getSubscription(db, user.id)) ?? null,
    audit: await recentAudit(db, user.id),
  };
}

/** Re-reads the user's subscription from Stripe and stores what Stripe says. */
export async function adminSyncFromStripe(db: Db, stripe: Stripe | null, actor: { id: string; email: string }, email: string): Promise<AdminResult> {
  const user = await target(db, email);
  if (!user) return { ok: false, message: `No account found for ${email}` };
  const stored = await getSubscription(db, user.id);
  if (!stripe || !stored?.stripeSubscriptionId) return { ok: false, message: "No Stripe subscription to sync for this account" };
  const upsert = await subscriptionUpsert(db, stripe, { subscriptionId: stored.stripeSubscriptionId, customerId: stored.stripeCustomerId, userId: user.id });
  if (!upsert) return { ok: false, message: "Stripe has no newer state for this account" };
  await db.batch([auditInsert(db, actor.id, user.id, "subscription.sync_from_stripe", { status: upsert.status }), ...upsert.statements]);
  return {
    ok: true,
    message: "Subscription updated successfully",
    subscription: (await getSubscription(db, user.id)) ?? null,
    audit: await recentAudit(db, user.id),
  };
}

/**
 * For an account reported as compromised: every session, device key, approved device code,
 * pending e-mail change and e-mail link of the account ends (revokeAccountAccess), audited.
 */
export async function adminSignOutEverywhere(
  deps: RevocationDeps,
  actor: { id: string; email: string },
  email: string,
  now = Date.now(),
): Promise<AdminResult> {
  const { db } = deps;
  const user = await target(db, email);
  if (!user) return { ok: false, message: `No account found for ${email}` };
  const ended = await revokeAccountAccess(deps, user.id, "ended_by_admin", { now });
  await auditInsert(db, actor.id, user.id, "account.sign_out_everywhere", { sessionsEnded: ended });
  const who = user.id === actor.id ? "your account" : user.email;
  return { ok: true, message: `Signed ${who} out everywhere: ${ended} ${ended === 1 ? "session" : "sessions"} ended.`, audit: await recentAudit(db, user.id) };
}
