// The teams an account belongs to, as the device sign-in and the team usage pages ask it (issue 50):
// one indexed read each (team_members' primary key, or team_members_user_idx).
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db.server";
import { schema } from "../db.server";

type TeamRole = "owner" | "admin" | "member";
export type MemberTeam = { id: string; slug: string; name: string; role: TeamRole };

const columns = { id: schema.teams.id, slug: schema.teams.slug, name: schema.teams.name, role: schema.teamMembers.role };

/** Every team the account is a member of, by name. */
export async function teamsOf(db: Db, userId: string): Promise<MemberTeam[]> {
  const rows = await db
    .select(columns)
    .from(schema.teamMembers)
    .innerJoin(schema.teams, eq(schema.teams.id, schema.teamMembers.teamId))
    .where(eq(schema.teamMembers.userId, userId))
    .orderBy(asc(schema.teams.name), asc(schema.teams.slug));
  return rows.map((r) => ({ ...r, role: r.role as TeamRole }));
}

/** The team with this id, if the account is a member of it now. */
export async function memberTeamById(db: Db, teamId: string, userId: string): Promise<MemberTeam | null> {
  const rows = await db
    .select(columns)
    .from(schema.teamMembers)
    .innerJoin(schema.teams, eq(schema.teams.id, schema.teamMembers.teamId))
    .where(and(eq(schema.teamMembers.teamId, teamId), eq(schema.teamMembers.userId, userId)))
    .limit(1);
  return rows[0] ? { ...rows[0], role: rows[0].role as TeamRole } : null;
}

/** The team with this slug, if the account is a member of it now: non-members are told nothing (404). */
export async function memberTeamBySlug(db: Db, slug: string, userId: string): Promise<MemberTeam | null> {
  const rows = await db
    .select(columns)
    .from(schema.teams)
    .innerJoin(schema.teamMembers, and(eq(schema.teamMembers.teamId, schema.teams.id), eq(schema.teamMembers.userId, userId)))
    .where(eq(schema.teams.slug, slug))
    .limit(1);
  return rows[0] ? { ...rows[0], role: rows[0].role as TeamRole } : null;
}
