// Turns Stripe's view of a team's subscription (the Team plan, metadata team_id) into the team's
// team_subscriptions row and its seats (ADR 0037). Like the personal sync (sync.server.ts), it
// stores what Stripe reports now, never an event's copy.
import { eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { TEAMS } from "../constants";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { log } from "../log/log.server";
import { recordActivity } from "../teams/activity.server";
import { fromStripeStatus, isLive, isPaid } from "./statuses";
import type { Stripe } from "./stripe.server";

const ms = (seconds: number | null | undefined) => (seconds === null || seconds === undefined ? null : seconds * 1000);
const idOf = (value: string | { id: string } | null | undefined) => (!value ? null : typeof value === "string" ? value : value.id);

/** Whether a subscription is a team's: its metadata names the team (set by team checkout). */
export function isTeamSubscription(subscription: Pick<Stripe.Subscription, "metadata">): boolean {
  return Boolean(subscription.metadata?.team_id);
}

/** The team a subscription is for: its metadata's team, else the team whose Stripe customer it is. */
async function findTeam(db: Db, subscription: Stripe.Subscription) {
  const columns = { id: true, stripeCustomerId: true } as const;
  const byMetadata = await db.query.teams.findFirst({ where: eq(schema.teams.id, subscription.metadata.team_id!), columns });
  if (byMetadata) return byMetadata;
  const customer = idOf(subscription.customer as string);
  return customer ? db.query.teams.findFirst({ where: eq(schema.teams.stripeCustomerId, customer), columns }) : undefined;
}

/**
 * One team, one live subscription: a second one paid beside a live one (two checkouts open side by
 * side) is cancelled at once, prorated, so the team is not billed twice. True when it was.
 */
async function cancelDuplicate(stripe: Stripe, incoming: Stripe.Subscription, keptId: string): Promise<true> {
  try {
    await stripe.subscriptions.cancel(incoming.id, { prorate: true, invoice_now: true }, { idempotencyKey: `modelify-cancel-team-duplicate-${incoming.id}` });
  } catch (error) {
    // Already cancelled by a concurrent consumer: the outcome is the same.
    if ((error as { statusCode?: number }).statusCode !== 400) throw error;
  }
  log.warn("team_subscription_duplicate_canceled", { subscription: incoming.id, kept: keptId });
  return true;
}

/**
 * Statements that store a team's subscription as Stripe reports it, for one db.batch with the
 * caller's bookkeeping; null when there is nothing to store (unknown team, a late event about an
 * older ended subscription, or a duplicate just cancelled).
 *
 * Seats: while the subscription is paid (trial or active) the team holds `quantity` seats. Once it
 * is not, the team falls back to TEAMS.unpaidSeats, but never below its current members: nobody is
 * removed for an unpaid invoice, and nobody else joins until the team is back within its seats.
 * `actorId`: the owner whose seat change this stores at once (the webhook's copy then changes nothing).
 */
export async function teamSubscriptionUpsert(db: Db, stripe: Stripe, subscription: Stripe.Subscription, actorId: string | null = null, now = Date.now()) {
  const team = await findTeam(db, subscription);
  if (!team) {
    log.warn("team_subscription_unknown_team", { subscription: subscription.id });
    return null;
  }
  const stored = await db.query.teamSubscriptions.findFirst({ where: eq(schema.teamSubscriptions.teamId, team.id) });
  const status = fromStripeStatus(subscription.status);
  const replacing = stored?.stripeSubscriptionId && stored.stripeSubscriptionId !== subscription.id && isLive(stored.status);
  if (replacing && !isLive(status)) return null; // a late event about an older, ended subscription
  if (replacing && isPaid(stored) && (await cancelDuplicate(stripe, subscription, stored.stripeSubscriptionId!))) return null;

  const item = subscription.items?.data?.[0];
  const quantity = item?.quantity ?? 1;
  const customerId = idOf(subscription.customer as string);
  const values = {
    status,
    stripeSubscriptionId: subscription.id,
    stripeCustomerId: customerId,
    stripePriceId: item?.price?.id ?? null,
    quantity,
    currentPeriodStart: ms(item?.current_period_start),
    currentPeriodEnd: ms(item?.current_period_end),
    trialStart: ms(subscription.trial_start),
    trialEnd: ms(subscription.trial_end),
    cancelAt: ms(subscription.cancel_at),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    canceledAt: ms(subscription.canceled_at),
    endedAt: ms(subscription.ended_at),
    updatedAt: now,
  };
  const paid = isPaid({ status });
  const members = sql`(select count(*) from ${schema.teamMembers} where ${schema.teamMembers.teamId} = ${team.id})`;
  const statements: BatchItem<"sqlite">[] = [
    db
      .insert(schema.teamSubscriptions)
      .values({ id: crypto.randomUUID(), teamId: team.id, createdAt: now, ...values })
      .onConflictDoUpdate({ target: schema.teamSubscriptions.teamId, set: values }),
    db
      .update(schema.teams)
      .set({
        seats: paid ? quantity : sql`max(${TEAMS.unpaidSeats}, ${members})`,
        // A trial seen on any of the team's subscriptions is its one trial (checkout claims it first).
        ...(subscription.trial_start !== null ? { trialUsed: true } : {}),
        ...(customerId && !team.stripeCustomerId ? { stripeCustomerId: customerId } : {}),
        updatedAt: now,
      })
      .where(eq(schema.teams.id, team.id)),
  ];
  const seatsBefore = stored && isPaid(stored) ? stored.quantity : null;
  if (paid && seatsBefore !== quantity) {
    statements.push(
      recordActivity(db, {
        teamId: team.id,
        actorId,
        action: "seats_changed",
        details: { from: seatsBefore, to: quantity, source: actorId ? "owner" : "stripe", subscription: subscription.id },
        at: now,
      }),
    );
  }
  return { teamId: team.id, status, statements };
}
