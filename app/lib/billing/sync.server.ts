// Turns Stripe's view of a subscription into our subscriptions row and profile fields.
// Always re-reads the subscription from Stripe: events arrive late, twice and out of order,
// so the event body is only a hint of what to re-read, never the state to store.
import { milestoneInsert } from "../marketing/events.server";
import { eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { fromStripeStatus, isLive, isPaid } from "./statuses";
import type { Stripe } from "./stripe.server";
import { isTeamSubscription } from "./team-sync.server";
import { log } from "../log/log.server";

const ms = (seconds: number | null | undefined) => (seconds === null || seconds === undefined ? null : seconds * 1000);

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === "string" ? value : value.id;
}

export type SubscriptionHints = { subscriptionId: string | null; customerId: string | null; userId: string | null };

/** Which subscription, customer and user an event is about, from the verified event. */
export function hintsFromEvent(event: Stripe.Event): SubscriptionHints {
  const object = event.data.object as unknown as Record<string, unknown>;
  const hints: SubscriptionHints = { subscriptionId: null, customerId: idOf(object.customer as string | null), userId: null };
  if (event.type.startsWith("customer.subscription.")) {
    hints.subscriptionId = String(object.id);
    hints.userId = ((object.metadata as Record<string, string> | undefined)?.user_id ?? null) || null;
  } else if (event.type.startsWith("checkout.session.")) {
    hints.subscriptionId = idOf(object.subscription as string | null);
    hints.userId = (object.client_reference_id as string | null) ?? null;
  } else if (event.type.startsWith("invoice.")) {
    const parent = object.parent as { subscription_details?: { subscription?: string | { id: string } } } | null;
    hints.subscriptionId = idOf(parent?.subscription_details?.subscription ?? (object.subscription as string | null));
  }
  return hints;
}

/**
 * Whose subscription it is, from what Stripe says now: the subscription's own metadata, then the
 * customer it belongs to. The event's copy (hints.userId) is only a last resort: it may be stale
 * or wrong, and Stripe's fresh data wins over it.
 */
async function findUserId(db: Db, hints: SubscriptionHints, subscription: Stripe.Subscription): Promise<string | null> {
  const fromMetadata = subscription.metadata?.user_id;
  if (fromMetadata) {
    const user = await db.query.users.findFirst({ where: eq(schema.users.id, fromMetadata), columns: { id: true } });
    if (user) return user.id;
  }
  const customerId = idOf(subscription.customer as string);
  if (customerId) {
    const profile = await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.stripeCustomerId, customerId), columns: { userId: true } });
    if (profile) return profile.userId;
  }
  if (hints.userId && !fromMetadata && !customerId) {
    const user = await db.query.users.findFirst({ where: eq(schema.users.id, hints.userId), columns: { id: true } });
    if (user) return user.id;
  }
  if (hints.userId && hints.userId !== fromMetadata) {
    log.warn("stripe_hint_ignored", { subscription: subscription.id, hintUserId: hints.userId });
  }
  return null;
}

/**
 * One account, one live subscription. When Stripe reports more than one for the customer (two
 * checkouts paid side by side), the oldest trialing or active one stays and the others are
 * cancelled at once, prorated, so the customer is not billed twice; each cancellation is audited.
 * Returns the subscription to store.
 */
async function keepOneLiveSubscription(db: Db, stripe: Stripe, userId: string, customerId: string, incoming: Stripe.Subscription) {
  const all = await stripe.subscriptions.list({ customer: customerId, status: "all", limit: 100 });
  // The whole history is at hand: a trial on any subscription, even one cancelled below, is the account's one trial.
  const trialSeen = all.data.some((s) => s.trial_start !== null);
  const live = all.data.filter((s) => isLive(fromStripeStatus(s.status)));
  if (live.length <= 1) return { subscription: incoming, audit: [], trialSeen };
  const byAge = [...live].sort((a, b) => a.created - b.created || a.id.localeCompare(b.id));
  const keep = byAge.find((s) => isPaid({ status: fromStripeStatus(s.status) })) ?? byAge[0]!;
  const audit: BatchItem<"sqlite">[] = [];
  for (const extra of byAge.filter((s) => s.id !== keep.id)) {
    try {
      await stripe.subscriptions.cancel(extra.id, { prorate: true, invoice_now: true }, { idempotencyKey: `modelify-cancel-duplicate-${extra.id}` });
    } catch (error) {
      // Already cancelled by a concurrent consumer: the outcome is the same.
      if ((error as { statusCode?: number }).statusCode !== 400) throw error;
    }
    audit.push(
      db.insert(schema.auditLog).values({
        id: crypto.randomUUID(),
        actorUserId: null,
        targetUserId: userId,
        action: "subscription.cancel_duplicate",
        details: { canceled: extra.id, kept: keep.id, customer: customerId, status: extra.status, trial: extra.trial_start !== null },
        createdAt: Date.now(),
      }),
    );
  }
  const subscription = keep.id === incoming.id ? incoming : await stripe.subscriptions.retrieve(keep.id, { expand: ["default_payment_method"] });
  return { subscription, audit, trialSeen };
}

