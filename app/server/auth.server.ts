// Who is asking: browser sessions from cookies (resolved once per request by the web layout's
// middleware) and desktop tokens from the Authorization header.
import { redirect, type RouterContextProvider } from "react-router";
import { sessionKeys } from "~/lib/keys";
import { authenticateAccessToken, authenticateBearerToken, refreshSession, type AuthState, type SessionUser } from "~/lib/auth/session.server";
import { activityUpdateDue, touchActivity } from "~/lib/auth/session-activity.server";
import { OAUTH_REALM } from "~/lib/auth/oauth";
import { isApiKeyToken } from "~/lib/auth/api-keys.server";
import { noteAccount } from "~/lib/log/log.server";
import { authContext, type AppContext } from "./context.server";
import { accessCookie, clearSessionCookies, readCookie, refreshCookie, sessionCookies } from "./cookies.server";
import { jsonError } from "./responses.server";

/**
 * Reads the session cookies: a valid access token is checked against its (revocable) session;
 * an expired one is renewed with the refresh token, which rotates. Returns cookies to set.
 */
export async function resolveWebAuth(request: Request, app: AppContext): Promise<{ auth: AuthState; setCookies: string[] }> {
  const url = new URL(request.url);
  const [access, refresh] = await Promise.all([readCookie(accessCookie, request), readCookie(refreshCookie, request)]);
  if (!access && !refresh) return { auth: { user: null, session: null }, setCookies: [] };

  // A GET or HEAD runs no action before its loaders: the rows they often show can come with the
  // session's statement. A mutation's loaders must see what its action wrote, so they read them.
  const accountRows = request.method === "GET" || request.method === "HEAD";
  let auth: AuthState | null = access ? await authenticateAccessToken(app.db, sessionKeys(app.env), access, { accountRows }) : null;
  let setCookies: string[] = [];
  if (!auth && refresh) {
    const result = await refreshSession(app, sessionKeys(app.env), refresh);
    if (result.ok) {
      auth = result.auth;
      setCookies = await sessionCookies(url, result);
    }
  }
  if (!auth) return { auth: { user: null, session: null }, setCookies: await clearSessionCookies(url) };
  if (auth.user) noteAccount(auth.user.id);
  if (auth.user && activityUpdateDue(auth.user.lastActivityAt)) app.ctx.waitUntil(touchActivity(app.db, auth.user.id));
  return { auth, setCookies };
}

export function getAuth(context: Readonly<RouterContextProvider>): AuthState {
  return context.get(authContext);
}

/** For protected pages: the signed-in user, or a redirect to /auth (spec: no user → /auth). */
export function requireUser(context: Readonly<RouterContextProvider>): SessionUser {
  const { user } = getAuth(context);
  if (!user) throw redirect("/auth");
  return user;
}

/** Admin-only pages and actions: anyone else gets a 404, as if the page did not exist. */
export function requireAdmin(context: Readonly<RouterContextProvider>): SessionUser {
  const user = requireUser(context);
  if (user.role !== "admin") throw new Response("Not found", { status: 404 });
  return user;
}

/** The user behind `Authorization: Bearer <access token>` (see requireBearer). */
export async function requireApiUser(request: Request, app: AppContext): Promise<SessionUser> {
  return (await requireApiSession(request, app)).user;
}

/** The user and the session (a desktop app's device key) behind the bearer token. */
export async function requireApiSession(request: Request, app: AppContext) {
  const auth = await requireBearer(request, (token) => authenticateBearerToken(app.db, sessionKeys(app.env), token));
  noteAccount(auth.user.id);
  return auth;
}

/**
 * Every API route's bearer check, whichever lookup it uses (the usage routes' skips a recent
 * desktop session's row): the token's holder, or a JSON 401 thrown, with `code: "session_ended"`
 * when the token's session (a device key) ended. A personal API key is refused with a 403 before
 * any lookup, unless the route reads with one (`personalKeys`: the read API, ADR 0034).
 */
export async function requireBearer<Holder extends object>(
  request: Request,
  authenticate: (token: string) => Promise<Holder | { ended: true } | null>,
  { personalKeys = false }: { personalKeys?: boolean } = {},
): Promise<Holder> {
  const token = bearerToken(request);
  if (!personalKeys && isApiKeyToken(token)) throw readOnlyKey();
  const holder = await authenticate(token);
  if (!holder) throw invalidToken();
  if ("ended" in holder) throw sessionEnded();
  return holder;
}

/**
 * The token of `Authorization: Bearer <token>` (the scheme in any case, RFC 7235 2.1). Throws a
 * JSON 401 when none was sent, whose challenge carries no error code (RFC 6750 3.1: the client
 * did not know it needed to authenticate), or when the credentials cannot be one of our tokens.
 */
function bearerToken(request: Request): string {
  const header = request.headers.get("Authorization") ?? "";
  const sent = /^Bearer +(\S.*)$/i.exec(header.trim());
  if (!sent) throw jsonError(401, "Missing or malformed Authorization header", { "WWW-Authenticate": `Bearer realm="${OAUTH_REALM}"` });
  const token = sent[1]!;
  if (!/^[A-Za-z0-9._-]{20,4096}$/.test(token)) throw invalidToken();
  return token;
}

const invalidToken = () =>
  jsonError(401, "Invalid or expired access token", {
    "WWW-Authenticate": `Bearer realm="${OAUTH_REALM}", error="invalid_token"`,
    "Cache-Control": "no-store",
  });

/**
 * A personal API key on a route that is not the read API's (RFC 6750 3.1: insufficient_scope).
 * Said plainly, because the person who pasted it into a script needs to know what to use instead.
 */
const readOnlyKey = () =>
  Response.json(
    {
      error:
        "Personal API keys only read usage (GET /api/v1/usage/summary and GET /api/v1/usage/requests). Reporting usage and claiming entitlements take the desktop app's sign-in.",
      code: "insufficient_scope",
    },
    {
      status: 403,
      headers: { "WWW-Authenticate": `Bearer realm="${OAUTH_REALM}", error="insufficient_scope", scope="usage:write"`, "Cache-Control": "no-store" },
    },
  );

/** A valid token of a session that ended: revoked in the dashboard, signed out, or reset. The app shows the error and signs in again. */
const sessionEnded = () =>
  Response.json(
    { error: "This device was signed out of your Modelify account. Sign in again from the app.", code: "session_ended" },
    {
      status: 401,
      headers: { "WWW-Authenticate": `Bearer realm="${OAUTH_REALM}", error="invalid_token", error_description="session ended"`, "Cache-Control": "no-store" },
    },
  );

/**
 * Mutations from a browser must come from our own pages. Browsers send Origin on every POST;
 * Sec-Fetch-Site covers the rare privacy setting that strips it.
 */
export function isSameOriginMutation(request: Request): boolean {
  if (["GET", "HEAD", "OPTIONS"].includes(request.method)) return true;
  const origin = request.headers.get("Origin");
  if (origin) return origin === new URL(request.url).origin;
  return request.headers.get("Sec-Fetch-Site") === "same-origin";
}

/**
 * A GET that our own pages or the user started: a link on the site (same-origin), or an address
 * typed, bookmarked or opened by another program such as the desktop app (none). Any other site
 * can send a browser to a GET too, so a GET that spends something (a guess at a code) must be
 * one of these; a browser that sends no Sec-Fetch-Site gets the safe answer.
 */
export function isOwnNavigation(request: Request): boolean {
  const site = request.headers.get("Sec-Fetch-Site");
  return site === "same-origin" || site === "none";
}
