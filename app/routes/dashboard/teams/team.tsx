// /dashboard/teams/:slug (issue 50): the team's overview for any member: its name, the viewer's
// role, seats used of its total and how many members, the links to its other pages (TeamNav), and
// "Leave team" (refused to an owner while others are members).
import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/team";
import { TabError } from "~/components/dashboard/tab-error";
import { TeamNav } from "~/components/teams/team-nav";
import { Alert, Button, Card } from "~/components/ui";
import { pageMeta } from "~/lib/site/meta";
import { leaveTeam } from "~/lib/teams/members.server";
import { roleLabel } from "~/lib/teams/roles";
import { memberCount, requireTeamRole } from "~/lib/teams/teams.server";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm } from "~/server/requests.server";

export const meta = ({ loaderData }: Route.MetaArgs) => pageMeta(`${loaderData?.team.name ?? "Team"} | Modelify`, { noindex: true });

export async function loader({ params, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const db = app(context).db;
  const { team, role } = await requireTeamRole(db, params.slug, user.id);
  return { team: { name: team.name, slug: team.slug, seats: team.seats }, role, members: await memberCount(db, team.id) };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const deps = app(context);
  const membership = await requireTeamRole(deps.db, params.slug, user.id);
  const read = await readForm(request);
  if (!read.ok || read.formData.get("intent") !== "leave") return data({ error: read.ok ? "Unknown action." : read.message }, { status: 400 });
  const left = await leaveTeam(deps, membership, user.id);
  if (!left.ok) return data({ error: left.error }, { status: 409 });
  throw redirect("/dashboard/teams", 303);
}

export default function TeamOverview({ loaderData, actionData }: Route.ComponentProps) {
  const { team, role, members } = loaderData;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight break-words text-slate-900 sm:text-3xl">{team.name}</h1>
        <p className="mt-1 text-sm text-slate-600">{`Your role: ${roleLabel(role)}`}</p>
      </div>
      <TeamNav slug={team.slug} role={role} />
      {actionData?.error ? <Alert tone="error">{actionData.error}</Alert> : null}
      <section aria-labelledby="team-facts">
        <Card className="p-6">
          <h2 id="team-facts" className="text-lg font-semibold text-slate-900">
            Seats
          </h2>
          <dl className="mt-4 grid gap-4 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-slate-600">Seats used</dt>
              <dd className="mt-1 text-xl font-semibold text-slate-900" data-testid="seats-used">{`${members} of ${team.seats}`}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Members</dt>
              <dd className="mt-1 text-xl font-semibold text-slate-900" data-testid="member-count">
                {members}
              </dd>
            </div>
          </dl>
          <p className="mt-4 text-sm text-slate-600">Every membership takes a seat, the owner's included.</p>
        </Card>
      </section>
      <section aria-labelledby="leave-title">
        <Card className="p-6">
          <h2 id="leave-title" className="text-lg font-semibold text-slate-900">
            Leave the team
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            {role === "owner"
              ? "As its owner you can leave only when you are its last member (the team is then deleted): transfer ownership first otherwise."
              : "You lose access to the team's pages at once. An owner or admin can invite you again."}
          </p>
          <Form method="post" className="mt-4">
            <input type="hidden" name="intent" value="leave" />
            <Button type="submit" variant="secondary">
              Leave Team
            </Button>
          </Form>
        </Card>
      </section>
    </div>
  );
}

export const ErrorBoundary = TabError;
