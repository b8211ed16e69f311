// The entitlement call (GET /api/v1/entitlements): what the account may do now. Free accounts
// have the spec's limits (FREE_TIER: 3 requests a minute, 20 an hour, 100 a day, 1,000 requests
// and 100,000 tokens a month); subscribers and early-access members have none. Windows are
// calendar windows in UTC (this minute, hour, day and month), like the API's own rate limit,
// so "allowed again" is the moment the blocking window ends, written in the account's own zone
// (an ISO time with its offset, ADR 0030). Counted by the account's usage
// ledger: reports, and the claims the app makes before each call (exact, ADR 0017). Reports are
// still recorded past a limit.
import { eq } from "drizzle-orm";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { activationOf } from "../early-access/activation.server";
import type { SubscriptionLike } from "../billing/statuses";
import type { AccountRef, SessionProfile } from "../auth/session.server";
import { ledgerFor, type LedgerNamespace } from "./ledger/api";
import { type Entitlements, entitlementsFrom, type Plan } from "./windows";

export { entitlementsFrom, type Entitlements, type Plan } from "./windows";

/** The account's plan now: a live subscription, else live early access, else free. */
export async function planOf(
  db: Db,
  account: AccountRef,
  profile: Pick<SessionProfile, "earlyAccessStatus" | "earlyAccessExpiresAt">,
  now = Date.now(),
): Promise<Plan> {
  const row = account.accountRows
    ? account.accountRows.subscription
    : await db.query.subscriptions.findFirst({
        where: eq(schema.subscriptions.userId, account.id),
        columns: { status: true, trialEnd: true, currentPeriodEnd: true },
      });
  const subscription: SubscriptionLike | null = row ? { status: row.status, trialEnd: row.trialEnd, currentPeriodEnd: row.currentPeriodEnd } : null;
  const activation = activationOf(subscription, profile, now);
  return activation.subscription ? "premium" : activation.earlyAccess ? "early_access" : "free";
}

/** What the entitlement answers need of the account's profile: its early access and its zone. */
type EntitlementProfile = Pick<SessionProfile, "earlyAccessStatus" | "earlyAccessExpiresAt" | "timeZone">;

/** The account's entitlements now (for display): its plan, and its counts from its ledger. */
export async function accountEntitlements(
  { db, ledgers }: { db: Db; ledgers: LedgerNamespace },
  userId: string,
  profile: EntitlementProfile,
  now = Date.now(),
): Promise<Entitlements> {
  const [plan, read] = await Promise.all([planOf(db, { id: userId }, profile, now), ledgerFor(ledgers, userId).read({ now, counts: true })]);
  return entitlementsFrom(read.counts!, plan, now, profile.timeZone);
}

export type ClaimOutcome = { granted: boolean; entitlements: Entitlements };

/**
 * POST /api/v1/entitlements/claim: the desktop app asks before a model call. A free account's
 * claim is decided and counted by its ledger, one at a time, so parallel claims from any number of
 * devices get exactly the grants the limits allow. Subscribers and early-access members are
 * granted without asking the ledger: nothing limits them.
 */
export async function claimEntitlement(
  { db, ledgers }: { db: Db; ledgers: LedgerNamespace },
  userId: string,
  profile: EntitlementProfile,
  now = Date.now(),
): Promise<ClaimOutcome> {
  const plan = await planOf(db, { id: userId }, profile, now);
  const zone = profile.timeZone;
  if (plan !== "free")
    return { granted: true, entitlements: entitlementsFrom({ minute: 0, hour: 0, day: 0, monthRequests: 0, monthTokens: 0 }, plan, now, zone) };
  const { granted, counts } = await ledgerFor(ledgers, userId).claim(now);
  const entitlements = entitlementsFrom(counts, plan, now, zone);
  // A granted claim may use the last call of a window: the answer says so (allowed: false for
  // the next one) while this one is granted.
  return { granted, entitlements };
}
