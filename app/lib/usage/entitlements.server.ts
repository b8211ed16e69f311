// The entitlement call (GET /api/v1/entitlements): what the account may do now. Free accounts
// have the spec's limits (FREE_TIER: 3 requests a minute, 20 an hour, 100 a day, 1,000 requests
// and 100,000 tokens a month); subscribers and early-access members have none. Windows are
// calendar windows in UTC (this minute, hour, day and month), like the API's own rate limit,
// so "allowed again" is the moment the blocking window ends, written in the account's own zone
// (an ISO time with its offset, ADR 0030). Counted by the account's usage
// ledger: reports, and the claims the app makes before each call (exact, ADR 0017). Reports are
// still recorded past a limit. Hard caps (ADR 0032) hold on any plan: the ledger decides them in
// the same call.
import { eq } from "drizzle-orm";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { activationOf } from "../early-access/activation.server";
import { teamPaidUntilSql } from "../billing/team-entitlement.server";
import type { SubscriptionLike } from "../billing/statuses";
import type { AccountRef, SessionProfile } from "../auth/session.server";
import { ledgerFor, type LedgerNamespace } from "./ledger/api";
import { type CapEntitlement, capEntitlement, type ClaimTarget } from "./caps";
import { accountCaps } from "./caps.server";
import { claimInTeam, releaseTeamClaim, teamCapEntitlement, teamCapStates, withTeamCaps } from "./team-caps.server";
import { type Entitlements, entitlementsFrom, type Plan, type UsageCounts } from "./windows";

export { entitlementsFrom, type Entitlements, type Plan } from "./windows";

/**
 * The account's plan now: a live subscription of its own or a seat in a team with a paid Team plan
 * (ADR 0037), else live early access, else free. The team seat is read in the subscription's
 * statement (or the session's): no D1 statement of its own.
 */
export async function planOf(
  db: Db,
  account: AccountRef,
  profile: Pick<SessionProfile, "earlyAccessStatus" | "earlyAccessExpiresAt">,
  now = Date.now(),
): Promise<Plan> {
  const rows = account.accountRows;
  const read = rows ? null : await planRowOf(db, account.id);
  const row = rows ? rows.subscription : read;
  const subscription: SubscriptionLike | null = row?.status ? { status: row.status, trialEnd: row.trialEnd, currentPeriodEnd: row.currentPeriodEnd } : null;
  const activation = activationOf(subscription, profile, now, rows ? rows.teamPaidUntil : (read?.teamPaidUntil ?? null));
  return activation.subscription || activation.team ? "premium" : activation.earlyAccess ? "early_access" : "free";
}

/** The account's subscription (null columns when it has none) and its best team seat, in one statement. */
async function planRowOf(db: Db, userId: string) {
  const [row] = await db
    .select({
      status: schema.subscriptions.status,
      trialEnd: schema.subscriptions.trialEnd,
      currentPeriodEnd: schema.subscriptions.currentPeriodEnd,
      teamPaidUntil: teamPaidUntilSql(schema.users.id),
    })
    .from(schema.users)
    .leftJoin(schema.subscriptions, eq(schema.subscriptions.userId, schema.users.id))
    .where(eq(schema.users.id, userId))
    .limit(1);
  return row;
}

/** What the entitlement answers need of the account's profile: its early access and its zone. */
type EntitlementProfile = Pick<SessionProfile, "earlyAccessStatus" | "earlyAccessExpiresAt" | "timeZone">;

/**
 * The account's entitlements now (for display): its plan, its counts and its hard caps, from one
 * ledger call; a team device key's (`teamId`) also its team's caps, from the team's ledger (ADR 0039).
 */
export async function accountEntitlements(
  { db, ledgers }: { db: Db; ledgers: LedgerNamespace },
  userId: string,
  profile: EntitlementProfile,
  now = Date.now(),
  teamId: string | null = null,
): Promise<Entitlements> {
  const zone = profile.timeZone;
  const [plan, { caps }] = await Promise.all([planOf(db, { id: userId }, profile, now), accountCaps(db, { id: userId })]);
  const [read, team] = await Promise.all([
    ledgerFor(ledgers, userId).read({ now, zone, counts: true, ...(caps.length > 0 && { caps }) }),
    teamId ? teamCapStates({ db, ledgers }, teamId, userId, now) : null,
  ]);
  return withTeamCaps(entitlementsFrom(read.counts!, plan, now, zone, read.caps), team, now);
}

