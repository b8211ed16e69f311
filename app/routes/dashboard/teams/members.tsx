// /dashboard/teams/:slug/members (issue 50): the team's members with their roles, the invitation
// form, open invitations (revocable), role changes, removals and the transfer of ownership.
// Owners and admins only (others get a 404); plain forms, so it all works without JavaScript.
import { data } from "react-router";
import type { Route } from "./+types/members";
import { TabError } from "~/components/dashboard/tab-error";
import { MembersPage } from "~/components/teams/members-page";
import { pageMeta } from "~/lib/site/meta";
import { listOpenInvitations } from "~/lib/teams/invitations.server";
import { listMembers } from "~/lib/teams/members.server";
import { requireTeamRole } from "~/lib/teams/teams.server";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm } from "~/server/requests.server";
import { formErrorResult } from "~/server/responses.server";
import { DONE_MESSAGES, type Done, membersAction } from "./members.server";

export const meta = () => pageMeta("Team Members | Modelify", { noindex: true });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const db = app(context).db;
  const { team, role } = await requireTeamRole(db, params.slug, user.id, "admin");
  const [members, invitations] = await Promise.all([listMembers(db, team.id), listOpenInvitations(db, team.id)]);
  const done = new URL(request.url).searchParams.get("done");
  return {
    team: { name: team.name, slug: team.slug, seats: team.seats },
    role,
    viewerId: user.id,
    members,
    invitations,
    notice: done && Object.hasOwn(DONE_MESSAGES, done) ? DONE_MESSAGES[done as Done] : null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const deps = app(context);
  const membership = await requireTeamRole(deps.db, params.slug, user.id, "admin");
  const read = await readForm(request);
  if (!read.ok) return data({ result: formErrorResult(read.message), error: null }, { status: read.status });
  return membersAction(deps, membership, user.id, read.formData);
}

export default function Members({ loaderData, actionData }: Route.ComponentProps) {
  return <MembersPage {...loaderData} result={actionData?.result ?? undefined} error={actionData?.error ?? null} />;
}

export const ErrorBoundary = TabError;
