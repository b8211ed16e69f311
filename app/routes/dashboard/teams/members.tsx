// /dashboard/teams/:slug/members (issue 50): the team's members with their roles, a page at a time
// (TEAMS.membersPerPage, keyset: ~/lib/teams/member-page.server.ts), the invitation form, open
// invitations (revocable), role changes, removals and the transfer of ownership. Owners and admins
// only (others get a 404, whatever the URL asks); a page link it cannot read answers 400 with a
// sentence saying so. Plain forms and links, so it all works without JavaScript, and every action
// returns to the page it was taken on.
import { data } from "react-router";
import type { Route } from "./+types/members";
import { TabError } from "~/components/dashboard/tab-error";
import { MembersPage, MembersRefused } from "~/components/teams/members-page";
import { pageMeta } from "~/lib/site/meta";
import { listOpenInvitations } from "~/lib/teams/invitations.server";
import { memberPage, parseMemberPage } from "~/lib/teams/member-page.server";
import { memberCount, requireTeamRole } from "~/lib/teams/teams.server";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm } from "~/server/requests.server";
import { formErrorResult, keepRetryAfter } from "~/server/responses.server";
import { DONE_MESSAGES, type Done, membersAction } from "./members.server";

export const meta = () => pageMeta("Team Members | Modelify", { noindex: true });
// An invitation refused by its sending limits answers 429 with when to try again.
export const headers = keepRetryAfter;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const db = app(context).db;
  const { team, role } = await requireTeamRole(db, params.slug, user.id, "admin");
  const url = new URL(request.url);
  const teamView = { name: team.name, slug: team.slug, seats: team.seats };
  const asked = parseMemberPage(url.searchParams);
  if (!asked.ok) return data({ ok: false as const, team: teamView, role, message: asked.message }, { status: 400 });
  const [page, count, invitations] = await Promise.all([memberPage(db, team.id, asked.ask), memberCount(db, team.id), listOpenInvitations(db, team.id)]);
  const done = url.searchParams.get("done");
  return {
    ok: true as const,
    team: teamView,
    role,
    viewerId: user.id,
    members: page.rows,
    count,
    pages: { previous: page.previous, next: page.next },
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
  // Back to the page the form was on (its URL's page link, when it is one this page wrote).
  const asked = parseMemberPage(new URL(request.url).searchParams);
  return membersAction(deps, membership, user.id, read.formData, asked.ok ? asked.search : "");
}

export default function Members({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.ok) return <MembersRefused {...loaderData} />;
  return <MembersPage {...loaderData} result={actionData?.result ?? undefined} error={actionData?.error ?? null} />;
}

export const ErrorBoundary = TabError;
