// GET /dashboard/teams/:slug/usage/live: the team usage page's WebSocket to the team's ledger
// (ADR 0038), as /dashboard/usage/live is to the account's own: members only (anyone else 404),
// our own pages only, tagged with the session (ending it closes the socket) and with the member
// (removing them from the team closes it: endTeamMemberSockets).
import type { Route } from "./+types/usage-live";
import { verifyAccessToken } from "~/lib/auth/jwt";
import { SESSION } from "~/lib/constants";
import { sessionKeys } from "~/lib/keys";
import { membershipOf } from "~/lib/teams/teams.server";
import { teamLedgerName } from "~/lib/usage/team-ingest.server";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { accessCookie, readCookie } from "~/server/cookies.server";
import { getOnly } from "~/server/responses.server";

export const action = getOnly;

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store", ...headers } });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user, session } = getAuth(context);
  if (!user) return text(401, "Sign in to see live usage.");
  if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return text(426, "Expected a WebSocket.", { Upgrade: "websocket" });
  if (request.headers.get("Origin") !== new URL(request.url).origin) return text(403, "This request came from another site and was refused.");
  const { ledgers, env, db } = app(context);
  const membership = await membershipOf(db, params.slug, user.id);
  if (!membership) return text(404, "Not Found");
  const access = await readCookie(accessCookie, request);
  const claims = access ? await verifyAccessToken(access, sessionKeys(env)) : null;
  const expiresAt = claims?.sid === session.id ? claims.expiresAt : Date.now() + SESSION.accessTokenTtlMs;
  const answer = await ledgers.get(ledgers.idFromName(teamLedgerName(membership.team.id))).fetch("https://ledger.internal/live", {
    headers: { Upgrade: "websocket", "X-Session-Id": session.id, "X-Session-Expires": String(expiresAt), "X-Member-Id": user.id },
  });
  if (answer.status !== 101 || !answer.webSocket) return text(502, "Live usage is unavailable.");
  return new Response(null, { status: 101, webSocket: answer.webSocket, headers: { "Cache-Control": "private, no-store" } });
}
