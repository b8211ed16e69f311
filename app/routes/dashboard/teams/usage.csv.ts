// GET /dashboard/teams/:slug/usage.csv?days=: the team's usage as a tidy CSV, one row per member,
// day (of the viewer's zone) and model. Owners and admins get every member; a member their own rows.
import type { Route } from "./+types/usage.csv";
import { csvRow } from "~/lib/csv";
import { TEAM_MESSAGES } from "~/lib/teams/messages";
import { parseTeamUsageView, teamUsageRows } from "~/lib/usage/team-usage.server";
import { requireTeamRole } from "~/lib/teams/teams.server";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { getOnly } from "~/server/responses.server";

export const action = getOnly;

const CRLF = "\r\n";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const deps = app(context);
  const membership = await requireTeamRole(deps.db, params.slug, user.id);
  const view = parseTeamUsageView(new URL(request.url).searchParams);
  if (!view) throw new Response(TEAM_MESSAGES.badUsageView, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const zone = user.profile.timeZone;
  const { rows, first, last } = await teamUsageRows(deps, membership, { id: user.id, zone }, view.days, Date.now());
  let body = `${csvRow([`date_local (${zone})`, "member_id", "member", "model", "provider", "requests", "successes", "tokens", "cost_usd"])}${CRLF}`;
  for (const r of rows) {
    body += `${csvRow([r.date, r.member, r.name, r.key, r.provider ?? "", r.totalRequests, r.successCount, r.totalTokens, r.totalCostMicros / 1e6])}${CRLF}`;
  }
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="modelify-team-${membership.team.slug}-usage-${first}-${last}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
