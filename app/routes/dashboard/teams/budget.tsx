// /dashboard/teams/:slug/budget (issue 50, ADR 0039): the team's monthly and daily budget, its alert
// thresholds (mailed to the owner and admins), the hard-cap switches and a monthly cap per member.
// Owners and admins only: a member or anyone else gets a 404 (members see the team's totals on the
// usage page). Plain forms: it all works without JavaScript.
import { data } from "react-router";
import type { Route } from "./+types/budget";
import { TabError } from "~/components/dashboard/tab-error";
import { TeamBudgetPage } from "~/components/teams/budget-page";
import { pageMeta } from "~/lib/site/meta";
import { memberCapsOf, teamBudgetOf } from "~/lib/teams/budget.server";
import { requireTeamRole } from "~/lib/teams/teams.server";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm } from "~/server/requests.server";
import { formErrorResult } from "~/server/responses.server";
import { BUDGET_DONE, budgetAction } from "./budget.server";

export const meta = () => pageMeta("Team Budget | Modelify", { noindex: true });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const db = app(context).db;
  const { team, role } = await requireTeamRole(db, params.slug, user.id, "admin");
  const [budget, caps] = await Promise.all([teamBudgetOf(db, team.id), memberCapsOf(db, team.id)]);
  const done = new URL(request.url).searchParams.get("done");
  return {
    team: { name: team.name, slug: team.slug },
    role,
    budget,
    caps,
    notice: done && Object.hasOwn(BUDGET_DONE, done) ? BUDGET_DONE[done]! : null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const db = app(context).db;
  const membership = await requireTeamRole(db, params.slug, user.id, "admin");
  const read = await readForm(request);
  if (!read.ok) return data({ form: "budget", result: formErrorResult(read.message) }, { status: read.status });
  return budgetAction(db, membership, user.id, read.formData);
}

export default function TeamBudget({ loaderData, actionData }: Route.ComponentProps) {
  return <TeamBudgetPage {...loaderData} form={actionData?.form ?? null} result={actionData?.result} />;
}

export const ErrorBoundary = TabError;
