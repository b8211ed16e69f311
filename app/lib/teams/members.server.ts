// A team's members: changing roles, removing, leaving, transferring ownership (issue 50, ADR 0036;
// the list is ./member-page.server.ts). Each write states its rule in its own SQL condition as well as in
// ./roles.ts: the actor's role is read inside the statement that acts, so an actor demoted or
// removed a moment earlier (or a transfer racing a role change) changes nothing. A member who
// goes (removed, leaving, or the team deleted with its owner) loses the team's live socket at once.
import { sql } from "drizzle-orm";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { log } from "../log/log.server";
import type { LedgerNamespace } from "../usage/ledger/api";
import { endTeamMemberSockets } from "../usage/team-ingest.server";
import { inTransaction } from "./transaction.server";
import { TEAM_MESSAGES as M } from "./messages";
import { canChangeRole, canLeave, canRemove, canTransfer, type GivenRole, type TeamRole } from "./roles";
import { deleteSoleOwnedTeam, type Membership, memberCount } from "./teams.server";

const m = schema.teamMembers;
const t = schema.teams;

export type MemberChange = { ok: true } | { ok: false; error: string };
/** What a departure touches: the membership in D1, and the member's sockets on the team's ledger. */
export type DepartureDeps = { db: Db; ledgers: LedgerNamespace };
const refused = (error: string): MemberChange => ({ ok: false, error });

async function roleOf(db: Db, teamId: string, userId: string): Promise<TeamRole | null> {
  const row = await db.select({ role: m.role }).from(m).where(sql`${m.teamId} = ${teamId} AND ${m.userId} = ${userId}`).get();
  return row?.role ?? null;
}

// The actor still holds a managing role in the team, read by the statement that acts.
const actorManages = (teamId: string, actorId: string) =>
  sql`EXISTS (SELECT 1 FROM ${m} WHERE team_id = ${teamId} AND user_id = ${actorId} AND role IN ('owner', 'admin'))`;

/** Gives a member (not the owner) the role admin or member: owners and admins only. */
export async function changeRole(db: Db, actor: Membership, actorId: string, targetId: string, to: GivenRole, now = Date.now()): Promise<MemberChange> {
  const teamId = actor.team.id;
  const target = await roleOf(db, teamId, targetId);
  if (!target) return refused(M.notAMember);
  if (target === "owner") return refused(M.ownerUntouchable);
  if (!canChangeRole(actor.role, target, to)) return refused(M.notAllowed);
  if (target === to) return { ok: true };
  const [updated] = await inTransaction(db, [
    sql`UPDATE ${m} SET role = ${to} WHERE team_id = ${teamId} AND user_id = ${targetId} AND role != 'owner' AND ${actorManages(teamId, actorId)}`,
    sql`
      INSERT INTO ${schema.teamActivity} (id, team_id, actor_id, action, subject_id, details, at)
      SELECT ${crypto.randomUUID()}, ${teamId}, ${actorId}, 'role_changed', ${targetId}, ${JSON.stringify({ from: target, to })}, ${now}
      WHERE changes() = 1`,
  ]);
  if (updated !== 1) return refused(M.notAllowed);
  log.info("team_role_changed", { teamId });
  return { ok: true };
}

/**
 * Removes a member (not the owner): owners and admins only. Their next request to the team's pages
 * answers 404, their socket on the team's usage closes now, and a paid team's entitlement ends
 * with the membership (read live: billing/team-entitlement.server.ts).
 */
