// What the consumer does with a verified Stripe webhook (routes/api/stripe/webhook.ts enqueues it as a
// stripe.event message): the subscription it is about, re-read from Stripe and stored.
import { eq } from "drizzle-orm";
import type { StripeConfig } from "../config";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import type { StripeEventMessage } from "../queue";
import { getStripe } from "./stripe.server";
import { retrieveForSync, subscriptionUpsert } from "./sync.server";
import { isTeamSubscription, teamSubscriptionUpsert } from "./team-sync.server";

/**
 * Applies one Stripe event at most once: the processed-event row is written in the same D1
 * batch as the subscription change, so a redelivery either sees it and stops, or (after a
 * failure) finds nothing written and does the whole thing again.
 */
export async function handleStripeEvent(deps: { db: Db; env: StripeConfig }, message: StripeEventMessage): Promise<void> {
  const done = await deps.db.query.processedMessages.findFirst({ where: eq(schema.processedMessages.id, message.eventId) });
  if (done) return;
  const stripe = getStripe(deps.env);
  if (!stripe) throw new Error("Stripe is not configured");
  // One read of the subscription decides whose it is: a team's (metadata team_id) or an account's.
  const subscription = message.subscriptionId ? await retrieveForSync(stripe, message.subscriptionId) : null;
  const upsert =
    subscription && isTeamSubscription(subscription)
      ? await teamSubscriptionUpsert(deps.db, stripe, subscription)
      : await subscriptionUpsert(deps.db, stripe, message, Date.now(), subscription ?? undefined);
  const mark = deps.db.insert(schema.processedMessages).values({ id: message.eventId, kind: `stripe:${message.eventType}`, processedAt: Date.now() });
  await deps.db.batch([mark, ...(upsert?.statements ?? [])]);
}
