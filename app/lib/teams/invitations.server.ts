// Invitations to a team by e-mail (issue 50, ADR 0036): single use, expiring after
// TEAMS.invitationTtlMs, revocable, at most TEAMS.maxOpenInvitations open per team. The token is
// random and D1 keeps only its SHA-256 (as one-time tokens, ../auth/one-time-tokens.server.ts);
// the mail holds fixed words and the link only, and how many go out is limited per inviter and
// per address (TEAM_INVITATION_LIMITS.perInviter, TEAM_INVITATION_LIMITS.perAddress). Only an account signed in with the invited
// address accepts, and acceptance is one transaction whose first statement claims the invitation
// only while it is open and the team has a free seat, and whose second adds the membership only
// if the first did: of 20 acceptances at once one joins, and a team of 3 seats never holds 4.
import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { TEAM_INVITATION_LIMITS, TEAMS } from "../constants";
import { randomToken, sha256Hex } from "../crypto";
import type { Db } from "../db.server";
import { formatDuration } from "../format";
import { schema } from "../db.server";
import { overCap } from "../limits/counters.server";
import { log } from "../log/log.server";
import { inTransaction } from "./transaction.server";
import { enqueueMail } from "../mail/mail.server";
import { teamInvitationMail } from "../mail/templates";
import { TEAM_MESSAGES as M } from "./messages";
import { canInvite, type GivenRole, type TeamRole } from "./roles";
import type { Membership } from "./teams.server";

const inv = schema.teamInvitations;
const m = schema.teamMembers;
const t = schema.teams;

export type InvitationDeps = { db: Db; queue: Queue; origin: string };

/** The page an invitation's link opens. */
function invitationPath(token: string): string {
  return `/teams/invitations/${token}`;
}

const manages = (teamId: string, actorId: string) =>
  sql`EXISTS (SELECT 1 FROM ${m} WHERE team_id = ${teamId} AND user_id = ${actorId} AND role IN ('owner', 'admin'))`;
const open = (now: number) => sql`accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ${now}`;

/** The sending limits' refusals (server-only: the pages show them from the action's answer). */
export const INVITATION_LIMIT_MESSAGES = {
  tooManySent: `You have sent ${TEAM_INVITATION_LIMITS.perInviter.limit} invitations within ${formatDuration(TEAM_INVITATION_LIMITS.perInviter.windowMs, "hour", { article: true })}, the most an account may: try again later.`,
  addressFlooded: `That address has had ${TEAM_INVITATION_LIMITS.perAddress.limit} team invitations within ${formatDuration(TEAM_INVITATION_LIMITS.perAddress.windowMs, "day", { article: true })}, the most it may get: try again tomorrow.`,
} as const;

export type InviteResult =
  | { ok: true; id: string }
  | { ok: false; error: string; status: 403 | 409 }
  | { ok: false; error: string; status: 429; retryAfterSeconds: number };

/**
 * Invites `email` (normalised by the form: trimmed, lower-case) as admin or member and mails the
 * link. One INSERT … WHERE counts the open invitations, checks the address has none open and is no
 * member's, and that the actor still manages the team; the activity row follows only if it wrote.
 */
