// The team billing page's server side: who may do what (owners pay, change seats and open the
// portal; admins look; anyone else gets a 404), and what the page shows.
import { TEAMS } from "~/lib/constants";
import { countsAsActive, statusLabel } from "~/lib/billing/statuses";
import { billingRights, type TeamBilling, teamBillingOf } from "~/lib/billing/team-access.server";
import { upcomingTotal } from "~/lib/billing/team-billing.server";
import type { AppContext } from "~/server/context.server";

const notFound = () => new Response("Not found", { status: 404 });

/** The team and the viewer's rights, or a thrown 404: a plain member or a stranger learns nothing. */
export async function teamForBilling(ctx: Pick<AppContext, "db">, slug: string, userId: string, need: "view" | "manage") {
  const team = await teamBillingOf(ctx.db, slug, userId);
  const rights = billingRights(team);
  if (!team || !rights || (need === "manage" && !rights.manage)) throw notFound();
  return { team, rights };
}

/** What the page shows of the team's plan. Amounts in USD. */
export async function teamBillingView(ctx: Pick<AppContext, "stripe" | "env">, team: TeamBilling, manage: boolean, now = Date.now()) {
  const sub = team.subscription;
  const live = countsAsActive(sub, now);
  const upcomingCents = live && manage ? await upcomingTotal(ctx.stripe, team) : null;
  return {
    name: team.name,
    slug: team.slug,
    manage,
    members: team.members,
    seats: team.seats,
    seatPriceUsd: TEAMS.seatPriceUsd,
    trialDays: TEAMS.trialDays,
    trialAvailable: !team.trialUsed,
    configured: Boolean(ctx.env.STRIPE_TEAM_PRICE_ID),
    plan: sub
      ? {
          live,
          status: statusLabel(sub),
          quantity: sub.quantity,
          trialEnd: sub.status === "trial" ? sub.trialEnd : null,
          periodEnd: sub.currentPeriodEnd,
          cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
          monthlyUsd: Math.round(sub.quantity * TEAMS.seatPriceUsd * 100) / 100,
        }
      : null,
    upcomingUsd: upcomingCents === null ? null : upcomingCents / 100,
  };
}

export type TeamBillingView = Awaited<ReturnType<typeof teamBillingView>>;
