// Per-request glue between HTTP and the auth library: cookies, client IP, Origin checks.
import { redirect, type RouterContextProvider } from "react-router";
import { authContext, cloudflareContext } from "~/context";
import { getDb } from "../db.server";
import { parseEnv } from "../env.server";
import type { AuthDeps } from "./accounts.server";
import { ACCESS_COOKIE, clearCookie, parseCookies, REFRESH_COOKIE, RETURNING_COOKIE, serializeCookie } from "./cookies";
import {
  activityUpdateDue,
  authenticateAccessToken,
  refreshSession,
  touchActivity,
  type AuthState,
  type IssuedTokens,
  type SessionUser,
} from "./session.server";

const ONE_YEAR_S = 365 * 24 * 3600;

export function clientIp(request: Request): string | null {
  return request.headers.get("CF-Connecting-IP");
}

export function sessionCookies(url: URL, tokens: Pick<IssuedTokens, "accessToken" | "accessExpiresAt"> & { refreshToken: string | null; refreshExpiresAt: number }, now = Date.now()): string[] {
  const cookies = [serializeCookie(url, ACCESS_COOKIE, tokens.accessToken, { maxAgeSeconds: (tokens.accessExpiresAt - now) / 1000 })];
  if (tokens.refreshToken) {
    cookies.push(serializeCookie(url, REFRESH_COOKIE, tokens.refreshToken, { maxAgeSeconds: (tokens.refreshExpiresAt - now) / 1000 }));
  }
  return cookies;
}

export function signedInCookies(url: URL, tokens: IssuedTokens): string[] {
  return [...sessionCookies(url, tokens), serializeCookie(url, RETURNING_COOKIE, "1", { maxAgeSeconds: ONE_YEAR_S, httpOnly: false })];
}

export function clearSessionCookies(url: URL): string[] {
  return [clearCookie(url, ACCESS_COOKIE), clearCookie(url, REFRESH_COOKIE)];
}

export function headersWithCookies(cookies: string[]): Headers {
  const headers = new Headers();
  for (const c of cookies) headers.append("Set-Cookie", c);
  return headers;
}

/**
 * Reads the session cookies: a valid access token is checked against its (revocable) session;
 * an expired one is renewed with the refresh token, which rotates. Returns cookies to set.
 */
export async function resolveWebAuth(request: Request, env: Env, ctx: ExecutionContext): Promise<{ auth: AuthState; setCookies: string[] }> {
  const url = new URL(request.url);
  const cookies = parseCookies(request.headers.get("Cookie"));
  const access = cookies.get(ACCESS_COOKIE);
  const refresh = cookies.get(REFRESH_COOKIE);
  if (!access && !refresh) return { auth: { user: null, session: null }, setCookies: [] };

  const appEnv = parseEnv(env);
  const db = getDb(env.DB);
  let auth: AuthState | null = access ? await authenticateAccessToken(db, appEnv.JWT_SECRET, access) : null;
  let setCookies: string[] = [];
  if (!auth && refresh) {
    const result = await refreshSession(db, appEnv.JWT_SECRET, refresh);
    if (result.ok) {
      auth = result.auth;
      setCookies = sessionCookies(url, result);
    }
  }
  if (!auth) return { auth: { user: null, session: null }, setCookies: clearSessionCookies(url) };
  if (auth.user && activityUpdateDue(auth.user.lastActivityAt)) ctx.waitUntil(touchActivity(db, auth.user.id));
  return { auth, setCookies };
}

export function getCloudflare(context: Readonly<RouterContextProvider>) {
  return context.get(cloudflareContext);
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

export function authDeps(request: Request, context: Readonly<RouterContextProvider>): AuthDeps {
  const { env } = getCloudflare(context);
  const appEnv = parseEnv(env);
  return {
    db: getDb(env.DB),
    queue: env.EVENTS,
    env: appEnv,
    origin: appEnv.APP_URL ?? new URL(request.url).origin,
    ip: clientIp(request),
    userAgent: request.headers.get("User-Agent"),
  };
}

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