export async function createInvitation(
  deps: InvitationDeps,
  actor: Membership,
  actorId: string,
  input: { email: string; role: GivenRole },
  now = Date.now(),
): Promise<InviteResult> {
  const teamId = actor.team.id;
  if (!canInvite(actor.role, input.role)) return { ok: false, error: M.notAllowed, status: 403 };
  const { db } = deps;
  const member = await db
    .select({ id: m.userId })
    .from(m)
    .innerJoin(schema.users, eq(schema.users.id, m.userId))
    .where(and(eq(m.teamId, teamId), sql`lower(${schema.users.email}) = ${input.email}`))
    .get();
  if (member) return { ok: false, error: M.alreadyMember, status: 409 };
  // Counted before the write, each in one atomic statement, so a burst cannot slip past; every
  // attempt counts, a refused one too (the limits are far above a real team's needs).
  const inviterWait = await overCap(db, `team-invite:by:${actorId}`, TEAM_INVITATION_LIMITS.perInviter, now);
  if (inviterWait !== null) return { ok: false, error: INVITATION_LIMIT_MESSAGES.tooManySent, status: 429, retryAfterSeconds: inviterWait };
  const addressWait = await overCap(db, `team-invite:to:${await sha256Hex(input.email)}`, TEAM_INVITATION_LIMITS.perAddress, now);
  if (addressWait !== null) return { ok: false, error: INVITATION_LIMIT_MESSAGES.addressFlooded, status: 429, retryAfterSeconds: addressWait };
  const id = crypto.randomUUID();
  const token = randomToken();
  const [inserted] = await inTransaction(db, [
    sql`
      INSERT INTO ${inv} (id, team_id, email, role, token_hash, invited_by, created_at, expires_at)
      SELECT ${id}, ${teamId}, ${input.email}, ${input.role}, ${await sha256Hex(token)}, ${actorId}, ${now}, ${now + TEAMS.invitationTtlMs}
      WHERE ${manages(teamId, actorId)}
        AND NOT EXISTS (SELECT 1 FROM ${inv} WHERE team_id = ${teamId} AND email = ${input.email} AND ${open(now)})
        AND (SELECT count(*) FROM ${inv} WHERE team_id = ${teamId} AND ${open(now)}) < ${TEAMS.maxOpenInvitations}`,
    sql`
      INSERT INTO ${schema.teamActivity} (id, team_id, actor_id, action, subject_id, details, at)
      SELECT ${crypto.randomUUID()}, ${teamId}, ${actorId}, 'invitation_sent', ${id}, ${JSON.stringify({ role: input.role })}, ${now}
      WHERE changes() = 1`,
  ]);
  if (inserted !== 1) return { ok: false, ...(await whyNotInvited(db, teamId, input.email, now)) };
  log.info("team_invitation_sent", { teamId });
  await enqueueMail(deps.queue, teamInvitationMail(input.email, new URL(invitationPath(token), deps.origin).toString()));
  return { ok: true, id };
}

async function whyNotInvited(db: Db, teamId: string, email: string, now: number): Promise<{ error: string; status: 403 | 409 }> {
  const same = await db
    .select({ id: inv.id })
    .from(inv)
    .where(and(eq(inv.teamId, teamId), eq(inv.email, email), sql`${open(now)}`))
    .get();
  if (same) return { error: M.alreadyInvited, status: 409 };
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(inv)
    .where(and(eq(inv.teamId, teamId), sql`${open(now)}`))
    .get();
  if ((row?.n ?? 0) >= TEAMS.maxOpenInvitations) return { error: M.tooManyInvitations, status: 409 };
  return { error: M.notAllowed, status: 403 };
}

/** Revokes an open invitation of the actor's team (owners and admins): its link stops working at once. */
export async function revokeInvitation(db: Db, actor: Membership, actorId: string, invitationId: string, now = Date.now()): Promise<boolean> {
  const teamId = actor.team.id;
  const [updated] = await inTransaction(db, [
    sql`UPDATE ${inv} SET revoked_at = ${now}
      WHERE id = ${invitationId} AND team_id = ${teamId} AND accepted_at IS NULL AND revoked_at IS NULL AND ${manages(teamId, actorId)}`,
    sql`
      INSERT INTO ${schema.teamActivity} (id, team_id, actor_id, action, subject_id, details, at)
      SELECT ${crypto.randomUUID()}, ${teamId}, ${actorId}, 'invitation_revoked', ${invitationId}, '{}', ${now} WHERE changes() = 1`,
  ]);
  if (updated === 1) log.info("team_invitation_revoked", { teamId });
  return updated === 1;
}

export type OpenInvitation = { id: string; email: string; role: GivenRole; createdAt: number; expiresAt: number };

/** The team's open invitations, oldest first (for owners and admins). */
export async function listOpenInvitations(db: Db, teamId: string, now = Date.now()): Promise<OpenInvitation[]> {
  return db
    .select({ id: inv.id, email: inv.email, role: inv.role, createdAt: inv.createdAt, expiresAt: inv.expiresAt })
    .from(inv)
    .where(and(eq(inv.teamId, teamId), isNull(inv.acceptedAt), isNull(inv.revokedAt), gt(inv.expiresAt, now)))
    .orderBy(asc(inv.createdAt));
}

