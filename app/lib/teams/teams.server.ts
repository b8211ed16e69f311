// Teams (issue 50, ADR 0036): making one, and who belongs to which. Every page of a team asks D1
// whose it is on every request (membershipOf, one statement, nothing cached), so a removal ends
// the member's access with their next request.
import { and, asc, eq, sql } from "drizzle-orm";
import { TEAMS } from "../constants";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { log } from "../log/log.server";
import { inTransaction } from "./transaction.server";
import { atLeast, type TeamRole } from "./roles";
import { isSlug, slugify, withSuffix } from "./slug";

type Team = { id: string; slug: string; name: string; ownerId: string; seats: number };
export type Membership = { team: Team; role: TeamRole };

const t = schema.teams;
const m = schema.teamMembers;
const teamColumns = { id: t.id, slug: t.slug, name: t.name, ownerId: t.ownerId, seats: t.seats };

/** The account's membership of the team named by `slug`, or null (no such team, or not a member): one statement. */
export async function membershipOf(db: Db, slug: string, userId: string): Promise<Membership | null> {
  if (!isSlug(slug)) return null;
  const row = await db
    .select({ ...teamColumns, role: m.role })
    .from(t)
    .innerJoin(m, and(eq(m.teamId, t.id), eq(m.userId, userId)))
    .where(eq(t.slug, slug))
    .get();
  if (!row) return null;
  const { role, ...team } = row;
  return { team, role };
}

/**
 * The account's membership of the team with this id, or null: for what names a team by id rather
 * than by the URL's slug (a device key's team, ADR 0038). One statement, like membershipOf.
 */
export async function membershipById(db: Db, teamId: string, userId: string): Promise<Membership | null> {
  const row = await db
    .select({ ...teamColumns, role: m.role })
    .from(t)
    .innerJoin(m, and(eq(m.teamId, t.id), eq(m.userId, userId)))
    .where(eq(t.id, teamId))
    .get();
  if (!row) return null;
  const { role, ...team } = row;
  return { team, role };
}

const notFound = () => new Response("Not found", { status: 404 });

/**
 * For loaders and actions: the membership, or a 404 thrown as the answer. A non-member and a
 * member whose role is below `least` get the same 404, as if the page did not exist.
 */
export async function requireTeamRole(db: Db, slug: string | undefined, userId: string, least: TeamRole = "member"): Promise<Membership> {
  const membership = slug ? await membershipOf(db, slug, userId) : null;
  if (!membership || !atLeast(membership.role, least)) throw notFound();
  return membership;
}

export type TeamListing = { slug: string; name: string; role: TeamRole };

/** The account's teams for the switcher and the teams page, by name. */
export async function listTeamsOf(db: Db, userId: string): Promise<TeamListing[]> {
  return db.select({ slug: t.slug, name: t.name, role: m.role }).from(m).innerJoin(t, eq(t.id, m.teamId)).where(eq(m.userId, userId)).orderBy(asc(t.name));
}

/** How many memberships the team holds (its seats used: the owner counts). */
export async function memberCount(db: Db, teamId: string): Promise<number> {
  const row = await db.select({ n: sql<number>`count(*)` }).from(m).where(eq(m.teamId, teamId)).get();
  return row?.n ?? 0;
}

export type CreateTeamResult = { ok: true; team: Team } | { ok: false; reason: "limit" };

function isUniqueSlugError(error: unknown): boolean {
  return String((error as { cause?: unknown })?.cause ?? error).includes("teams.slug");
}

/**
 * Makes a team owned by `ownerId`, with TEAMS.unpaidSeats seats, unless they own
 * TEAMS.maxOwnedPerAccount already. One transaction: the team (counted by its own INSERT … WHERE),
 * the owner's membership (only if the team row was written) and the activity row. A name whose
 * slug is taken gets a short random suffix.
 */
export async function createTeam(db: Db, ownerId: string, name: string, now = Date.now()): Promise<CreateTeamResult> {
  const base = slugify(name);
  for (let attempt = 0; attempt < 4; attempt++) {
    const slug = attempt === 0 ? base : withSuffix(base);
    const id = crypto.randomUUID();
    try {
      const [inserted] = await inTransaction(db, [
        sql`
          INSERT INTO ${t} (id, slug, name, owner_id, seats, created_at, updated_at)
          SELECT ${id}, ${slug}, ${name}, ${ownerId}, ${TEAMS.unpaidSeats}, ${now}, ${now}
          WHERE (SELECT count(*) FROM ${t} WHERE owner_id = ${ownerId}) < ${TEAMS.maxOwnedPerAccount}`,
        sql`INSERT INTO ${m} (team_id, user_id, role, joined_at) SELECT id, owner_id, 'owner', ${now} FROM ${t} WHERE id = ${id}`,
        sql`
          INSERT INTO ${schema.teamActivity} (id, team_id, actor_id, action, subject_id, details, at)
          SELECT ${crypto.randomUUID()}, id, owner_id, 'team_created', NULL, '{}', ${now} FROM ${t} WHERE id = ${id}`,
      ]);
      if (inserted !== 1) return { ok: false, reason: "limit" };
      log.info("team_created", { teamId: id });
      return { ok: true, team: { id, slug, name, ownerId, seats: TEAMS.unpaidSeats } };
    } catch (error) {
      if (!isUniqueSlugError(error)) throw error;
    }
  }
  throw new Error("no free slug for the team's name");
}

/**
 * Deletes a team whose only member is its owner (the owner leaving it, or deleting their account):
 * its memberships, invitations and activity go with it (foreign keys cascade). False when it has
 * other members, or is not theirs.
 */
export async function deleteSoleOwnedTeam(db: Db, teamId: string, ownerId: string): Promise<boolean> {
  const result = await db.run(sql`
    DELETE FROM ${t} WHERE id = ${teamId} AND owner_id = ${ownerId}
      AND NOT EXISTS (SELECT 1 FROM ${m} WHERE team_id = ${teamId} AND user_id != ${ownerId})`);
  return result.meta.changes === 1;
}

/** The teams the account owns, with how many other members each has (account deletion's check). */
export async function ownedTeams(db: Db, ownerId: string): Promise<{ id: string; name: string; others: number }[]> {
  return db
    .select({ id: t.id, name: t.name, others: sql<number>`(SELECT count(*) FROM ${m} WHERE ${m.teamId} = ${t.id} AND ${m.userId} != ${ownerId})` })
    .from(t)
    .where(eq(t.ownerId, ownerId));
}
