// Who may see and change a team's billing: one statement reads the team by its slug, the viewer's
// role in it, its member count and its subscription. Owners pay, change seats and open the portal;
// admins may look; anyone else (a member, a stranger, a slug that does not exist) is told nothing.
import { and, eq, sql } from "drizzle-orm";
import type { TEAM_ROLES } from "~drizzle/schema";
import type { Db } from "../db.server";
import { schema } from "../db.server";

type TeamRole = (typeof TEAM_ROLES)[number];
type TeamSubscriptionRow = typeof schema.teamSubscriptions.$inferSelect;

export type TeamBilling = {
  id: string;
  slug: string;
  name: string;
  seats: number;
  trialUsed: boolean;
  stripeCustomerId: string | null;
  role: TeamRole;
  members: number;
  subscription: TeamSubscriptionRow | null;
};

/** The team as its billing page needs it, when `userId` is a member of it; null otherwise. */
export async function teamBillingOf(db: Db, slug: string, userId: string): Promise<TeamBilling | null> {
  const [row] = await db
    .select({
      id: schema.teams.id,
      slug: schema.teams.slug,
      name: schema.teams.name,
      seats: schema.teams.seats,
      trialUsed: schema.teams.trialUsed,
      stripeCustomerId: schema.teams.stripeCustomerId,
      role: schema.teamMembers.role,
      members: sql<number>`(select count(*) from ${schema.teamMembers} as m where m.team_id = ${schema.teams.id})`,
      subscription: schema.teamSubscriptions,
    })
    .from(schema.teams)
    .innerJoin(schema.teamMembers, and(eq(schema.teamMembers.teamId, schema.teams.id), eq(schema.teamMembers.userId, userId)))
    .leftJoin(schema.teamSubscriptions, eq(schema.teamSubscriptions.teamId, schema.teams.id))
    .where(eq(schema.teams.slug, slug))
    .limit(1);
  return row ? { ...row, members: Number(row.members) } : null;
}

/** What the viewer may do on the billing page: `null` is a 404 (not a member, or a plain member). */
export function billingRights(team: TeamBilling | null): { manage: boolean } | null {
  if (!team || team.role === "member") return null;
  return { manage: team.role === "owner" };
}
