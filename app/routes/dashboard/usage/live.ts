// GET /dashboard/usage/live: the usage tab's WebSocket. The signed-in user's socket is handed to
// their own usage ledger (workers/usage-ledger.ts), which accepts it with the hibernation API and
// says {"type":"usage","version":N} after every report it stores; the page then reloads its data.
// The ledger is named by the session's user id only: nothing in the request chooses another. The
// socket belongs to this session: it is tagged with it (ending the session closes it at once) and
// ends when the access token this upgrade came with would (the tab then opens a new one).
import type { Route } from "./+types/live";
import { verifyAccessToken } from "~/lib/auth/jwt";
import { SESSION } from "~/lib/constants";
import { sessionKeys } from "~/lib/keys";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { accessCookie, readCookie } from "~/server/cookies.server";
import { getOnly } from "~/server/responses.server";

export const action = getOnly;

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store", ...headers } });

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, session } = getAuth(context);
  // A socket cannot follow a redirect to the sign-in page: it is told it has no session.
  if (!user) return text(401, "Sign in to see live usage.");
  if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return text(426, "Expected a WebSocket.", { Upgrade: "websocket" });
  // Browsers do not apply CORS to WebSockets, and the cookie goes along from any site: only our
  // own pages may open one (every browser sends Origin with a WebSocket handshake).
  if (request.headers.get("Origin") !== new URL(request.url).origin) return text(403, "This request came from another site and was refused.");

  const { ledgers, env } = app(context);
  // The cookie's token; one renewed in this request (resolveWebAuth) lives a whole token's life.
  const access = await readCookie(accessCookie, request);
  const claims = access ? await verifyAccessToken(access, sessionKeys(env)) : null;
  const expiresAt = claims?.sid === session.id ? claims.expiresAt : Date.now() + SESSION.accessTokenTtlMs;
  // Only the upgrade and the session go on: no cookie, no other header of the browser's reaches the ledger.
  const answer = await ledgers
    .get(ledgers.idFromName(user.id))
    .fetch("https://ledger.internal/live", { headers: { Upgrade: "websocket", "X-Session-Id": session.id, "X-Session-Expires": String(expiresAt) } });
  if (answer.status !== 101 || !answer.webSocket) return text(502, "Live usage is unavailable.");
  // An answer of a Durable Object has immutable headers; the layers above add cookies and
  // security headers, so the socket goes on in a response of our own.
  return new Response(null, { status: 101, webSocket: answer.webSocket, headers: { "Cache-Control": "private, no-store" } });
}
