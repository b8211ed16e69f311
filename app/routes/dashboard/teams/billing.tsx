// /dashboard/teams/:slug/billing: the team's Team plan (issue 50, ADR 0037). The owner starts
// checkout with a number of seats, adds or removes seats (prorated by Stripe) and opens Stripe's
// portal for the team's invoices and card; admins see the plan; anyone else gets a 404. Plain
// forms: it all works without JavaScript.
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { Route } from "./+types/billing";
import { TabError } from "~/components/dashboard/tab-error";
import { TeamBillingTab } from "~/components/dashboard/team-billing-tab";
import { changeTeamSeats, createTeamCheckout, createTeamPortal, teamBillingPath } from "~/lib/billing/team-billing.server";
import { teamSeatsSchema } from "~/lib/billing/team-billing-form";
import { teamBillingView } from "~/lib/billing/team-billing-view.server";
import { pageMeta } from "~/lib/site/meta";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm } from "~/server/requests.server";
import { formErrorResult } from "~/server/responses.server";
import { teamForBilling } from "./billing.server";

export const meta = () => pageMeta("Team Billing | Modelify", { noindex: true });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const ctx = app(context);
  const { team, role, rights } = await teamForBilling(ctx, params.slug, user.id, "view");
  const url = new URL(request.url);
  return {
    view: await teamBillingView(ctx, team, rights.manage),
    role,
    checkoutDone: url.searchParams.get("checkout") === "done",
    changed: url.searchParams.get("seats"),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const ctx = app(context);
  const { team } = await teamForBilling(ctx, params.slug, user.id, "manage");
  const read = await readForm(request);
  if (!read.ok) return data({ result: formErrorResult(read.message) }, { status: read.status });
  if (read.formData.get("intent") === "portal") {
    const portal = await createTeamPortal(ctx, team);
    if (!portal.ok) return data({ result: formErrorResult(portal.error) }, { status: portal.status });
    throw redirect(portal.url);
  }
  const submission = parseWithZod(read.formData, { schema: teamSeatsSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { intent, seats } = submission.value;
  if (intent === "checkout") {
    const checkout = await createTeamCheckout(ctx, team, user, seats);
    if (!checkout.ok) return data({ result: submission.reply({ fieldErrors: { seats: [checkout.error] } }) }, { status: checkout.status });
    throw redirect(checkout.url);
  }
  const changed = await changeTeamSeats(ctx, team, user.id, seats);
  if (!changed.ok) return data({ result: submission.reply({ fieldErrors: { seats: [changed.error] } }) }, { status: changed.status });
  throw redirect(`${teamBillingPath(team.slug)}?seats=${changed.seats}`, 303);
}

export default function TeamBilling({ loaderData, actionData }: Route.ComponentProps) {
  return <TeamBillingTab {...loaderData} result={actionData?.result} />;
}

export const ErrorBoundary = TabError;
