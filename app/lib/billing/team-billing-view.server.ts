// What the team billing page shows of the team's plan (amounts in USD); the next invoice's total
// (the next period and any prorations) is asked of Stripe only for the owner.
import { TEAMS } from "../constants";
import type { StripeConfig } from "../config";
import { countsAsActive, statusLabel } from "./statuses";
import type { Stripe } from "./stripe.server";
import type { TeamBilling } from "./team-access.server";
import { upcomingTotal } from "./team-billing.server";

export async function teamBillingView(ctx: { stripe: Stripe | null; env: StripeConfig }, team: TeamBilling, manage: boolean, now = Date.now()) {
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