function cardLast4(pm: Stripe.Subscription["default_payment_method"]): string | null {
  return pm && typeof pm !== "string" ? (pm.card?.last4 ?? null) : null;
}

/** The subscription as Stripe reports it now, with what the sync stores of its card. */
export function retrieveForSync(stripe: Stripe, subscriptionId: string): Promise<Stripe.Subscription> {
  return stripe.subscriptions.retrieve(subscriptionId, { expand: ["default_payment_method"] });
}

/**
 * Statements that store the subscription as Stripe reports it now, for one db.batch with the
 * caller's own bookkeeping (e.g. the processed-event row). Returns null when there is nothing
 * to store: unknown user, or a stale, ended subscription that must not replace a live one.
 */
export async function subscriptionUpsert(db: Db, stripe: Stripe, hints: SubscriptionHints, now = Date.now(), retrieved?: Stripe.Subscription) {
  if (!hints.subscriptionId) return null;
  let subscription: Stripe.Subscription = retrieved ?? (await retrieveForSync(stripe, hints.subscriptionId));
  // A team's subscription is the team's (team-sync.server.ts), never its owner's personal plan.
  if (isTeamSubscription(subscription)) return null;
  const userId = await findUserId(db, hints, subscription);
  if (!userId) return null;

  const stored = await db.query.subscriptions.findFirst({ where: eq(schema.subscriptions.userId, userId) });
  const audit: BatchItem<"sqlite">[] = [];
  let trialSeen = subscription.trial_start !== null;
  const customer = idOf(subscription.customer as string);
  if (customer && isLive(fromStripeStatus(subscription.status)) && stored?.stripeSubscriptionId !== subscription.id) {
    // A live subscription we have not stored for this account: make sure it is the only one.
    const resolved = await keepOneLiveSubscription(db, stripe, userId, customer, subscription);
    subscription = resolved.subscription;
    audit.push(...resolved.audit);
    trialSeen ||= resolved.trialSeen;
  }

  const status = fromStripeStatus(subscription.status);
  if (stored?.stripeSubscriptionId && stored.stripeSubscriptionId !== subscription.id && isLive(stored.status) && !isLive(status)) {
    return null; // a late event about an older, ended subscription
  }

  const item = subscription.items?.data?.[0];
  const legacy = subscription as unknown as { current_period_start?: number; current_period_end?: number };
  const customerId = idOf(subscription.customer as string);
  const values = {
    status,
    stripeSubscriptionId: subscription.id,
    stripeCustomerId: customerId,
    stripePriceId: item?.price?.id ?? null,
    currentPeriodStart: ms(item?.current_period_start ?? legacy.current_period_start),
    currentPeriodEnd: ms(item?.current_period_end ?? legacy.current_period_end),
    trialStart: ms(subscription.trial_start),
    trialEnd: ms(subscription.trial_end),
    cancelAt: ms(subscription.cancel_at),
    canceledAt: ms(subscription.canceled_at),
    endedAt: ms(subscription.ended_at),
    metadata: { ...subscription.metadata, cancel_at_period_end: subscription.cancel_at_period_end },
    updatedAt: now,
  };
  const last4 = cardLast4(subscription.default_payment_method);
  const statements: BatchItem<"sqlite">[] = [
    ...audit,
    db
      .insert(schema.subscriptions)
      .values({ id: crypto.randomUUID(), userId, createdAt: now, ...values })
      .onConflictDoUpdate({ target: schema.subscriptions.userId, set: values }),
    db
      .update(schema.userProfiles)
      .set({
        ...(last4 ? { paymentMethodLast4: last4 } : {}),
        ...(customerId ? { stripeCustomerId: customerId } : {}),
        // The row above keeps only this subscription's trial; the account's one trial is remembered here.
        ...(trialSeen ? { trialUsed: true } : {}),
        updatedAt: now,
      })
      .where(eq(schema.userProfiles.userId, userId)),
  ];
  // The funnel's milestones, once per account: the first trial, the first paid period.
  if (status === "trial") statements.push(milestoneInsert(db, "StartTrial", userId, now));
  if (status === "active") statements.push(milestoneInsert(db, "Subscribe", userId, now));
  return { userId, status, statements };
}
