// A team device key's claims and entitlements (issue 50, ADR 0039): besides the member's own
// ledger, the claim is decided in the team's ledger (`team:<id>`) against the team's hard caps and
// the member's cap there, one call at a time, so a burst from all the team's members is exact. The
// team's ledger keeps UTC (ADR 0038): its caps' periods are UTC days and months.
import type { Db } from "../db.server";
import { teamCapsFor } from "../teams/budget.server";
import { isoInZone, UTC } from "../time-zone";
import { type CapEntitlement, capEntitlement, type CapState, type ClaimTarget } from "./caps";
import type { LedgerNamespace } from "./ledger/api";
import { teamLedger } from "./team-ingest.server";
import type { Entitlements } from "./windows";

type Deps = { db: Db; ledgers: LedgerNamespace };

/** The team's side of a claim: the states after it, and the refusing cap (null when granted). */
export type TeamClaim = { slug: string; states: CapState[]; refusedBy: CapState | null };

/**
 * Decides a team key's claim in the team's ledger. Null when there is nothing to decide there (the
 * account left the team, or the team has no hard cap): no ledger call is made.
 */
export async function claimInTeam(deps: Deps, teamId: string, userId: string, target: ClaimTarget, claimId: string, now: number): Promise<TeamClaim | null> {
  const team = await teamCapsFor(deps.db, teamId, userId);
  if (!team || team.caps.length === 0) return null;
  const result = await teamLedger(deps.ledgers, teamId).claim({
    now,
    zone: UTC,
    free: false,
    caps: team.caps,
    // The team's ledger has no device dimension for caps: the member's own cap is the target.
    target: { estimateMicros: target.estimateMicros, model: null, deviceId: null, memberId: userId },
    claimId,
  });
  return { slug: team.slug, states: result.caps, refusedBy: result.refusedBy };
}

/** A team key's team caps for display (GET /api/v1/entitlements): one ledger read only when the team has any. */
export async function teamCapStates(deps: Deps, teamId: string, userId: string, now: number): Promise<{ slug: string; states: CapState[] } | null> {
  const team = await teamCapsFor(deps.db, teamId, userId);
  if (!team || team.caps.length === 0) return null;
  const read = await teamLedger(deps.ledgers, teamId).read({ now, zone: UTC, caps: team.caps });
  return { slug: team.slug, states: read.caps ?? [] };
}

/** A team cap as the API writes it: UTC times, and the team's slug. */
export function teamCapEntitlement(state: CapState, slug: string): CapEntitlement {
  return { ...capEntitlement(state, UTC), team: slug };
}

/**
 * The entitlements with the team's caps: every one of them covers all of this member's team calls,
 * so any reached one makes the answer not allowed until the last of them resets.
 */
export function withTeamCaps(entitlements: Entitlements, team: { slug: string; states: CapState[] } | null, now: number): Entitlements {
  if (!team) return entitlements;
  const reached = team.states.filter((s) => s.reached);
  const out: Entitlements = {
    ...entitlements,
    team: { slug: team.slug, caps: team.states.map((s) => teamCapEntitlement(s, team.slug)), reached: reached.length > 0 },
  };
  if (reached.length === 0) return out;
  const until = Math.max(...reached.map((s) => s.resetsAt), entitlements.allowed_at ? Date.parse(entitlements.allowed_at) : 0);
  return {
    ...out,
    allowed: false,
    retry_after_seconds: Math.max(1, Math.ceil((until - now) / 1000)),
    allowed_at: isoInZone(until, entitlements.time_zone),
  };
}

/** Ends the team's hold of a claim the member's own ledger then refused: its call will not be made. */
export async function releaseTeamClaim(ledgers: LedgerNamespace, teamId: string, claimId: string): Promise<void> {
  await teamLedger(ledgers, teamId).releaseClaims([claimId]);
}