export async function removeMember(deps: DepartureDeps, actor: Membership, actorId: string, targetId: string, now = Date.now()): Promise<MemberChange> {
  const { db } = deps;
  const teamId = actor.team.id;
  if (targetId === actorId) return leaveTeam(deps, actor, actorId, now);
  const target = await roleOf(db, teamId, targetId);
  if (!target) return refused(M.notAMember);
  if (target === "owner") return refused(M.ownerUntouchable);
  if (!canRemove(actor.role, target)) return refused(M.notAllowed);
  const [deleted] = await inTransaction(db, [
    sql`DELETE FROM ${m} WHERE team_id = ${teamId} AND user_id = ${targetId} AND role != 'owner' AND ${actorManages(teamId, actorId)}`,
    sql`
      INSERT INTO ${schema.teamActivity} (id, team_id, actor_id, action, subject_id, details, at)
      SELECT ${crypto.randomUUID()}, ${teamId}, ${actorId}, 'member_removed', ${targetId}, ${JSON.stringify({ role: target })}, ${now}
      WHERE changes() = 1`,
  ]);
  if (deleted !== 1) return refused(M.notAllowed);
  await endTeamMemberSockets(deps.ledgers, teamId, targetId);
  log.info("team_member_removed", { teamId });
  return { ok: true };
}

/**
 * Leaves the team. The owner cannot while it has other members (they transfer ownership first);
 * an owner alone in it deletes it.
 */
export async function leaveTeam(deps: DepartureDeps, self: Membership, userId: string, now = Date.now()): Promise<MemberChange> {
  const { db } = deps;
  const teamId = self.team.id;
  if (self.role === "owner") {
    if (!canLeave("owner", await memberCount(db, teamId))) return refused(M.ownerCannotLeave);
    if (!(await deleteSoleOwnedTeam(db, teamId, userId))) return refused(M.ownerCannotLeave);
    await endTeamMemberSockets(deps.ledgers, teamId, userId);
    return { ok: true };
  }
  const [deleted] = await inTransaction(db, [
    sql`DELETE FROM ${m} WHERE team_id = ${teamId} AND user_id = ${userId} AND role != 'owner'`,
    sql`
      INSERT INTO ${schema.teamActivity} (id, team_id, actor_id, action, subject_id, details, at)
      SELECT ${crypto.randomUUID()}, ${teamId}, ${userId}, 'member_left', ${userId}, '{}', ${now} WHERE changes() = 1`,
  ]);
  if (deleted !== 1) return refused(M.notAMember);
  await endTeamMemberSockets(deps.ledgers, teamId, userId);
  log.info("team_member_left", { teamId });
  return { ok: true };
}

/**
 * Makes another member the owner; the old owner becomes an admin. The owner only. One
 * transaction: the old owner's row steps down first (the one-owner index would refuse a second
 * owner), then the new one steps up only if the first step happened, then teams.owner_id follows.
 */
export async function transferOwnership(db: Db, actor: Membership, actorId: string, targetId: string, now = Date.now()): Promise<MemberChange> {
  const teamId = actor.team.id;
  const target = await roleOf(db, teamId, targetId);
  if (!target || targetId === actorId) return refused(M.notAMember);
  if (!canTransfer(actor.role, target)) return refused(M.notAllowed);
  const [stepDown] = await inTransaction(db, [
    sql`UPDATE ${m} SET role = 'admin' WHERE team_id = ${teamId} AND user_id = ${actorId} AND role = 'owner'
      AND EXISTS (SELECT 1 FROM ${m} WHERE team_id = ${teamId} AND user_id = ${targetId})`,
    sql`UPDATE ${m} SET role = 'owner' WHERE team_id = ${teamId} AND user_id = ${targetId} AND changes() = 1`,
    sql`UPDATE ${t} SET owner_id = ${targetId}, updated_at = ${now} WHERE id = ${teamId} AND owner_id = ${actorId} AND changes() = 1`,
    sql`
      INSERT INTO ${schema.teamActivity} (id, team_id, actor_id, action, subject_id, details, at)
      SELECT ${crypto.randomUUID()}, ${teamId}, ${actorId}, 'ownership_transferred', ${targetId}, '{}', ${now} WHERE changes() = 1`,
  ]);
  if (stepDown !== 1) return refused(M.notAllowed);
  log.info("team_ownership_transferred", { teamId });
  return { ok: true };
}
