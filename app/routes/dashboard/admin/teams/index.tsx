// /dashboard/admin/teams (issue 50): every team, newest first, a page at a time (keyset), with its
// seats used of bought, its plan's status and its revenue a month. Anyone but the site admin gets
// the 404 of a page that does not exist. A team's usage is one link further, behind a reason.
import { Link } from "react-router";
import type { Route } from "./+types/index";
import { TabError } from "~/components/dashboard/tab-error";
import { useFormat } from "~/components/format";
import { Card } from "~/components/ui";
import { pageMeta } from "~/lib/site/meta";
import { listTeamsForAdmin, revenueSummary } from "~/lib/teams/admin-teams.server";
import { z } from "~/lib/zod";
import { requireAdmin } from "~/server/auth.server";
import { app } from "~/server/context.server";

export const meta = () => pageMeta("Teams | Admin | Modelify", { noindex: true });

const cursorSchema = z.object({ createdAt: z.coerce.number().int().min(0), id: z.string().min(1).max(64) });

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const params = new URL(request.url).searchParams;
  const asked = params.has("after") ? cursorSchema.safeParse({ createdAt: params.get("after"), id: params.get("id") }) : null;
  if (asked && !asked.success) throw new Response("Not found", { status: 404 });
  const { db } = app(context);
  const [page, summary] = await Promise.all([listTeamsForAdmin(db, asked?.data ?? null), revenueSummary(db)]);
  return { ...page, summary, paged: asked !== null };
}

export default function AdminTeams({ loaderData }: Route.ComponentProps) {
  const { rows, next, summary, paged } = loaderData;
  const f = useFormat();
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Teams</h1>
      <p className="mt-1 max-w-3xl text-sm text-slate-600">
        Revenue is what each team's subscription bills a month while Stripe reports it active (seats × the seat price); trials bring none. A team's usage opens
        only with a reason, which its owners and admins see in their activity log.
      </p>
      <p className="mt-3 text-sm text-slate-900" data-testid="teams-revenue">
        {`${f.plural(summary.payingTeams, "paying team")}, ${f.usd(summary.revenueCents / 100)} a month`}
      </p>
      <Card className="mt-6 overflow-x-auto" role="region" aria-label="Teams" tabIndex={0}>
        <table className="w-full min-w-[44rem] text-sm" data-testid="admin-teams">
          <thead className="bg-slate-50 text-left text-slate-600">
            <tr>
              <th className="px-4 py-2 font-medium">Team</th>
              <th className="px-4 py-2 font-medium">Owner</th>
              <th className="px-4 py-2 text-right font-medium">Seats used</th>
              <th className="px-4 py-2 font-medium">Plan</th>
              <th className="px-4 py-2 text-right font-medium">Revenue a month</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((team) => (
              <tr key={team.id}>
                <td className="px-4 py-2">
                  <Link to={`/dashboard/admin/teams/${team.id}`} className="font-medium break-words text-blue-700 underline">
                    {team.name}
                  </Link>
                </td>
                <td className="px-4 py-2 break-all text-slate-700">{team.owner}</td>
                <td className="px-4 py-2 text-right tabular-nums">{`${f.count(team.used)} / ${f.count(team.seats)}`}</td>
                <td className="px-4 py-2 text-slate-700">{team.status ?? "Unpaid"}</td>
                <td className="px-4 py-2 text-right tabular-nums">{f.usd(team.revenueCents / 100)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {rows.length === 0 ? <p className="p-4 text-sm text-slate-600">No teams yet.</p> : null}
      </Card>
      <nav className="mt-4 flex gap-4 text-sm" aria-label="Pages of teams">
        {paged ? (
          <Link to="/dashboard/admin/teams" className="font-medium text-blue-700 underline">
            First page
          </Link>
        ) : null}
        {next ? (
          <Link to={`?after=${next.createdAt}&id=${encodeURIComponent(next.id)}`} className="font-medium text-blue-700 underline">
            Next page
          </Link>
        ) : null}
      </nav>
    </>
  );
}

export const ErrorBoundary = TabError;
