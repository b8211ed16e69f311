// What a team's billing needs beyond the membership (lib/teams' requireTeamRole decides who may see
// it): the team's trial and Stripe customer, its member count and its subscription, in one statement.
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import type { Membership } from "../teams/teams.server";

type TeamSubscriptionRow = typeof schema.teamSubscriptions.$inferSelect;

export type TeamBilling = Membership["team"] & {
  role: Membership["role"];
  trialUsed: boolean;
  stripeCustomerId: string | null;
  members: number;
  subscription: TeamSubscriptionRow | null;
};

/** The team of a membership, as its billing page and actions need it. */
export async function teamBillingOf(db: Db, membership: Membership): Promise<TeamBilling> {
  const [row] = await db
    .select({
      seats: schema.teams.seats,
      trialUsed: schema.teams.trialUsed,
      stripeCustomerId: schema.teams.stripeCustomerId,
      members: sql<number>`(select count(*) from ${schema.teamMembers} as m where m.team_id = ${schema.teams.id})`,
      subscription: schema.teamSubscriptions,
    })
    .from(schema.teams)
    .leftJoin(schema.teamSubscriptions, eq(schema.teamSubscriptions.teamId, schema.teams.id))
    .where(eq(schema.teams.id, membership.team.id))
    .limit(1);
  // The membership was read a moment ago; a team deleted since is gone for this request too.
  if (!row) throw new Response("Not found", { status: 404 });
  return { ...membership.team, role: membership.role, ...row, members: Number(row.members) };
}
