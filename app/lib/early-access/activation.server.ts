// An account is activated with early access or an active subscription (ADR 0012). Everything that
// unlocks the product (downloads, Model Analytics, what the dashboard and the API report) asks here.
import { eq } from "drizzle-orm";
import type { SessionUser } from "../auth/session.server";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { countsAsActive } from "../billing/statuses";
import { getSubscription } from "../subscriptions.server";
import { earlyAccessColumns, hasEarlyAccess } from "./keys.server";

export type Activation = { activated: boolean; subscription: boolean; earlyAccess: boolean; earlyAccessExpiresAt: number | null };

/** The rule itself, for callers that already hold the subscription and the profile's early-access columns. */
export function activationOf(subscription: Parameters<typeof countsAsActive>[0], profile: Parameters<typeof hasEarlyAccess>[0], now = Date.now()): Activation {
  const paid = countsAsActive(subscription, now);
  const early = hasEarlyAccess(profile, now);
  return { activated: paid || early, subscription: paid, earlyAccess: early, earlyAccessExpiresAt: early ? (profile?.earlyAccessExpiresAt ?? null) : null };
}

export async function accountActivation(db: Db, userId: string, now = Date.now()): Promise<Activation> {
  const [subscription, profile] = await Promise.all([
    getSubscription(db, userId),
    db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, userId), columns: earlyAccessColumns }),
  ]);
  return activationOf(subscription, profile, now);
}

export async function isAccountActivated(db: Db, userId: string, now = Date.now()): Promise<boolean> {
  return (await accountActivation(db, userId, now)).activated;
}

/** A signed-in user's activation: from the rows their session's statement read (a GET), else read now. */
export async function userActivation(db: Db, user: SessionUser, now = Date.now()): Promise<Activation> {
  if (user.accountRows) return activationOf(user.accountRows.subscription, user.profile, now);
  return accountActivation(db, user.id, now);
}
