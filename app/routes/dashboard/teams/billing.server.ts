// The team billing page's server side: who may do what (owners pay, change seats and open the
// portal; admins look; anyone else gets a 404).
import { billingRights, teamBillingOf } from "~/lib/billing/team-access.server";
import type { AppContext } from "~/server/context.server";

const notFound = () => new Response("Not found", { status: 404 });

/** The team and the viewer's rights, or a thrown 404: a plain member or a stranger learns nothing. */
export async function teamForBilling(ctx: Pick<AppContext, "db">, slug: string, userId: string, need: "view" | "manage") {
  const team = await teamBillingOf(ctx.db, slug, userId);
  const rights = billingRights(team);
  if (!team || !rights || (need === "manage" && !rights.manage)) throw notFound();
  return { team, rights };
}
