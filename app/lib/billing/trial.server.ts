// "May this account start a trial": the one decision the pricing card, the billing tab and
// checkout all ask, so a card never offers a trial that checkout then does not give.
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { getSubscription } from "../subscriptions.server";
import { type TrialHistory, trialAvailable, trialNeedsStripe } from "./statuses";
import type { Stripe } from "./stripe.server";
import { log } from "../log/log.server";

/**
 * Pages show the local answer when Stripe cannot be reached (and ask again on the next view);
 * checkout must not guess, since guessing wrong gives a second trial.
 */
type WhenStripeFails = "answer-locally" | "throw";

async function stripeHadTrial(stripe: Stripe, customerId: string): Promise<boolean> {
  const subscriptions = await stripe.subscriptions.list({ customer: customerId, status: "all", limit: 100 });
  return subscriptions.data.some((s) => s.trial_start !== null);
}

/**
 * Decides from the local row; when the row has no trial but the account has a Stripe customer
 * whose history was never read, asks Stripe once and records the answer, so later views decide
 * without calling Stripe (the sync keeps the record true from then on, sync.server.ts).
 */
export async function mayStartTrial(deps: { db: Db; stripe: Stripe | null }, userId: string, whenStripeFails: WhenStripeFails): Promise<boolean> {
  const { db } = deps;
  const [subscription, profile] = await Promise.all([
    getSubscription(db, userId),
    db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, userId), columns: { stripeCustomerId: true, trialUsed: true } }),
  ]);
  return mayStartTrialGiven(deps, userId, { subscription, profile }, whenStripeFails);
}

/** mayStartTrial from rows the caller has already read (a page's session carries the profile's). */
export async function mayStartTrialGiven(
  deps: { db: Db; stripe: Stripe | null },
  userId: string,
  read: {
    subscription: { trialStart: number | null } | null | undefined;
    profile: { stripeCustomerId: string | null; trialUsed: boolean | null } | null | undefined;
  },
  whenStripeFails: WhenStripeFails,
): Promise<boolean> {
  const { db, stripe } = deps;
  const history: TrialHistory = { trialStart: read.subscription?.trialStart ?? null, trialUsed: read.profile?.trialUsed ?? null };
  const customerId = read.profile?.stripeCustomerId ?? null;
  if (!stripe || !customerId || !trialNeedsStripe(history, customerId)) return trialAvailable(history);
  let trialUsed: boolean;
  try {
    trialUsed = await stripeHadTrial(stripe, customerId);
  } catch (error) {
    if (whenStripeFails === "throw") throw error;
    log.warn("trial_history_unavailable", {}, error);
    return trialAvailable(history);
  }
  // Only fills an unknown: a true written meanwhile by the sync is never turned back.
  await db
    .update(schema.userProfiles)
    .set({ trialUsed })
    .where(and(eq(schema.userProfiles.userId, userId), isNull(schema.userProfiles.trialUsed)));
  return trialAvailable({ ...history, trialUsed });
}
