// The team billing page's server side: who may do what. Owners pay, change seats and open the
// portal; admins look; a member, a stranger or an unknown slug gets a 404 (lib/teams' requireTeamRole).
import { teamBillingOf } from "~/lib/billing/team-access.server";
import { requireTeamRole } from "~/lib/teams/teams.server";
import type { AppContext } from "~/server/context.server";

/** The team, the viewer's role and whether they manage its billing, or a thrown 404. */
export async function teamForBilling(ctx: Pick<AppContext, "db">, slug: string, userId: string, need: "view" | "manage") {
  const membership = await requireTeamRole(ctx.db, slug, userId, need === "manage" ? "owner" : "admin");
  return { team: await teamBillingOf(ctx.db, membership), role: membership.role, rights: { manage: membership.role === "owner" } };
}