export type InvitationView = {
  email: string;
  role: GivenRole;
  team: { name: string; slug: string };
  state: "open" | "used" | "revoked" | "expired";
  acceptedBy: string | null;
};

/** What an invitation's page shows, from its token (null: no such invitation). Uses nothing up. */
export async function peekInvitation(db: Db, token: string, now = Date.now()): Promise<InvitationView | null> {
  const row = await db
    .select({
      email: inv.email,
      role: inv.role,
      name: t.name,
      slug: t.slug,
      acceptedAt: inv.acceptedAt,
      acceptedBy: inv.acceptedBy,
      revokedAt: inv.revokedAt,
      expiresAt: inv.expiresAt,
    })
    .from(inv)
    .innerJoin(t, eq(t.id, inv.teamId))
    .where(eq(inv.tokenHash, await sha256Hex(token)))
    .get();
  if (!row) return null;
  const state = row.acceptedAt !== null ? "used" : row.revokedAt !== null ? "revoked" : row.expiresAt <= now ? "expired" : "open";
  return { email: row.email, role: row.role, team: { name: row.name, slug: row.slug }, state, acceptedBy: row.acceptedBy };
}

export type AcceptResult = { ok: true; slug: string; role: TeamRole } | { ok: false; error: string; status: 403 | 404 | 409 };

/**
 * Accepts the invitation for the signed-in account `user`, in one transaction (D1's batch):
 * 1. claims it (accepted_at, accepted_by) only if it is open, is for `user.email`, the account is
 *    not a member yet, and the team holds fewer memberships than seats;
 * 2. adds the membership only if statement 1 claimed it (changes() = 1);
 * 3. writes the activity row likewise.
 * D1 runs one batch at a time, so the seat count read by 1 cannot be stale when 2 writes.
 */
export async function acceptInvitation(db: Db, token: string, user: { id: string; email: string }, now = Date.now()): Promise<AcceptResult> {
  const hash = await sha256Hex(token);
  const email = user.email.toLowerCase();
  const [claimed] = await inTransaction(db, [
    sql`UPDATE ${inv} SET accepted_at = ${now}, accepted_by = ${user.id}
      WHERE token_hash = ${hash} AND ${open(now)} AND email = ${email}
        AND NOT EXISTS (SELECT 1 FROM ${m} WHERE team_id = ${inv.teamId} AND user_id = ${user.id})
        AND (SELECT count(*) FROM ${m} WHERE team_id = ${inv.teamId}) < (SELECT seats FROM ${t} WHERE id = ${inv.teamId})`,
    sql`INSERT INTO ${m} (team_id, user_id, role, joined_at)
      SELECT team_id, ${user.id}, role, ${now} FROM ${inv} WHERE token_hash = ${hash} AND changes() = 1`,
    sql`INSERT INTO ${schema.teamActivity} (id, team_id, actor_id, action, subject_id, details, at)
      SELECT ${crypto.randomUUID()}, team_id, ${user.id}, 'member_joined', ${user.id}, json_object('role', role), ${now}
      FROM ${inv} WHERE token_hash = ${hash} AND changes() = 1`,
  ]);
  const view = await peekInvitation(db, token, now);
  if (claimed === 1 && view) {
    log.info("team_invitation_accepted");
    return { ok: true, slug: view.team.slug, role: view.role };
  }
  return { ok: false, ...(await whyNotAccepted(db, view, user.id, email)) };
}

async function whyNotAccepted(db: Db, view: InvitationView | null, userId: string, email: string): Promise<{ error: string; status: 403 | 404 | 409 }> {
  if (!view) return { error: M.invitationGone, status: 404 };
  if (view.state === "used" && view.acceptedBy === userId) return { error: M.joinedAlready, status: 409 };
  if (view.state !== "open") return { error: M.invitationGone, status: 409 };
  if (view.email !== email) return { error: M.wrongAddress, status: 403 };
  const member = await db
    .select({ id: m.userId })
    .from(m)
    .innerJoin(t, eq(t.id, m.teamId))
    .where(and(eq(t.slug, view.team.slug), eq(m.userId, userId)))
    .get();
  if (member) return { error: M.joinedAlready, status: 409 };
  return { error: M.noSeat, status: 409 };
}
