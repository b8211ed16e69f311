// /dashboard/teams/:slug/usage: a team's usage in the viewer's zone (issue 50, ADR 0038). Owners
// and admins see every member (a page of TEAMS.usageMembersPerPage at a time, highest cost first)
// and may filter to one; a member sees the team's totals and only their own row, and a filter to
// anyone else is a 404. Live: the page's socket to the team's ledger reloads it after each report.
import { data } from "react-router";
import type { Route } from "./+types/usage";
import { TabError } from "~/components/dashboard/tab-error";
import { TeamUsage, TeamUsageRefused } from "~/components/dashboard/team-usage";
import { pageMeta } from "~/lib/site/meta";
import { TEAM_MESSAGES } from "~/lib/teams/messages";
import { canManage } from "~/lib/teams/roles";
import { requireTeamRole } from "~/lib/teams/teams.server";
import { memberFilter, parseTeamUsageView, teamUsage } from "~/lib/usage/team-usage.server";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";

export const meta = ({ loaderData }: Route.MetaArgs) => pageMeta(`${loaderData?.team.name ?? "Team"} Usage | Modelify`, { noindex: true });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const deps = app(context);
  const membership = await requireTeamRole(deps.db, params.slug, user.id);
  const view = parseTeamUsageView(new URL(request.url).searchParams);
  const { team, role } = membership;
  // A made-up page or member in the URL: the reason, under the team's tabs.
  if (!view) return data({ refused: TEAM_MESSAGES.badUsageView, team: { slug: team.slug, name: team.name, role } } as const, { status: 400 });
  const filter = memberFilter(membership, user.id, view.member);
  // Another member's usage, asked by a member: as if there were no such page.
  if (!filter) throw new Response("Not found", { status: 404 });
  const usage = await teamUsage(deps, membership, { id: user.id, zone: user.profile.timeZone }, view, filter.member, Date.now());
  return {
    refused: null,
    team: { slug: team.slug, name: team.name, role },
    everyMember: canManage(role),
    viewerId: user.id,
    view: { days: view.days, member: filter.member ?? null, paged: view.after !== null },
    timeZone: user.profile.timeZone,
    ...usage,
  };
}

export default function TeamUsagePage({ loaderData }: Route.ComponentProps) {
  if (loaderData.refused !== null) return <TeamUsageRefused team={loaderData.team} message={loaderData.refused} />;
  return <TeamUsage {...loaderData} />;
}

export const ErrorBoundary = TabError;
