// /dashboard/teams/:slug/activity (issue 50): what happened in the team, newest first, kept a
// year. Owners and admins only: anyone else gets the 404 of a page that does not exist.
import { data, Link } from "react-router";
import type { Route } from "./+types/activity";
import { TabError } from "~/components/dashboard/tab-error";
import { TeamNav } from "~/components/teams/team-nav";
import { useFormat } from "~/components/format";
import { Alert, buttonClass, Card } from "~/components/ui";
import { pageMeta } from "~/lib/site/meta";
import { type ActivityRow, listActivity, parseActivityCursor } from "~/lib/teams/activity.server";
import { requireTeamRole } from "~/lib/teams/teams.server";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";

export const meta = () => pageMeta("Team Activity | Modelify", { noindex: true });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const db = app(context).db;
  const { team, role } = await requireTeamRole(db, params.slug, user.id, "admin");
  const shown = { team: { name: team.name, slug: team.slug }, role };
  const after = parseActivityCursor(new URL(request.url).searchParams);
  if (after === "invalid") return data({ ...shown, rows: [], next: null, paged: true, refused: BAD_PAGE }, { status: 400 });
  return { ...shown, ...(await listActivity(db, team.id, after)), paged: after !== null, refused: null };
}

const BAD_PAGE = "This page of the activity log does not exist. Start again from the newest activity.";

const WORDS: Record<string, string> = {
  team_created: "created the team",
  invitation_sent: "sent an invitation",
  invitation_revoked: "revoked an invitation",
  member_joined: "joined",
  member_removed: "removed",
  member_left: "left the team",
  role_changed: "changed the role of",
  ownership_transferred: "transferred ownership to",
  seats_changed: "changed the seats",
  budget_changed: "changed the budget",
};

function activityLine(row: ActivityRow): string {
  if (row.action === "admin_viewed_usage") return `A Modelify administrator viewed usage: ${String(row.details.reason ?? "")}`;
  const who = row.actor ?? "A former member";
  const what = WORDS[row.action] ?? row.action.replaceAll("_", " ");
  const whom = row.subject && row.action !== "member_joined" && row.action !== "member_left" ? ` ${row.subject}` : "";
  const role = typeof row.details.to === "string" ? ` (now ${row.details.to})` : typeof row.details.role === "string" ? ` (${row.details.role})` : "";
  return `${who} ${what}${whom}${role}`;
}

export default function TeamActivity({ loaderData }: Route.ComponentProps) {
  const { team, role, rows, next, paged, refused } = loaderData;
  const f = useFormat();
  const path = `/dashboard/teams/${team.slug}/activity`;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight break-words text-slate-900 sm:text-3xl">{`${team.name}: Activity`}</h1>
        <p className="mt-1 text-sm text-slate-600">Invitations, joins, removals, role, seat and budget changes, kept for a year.</p>
      </div>
      <TeamNav slug={team.slug} role={role} />
      {refused ? <Alert tone="error">{refused}</Alert> : null}
      <Card className="p-6">
        {rows.length === 0 ? (
          <p className="text-sm text-slate-600">{paged ? "No older activity." : "Nothing has happened in this team yet."}</p>
        ) : (
          <ol className="divide-y divide-slate-100" aria-label="Team activity">
            {rows.map((row) => (
              <li key={row.id} className="flex flex-wrap justify-between gap-2 py-3 text-sm first:pt-0 last:pb-0">
                <span className="min-w-0 break-words text-slate-900">{activityLine(row)}</span>
                <time className="text-slate-600" dateTime={new Date(row.at).toISOString()}>
                  {f.dateTime(row.at)}
                </time>
              </li>
            ))}
          </ol>
        )}
        {paged || next ? (
          <nav aria-label="Pages of the activity log" className="mt-4 flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 pt-4">
            <p className="text-sm text-slate-500">{paged ? "Older activity" : "Newest activity"}</p>
            <div className="flex gap-2">
              {paged ? (
                <Link to={path} className={buttonClass("secondary", "sm")}>
                  Newest
                </Link>
              ) : null}
              {next ? (
                <Link to={`${path}?after=${next.at}&id=${next.id}`} className={buttonClass("primary", "sm")}>
                  Older
                </Link>
              ) : null}
            </div>
          </nav>
        ) : null}
      </Card>
    </div>
  );
}

export const ErrorBoundary = TabError;
