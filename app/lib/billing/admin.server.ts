// Admin-only subscription tools (the spec's debug tab), each change written to the audit log.
// Ordinary users can change their subscription only through Stripe.
import { desc, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { type RevocationDeps, revokeAccountAccess } from "../auth/revocation.server";
import { MS } from "../constants";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { getSubscription, type SubscriptionRow } from "../subscriptions.server";
import { log } from "../log/log.server";
import type { Stripe } from "./stripe.server";
import { type ADMIN_STATUSES, fromStripeStatus, isLive } from "./statuses";
import { subscriptionUpsert } from "./sync.server";

const COMPLIMENTARY_DAYS = 365;

/**
 * What Stripe says about the account, read through the SDK when asked (issue 46): shown beside the
 * local row, which a grant or a status set by hand makes differ from it until Stripe's next event.
 */
export type StripeView =
  | { kind: "no-customer" }
  | { kind: "unavailable" }
  | {
      kind: "customer";
      customerId: string;
      /** Its live subscription, else its newest; null when it has none. */
      subscription: { id: string; status: string; currentPeriodEnd: number | null; trialEnd: number | null; cancelAt: number | null } | null;
    };

export type AdminResult = {
  ok: boolean;
  message: string;
  /** The account the answer is about. */
  account?: { email: string };
  subscription?: SubscriptionRow | null;
  stripe?: StripeView;
  /** A grant asked for and not yet confirmed: nothing changed; the page asks before a second POST does it. */
  confirm?: { intent: "grant-year"; email: string; until: number };
  audit?: Array<{ action: string; createdAt: number; actor: string }>;
};

async function target(db: Db, email: string) {
  return db.query.users.findFirst({ where: eq(schema.users.email, email.toLowerCase()), columns: { id: true, email: true } });
}

const ms = (seconds: number | null | undefined) => (seconds ? seconds * 1000 : null);

/** The account's Stripe customer, as the profile or the subscription row remembers it. */
async function customerOf(db: Db, userId: string, stored: SubscriptionRow | null): Promise<string | null> {
  const profile = await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, userId), columns: { stripeCustomerId: true } });
  return profile?.stripeCustomerId ?? stored?.stripeCustomerId ?? null;
}

async function stripeView(db: Db, stripe: Stripe | null, userId: string, stored: SubscriptionRow | null): Promise<StripeView> {
  const customerId = await customerOf(db, userId, stored);
  if (!customerId) return { kind: "no-customer" };
  if (!stripe) return { kind: "unavailable" };
  try {
    const list = await stripe.subscriptions.list({ customer: customerId, status: "all", limit: 10 });
    const newest = [...list.data].sort((a, b) => b.created - a.created);
    const shown = newest.find((sub) => isLive(fromStripeStatus(sub.status))) ?? newest[0];
    if (!shown) return { kind: "customer", customerId, subscription: null };
    const legacy = shown as unknown as { current_period_end?: number };
    return {
      kind: "customer",
      customerId,
      subscription: {
        id: shown.id,
        status: shown.status,
        currentPeriodEnd: ms(shown.items?.data?.[0]?.current_period_end ?? legacy.current_period_end),
        trialEnd: ms(shown.trial_end),
        cancelAt: ms(shown.cancel_at),
      },
    };
  } catch (error) {
    log.warn("admin_stripe_read_failed", {}, error);
    return { kind: "unavailable" };
  }
}

/** The account's state on both sides, and its recent audit: what every tool answers with. */
async function stateOf(db: Db, stripe: Stripe | null, user: { id: string; email: string }) {
  const subscription = (await getSubscription(db, user.id)) ?? null;
  const [stripeState, audit] = await Promise.all([stripeView(db, stripe, user.id, subscription), recentAudit(db, user.id)]);
  return { account: { email: user.email }, subscription, stripe: stripeState, audit };
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

export async function adminLookup(db: Db, stripe: Stripe | null, actor: { id: string; email: string }, email: string): Promise<AdminResult> {
  const user = await target(db, email);
  if (!user) return { ok: false, message: `No account found for ${email}` };
  const state = await stateOf(db, stripe, user);
  if (!state.subscription)
    return { ok: true, message: user.id === actor.id ? "No subscription found for current user" : `No subscription found for ${user.email}`, ...state };
  return { ok: true, message: "Subscription data retrieved", ...state };
}

/**
 * The grant's first step: names the account and what the grant does, next to what Stripe says,
 * and changes nothing. Only a second POST that confirms it (adminGrantYear) grants.
 */
export async function adminConfirmGrantYear(
  db: Db,
  stripe: Stripe | null,
  actor: { id: string; email: string },
  email: string,
  now = Date.now(),
): Promise<AdminResult> {
  const user = await target(db, email);
  if (!user) return { ok: false, message: `Failed to fix subscription: no account found for ${email}` };
  const who = user.id === actor.id ? "your own account" : user.email;
  return {
    ok: true,
    message: `Nothing has changed yet. Confirm the grant for ${who} below.`,
    confirm: { intent: "grant-year", email: user.email, until: now + COMPLIMENTARY_DAYS * MS.DAY },
    ...(await stateOf(db, stripe, user)),
  };
}

/** The spec's "emergency fix", for admins: a complimentary year of the paid plan, audited. */
export async function adminGrantYear(
  db: Db,
  stripe: Stripe | null,
  actor: { id: string; email: string },
  email: string,
  now = Date.now(),
): Promise<AdminResult> {
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
    ...(await stateOf(db, stripe, user)),
  };
}

export async function adminSetStatus(
  db: Db,
  stripe: Stripe | null,
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
  return { ok: true, message: "Subscription updated successfully", ...(await stateOf(db, stripe, user)) };
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
  return { ok: true, message: "Subscription updated successfully", ...(await stateOf(db, stripe, user)) };
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
