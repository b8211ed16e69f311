// An account is activated with early access, an active subscription (ADR 0012) or a seat in a paid team (ADR 0037). Everything that
// unlocks the product (downloads, Model Analytics, what the dashboard and the API report) asks here.
import { eq } from "drizzle-orm";
import type { SessionUser } from "../auth/session.server";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { countsAsActive } from "../billing/statuses";
import { teamPaidUntilSql, teamSeatActive } from "../billing/team-entitlement.server";
import { getSubscription } from "../subscriptions.server";
import { earlyAccessColumns, hasEarlyAccess } from "./keys.server";

/** `subscription`: the account's own; `team`: a seat in a team with a paid Team plan (ADR 0037). */
export type Activation = { activated: boolean; subscription: boolean; team: boolean; earlyAccess: boolean; earlyAccessExpiresAt: number | null };

/**
 * The rule itself, for callers that already hold the subscription, the profile's early-access
 * columns and until when a team of the account is paid (billing/team-entitlement.server.ts).
 */
export function activationOf(
  subscription: Parameters<typeof countsAsActive>[0],
  profile: Parameters<typeof hasEarlyAccess>[0],
  now = Date.now(),
  teamPaidUntil: number | null = null,
): Activation {
  const paid = countsAsActive(subscription, now);
  const team = teamSeatActive(teamPaidUntil, now);
  const early = hasEarlyAccess(profile, now);
  return {
    activated: paid || team || early,
    subscription: paid,
    team,
    earlyAccess: early,
    earlyAccessExpiresAt: early ? (profile?.earlyAccessExpiresAt ?? null) : null,
  };
}

export async function accountActivation(db: Db, userId: string, now = Date.now()): Promise<Activation> {
  const [subscription, profile] = await Promise.all([
    getSubscription(db, userId),
    // The team seat rides on the profile's statement: no D1 read of its own.
    db.query.userProfiles.findFirst({
      where: eq(schema.userProfiles.userId, userId),
      columns: earlyAccessColumns,
      extras: { teamPaidUntil: teamPaidUntilSql(userId).as("team_paid_until") },
    }),
  ]);
  return activationOf(subscription, profile, now, profile?.teamPaidUntil ?? null);
}

export async function isAccountActivated(db: Db, userId: string, now = Date.now()): Promise<boolean> {
  return (await accountActivation(db, userId, now)).activated;
}

/** A signed-in user's activation: from the rows their session's statement read (a GET), else read now. */
export async function userActivation(db: Db, user: SessionUser, now = Date.now()): Promise<Activation> {
  if (user.accountRows) return activationOf(user.accountRows.subscription, user.profile, now, user.accountRows.teamPaidUntil);
  return accountActivation(db, user.id, now);
}