/**
 * A claim's answer: `claimId` names a granted claim (a report that sends it back ends the claim's
 * reservation); `refusedBy` the hard cap that refused it; `retryAfterSeconds` when a refused claim
 * may be granted (every exhausted window ended, every refusing cap started again).
 */
export type ClaimOutcome = {
  granted: boolean;
  entitlements: Entitlements;
  claimId: string | null;
  refusedBy: CapEntitlement | null;
  retryAfterSeconds: number | null;
};

const NO_TARGET: ClaimTarget = { estimateMicros: 0, model: null, deviceId: null };

/**
 * POST /api/v1/entitlements/claim: the desktop app asks before a model call. A free account's
 * claim, and any claim of an account with hard caps (ADR 0032), is decided by its ledger, one at a
 * time, so parallel claims from any number of devices get exactly the grants the limits and caps
 * allow. Other subscribers and early-access members are granted without asking the ledger.
 */
export async function claimEntitlement(
  { db, ledgers }: { db: Db; ledgers: LedgerNamespace },
  userId: string,
  profile: EntitlementProfile,
  now = Date.now(),
  target: ClaimTarget = NO_TARGET,
  teamId: string | null = null,
): Promise<ClaimOutcome> {
  const claimId = crypto.randomUUID();
  // A team key's claim is decided in the team's ledger first (ADR 0039): a team cap that refuses it
  // leaves the member's own ledger untouched.
  const [plan, { caps }, team] = await Promise.all([
    planOf(db, { id: userId }, profile, now),
    accountCaps(db, { id: userId }),
    teamId ? claimInTeam({ db, ledgers }, teamId, userId, target, claimId, now) : null,
  ]);
  const zone = profile.timeZone;
  const teamView = team && { slug: team.slug, states: team.states };
  if (team?.refusedBy) {
    const entitlements = withTeamCaps(entitlementsFrom(ZERO, plan, now, zone), teamView, now);
    const retryAfterSeconds = Math.max(1, Math.ceil((team.refusedBy.resetsAt - now) / 1000));
    return { granted: false, entitlements, claimId: null, refusedBy: teamCapEntitlement(team.refusedBy, team.slug), retryAfterSeconds };
  }
  if (plan !== "free" && caps.length === 0) {
    return {
      granted: true,
      entitlements: withTeamCaps(entitlementsFrom(ZERO, plan, now, zone), teamView, now),
      claimId,
      refusedBy: null,
      retryAfterSeconds: null,
    };
  }
  const result = await ledgerFor(ledgers, userId).claim({ now, zone, free: plan === "free", caps, target, claimId });
  // A granted claim may use the last call of a window: the answer says so (allowed: false for
  // the next one) while this one is granted.
  const entitlements = withTeamCaps(entitlementsFrom(result.counts, plan, now, zone, result.caps), teamView, now);
  if (result.granted) return { granted: true, entitlements, claimId, refusedBy: null, retryAfterSeconds: null };
  // The call will not be made: the team's ledger stops holding its estimate now, not in minutes.
  if (team && teamId) await releaseTeamClaim(ledgers, teamId, claimId);
  const freeWait = plan === "free" ? freeTierWait(result.counts, now) : 0;
  const capWait = result.refusedBy ? Math.ceil((result.refusedBy.resetsAt - now) / 1000) : 0;
  return {
    granted: false,
    entitlements,
    claimId: null,
    refusedBy: result.refusedBy ? capEntitlement(result.refusedBy, zone) : null,
    retryAfterSeconds: Math.max(1, freeWait, capWait),
  };
}

const ZERO: UsageCounts = { minute: 0, hour: 0, day: 0, monthRequests: 0, monthTokens: 0 };

/** Seconds until the free tier's exhausted windows have all ended (0 when none is). */
function freeTierWait(counts: UsageCounts, now: number): number {
  return entitlementsFrom(counts, "free", now).retry_after_seconds ?? 0;
}
