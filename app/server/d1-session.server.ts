// Reads of shared data (accounts, sessions, billing) through D1's Sessions API, so that a read
// replica near the visitor can answer, and a bookmark so that a visitor still reads their own
// writes (ADR 0019). One D1 session per request, started by createAppContext; every statement the
// request's db prepares goes through it (server/db.ts).
// - GET and HEAD start at the bookmark the browser (cookie) or the desktop app (header) brought
//   back, else anywhere ("first-unconstrained").
// - Every other method starts at the primary ("first-primary"): a mutation writes there anyway,
//   and its checks (revocation, lockouts, uniqueness) read the newest state, whatever bookmark
//   the request carries. The primary is at or past any bookmark, so none is needed.
// - After the request, the session's bookmark goes back to a signed-in browser in a cookie, or to
//   an API client in a header; see bookmarkCookie and apiBookmark.
import { accessCookie } from "./cookies.server";
import { log } from "~/lib/log/log.server";

/** The bookmark cookie: a position in D1's log, not a secret, and worth nothing after a minute. */
export const BOOKMARK_COOKIE = "mfy_d1b";

/**
 * How long the cookie lives (s). A bookmark matters only until the replicas have caught up with
 * the write it stands for, normally well under a second; a minute covers a slow replica, and
 * every signed-in page renews it while the visitor is active (only when it changed).
 */
export const BOOKMARK_MAX_AGE_SECONDS = 60;

/** The API's bookmark header: in authenticated answers (apiBookmark), honoured when a client sends it back. */
export const API_BOOKMARK_HEADER = "X-D1-Bookmark";

// What D1 hands out: four hyphenated hex fields (8-8-8-32). Anything else in a cookie or header
// is dropped before it reaches D1, which would otherwise fail the request's queries with it.
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;
const MAX_BOOKMARK_LENGTH = 59;

function isBookmark(value: unknown): value is string {
  return typeof value === "string" && value.length <= MAX_BOOKMARK_LENGTH && BOOKMARK.test(value);
}

export type D1RequestSession = {
  /** What the request's statements go through. */
  session: D1DatabaseSession;
  /** How the session started: the bookmark the request brought, or a constraint. */
  start: D1SessionConstraint | "bookmark";
  /** The valid bookmark the request brought (used or not), or null. */
  received: string | null;
};

/** The bookmark cookie's value when there is exactly a valid one, else null. */
function cookieBookmark(request: Request): string | null {
  const header = request.headers.get("Cookie");
  if (!header?.includes(BOOKMARK_COOKIE)) return null;
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === BOOKMARK_COOKIE) {
      const value = part.slice(at + 1).trim();
      return isBookmark(value) ? value : null;
    }
  }
  return null;
}

/** The bookmark a request brought back: the browser's cookie, else an API client's header. */
function requestBookmark(request: Request): string | null {
  const fromCookie = cookieBookmark(request);
  if (fromCookie) return fromCookie;
  const fromHeader = request.headers.get(API_BOOKMARK_HEADER)?.trim();
  return isBookmark(fromHeader) ? fromHeader : null;
}

const isRead = (request: Request) => request.method === "GET" || request.method === "HEAD";

/** The request's D1 session (see the top of this file for where it starts). */
export function startD1Session(d1: D1Database, request: Request): D1RequestSession {
  const received = requestBookmark(request);
  const from = !isRead(request) ? "first-primary" : (received ?? "first-unconstrained");
  const start = from === received ? "bookmark" : (from as D1SessionConstraint);
  try {
    return { session: d1.withSession(from), start, received };
  } catch (error) {
    // A bookmark D1 refuses must not cost the visitor their page: start at the primary instead,
    // and if no session can be had at all, use the binding as it is (its errors are the app's
    // usual "database unavailable" path, not a crash here).
    log.warn("d1_session_refused", { start }, error);
    try {
      return { session: d1.withSession("first-primary"), start: "first-primary", received: null };
    } catch {
      return { session: withoutSession(d1), start: "first-primary", received: null };
    }
  }
}

function withoutSession(d1: D1Database): D1DatabaseSession {
  return { prepare: (query) => d1.prepare(query), batch: (statements) => d1.batch(statements), getBookmark: () => null } as D1DatabaseSession;
}

/** The session's bookmark now, when it is one we would accept back; else null. */
function currentBookmark(d1: D1RequestSession): string | null {
  try {
    const bookmark = d1.session.getBookmark();
    return isBookmark(bookmark) ? bookmark : null;
  } catch {
    return null;
  }
}

// The answer signs the browser in (sign-in, a confirmation link, a new password): it sets a live
// access cookie.
function signsIn(response: Response): boolean {
  return response.headers.getSetCookie().some((line) => line.startsWith(`${accessCookie.name}=`) && !/;\s*Max-Age=0(;|$)/i.test(line));
}

// Routes that promise to set no cookie: the page-view beacon (routes/events.ts). Nothing is read
// back after it, and its answer sets nothing, signed in or not.
const NO_COOKIE_PATHS = new Set(["/events"]);

/**
 * The Set-Cookie line that hands a browser its new bookmark, or null. Only when it changed, and
 * only to a visitor who was signed in for this request or is signed in by its answer: they read
 * their own rows next. A signed-out answer never carries one: the marketing pages stay cacheable
 * (server/page-cache.ts stores no answer that sets a cookie), and the signed-out forms whose
 * answers must not differ for a known and an unknown address (sign-up, forgot password) do not
 * hand out a position in the database's log. Nor does an answer marked publicly cacheable, nor
 * the page-view beacon's.
 */
export function bookmarkCookie(request: Request, response: Response, d1: D1RequestSession, signedIn: boolean): string | null {
  if (!signedIn && !signsIn(response)) return null;
  if (NO_COOKIE_PATHS.has(new URL(request.url).pathname)) return null;
  if (/\b(public|s-maxage)\b/i.test(response.headers.get("Cache-Control") ?? "")) return null;
  const bookmark = currentBookmark(d1);
  if (!bookmark || bookmark === d1.received) return null;
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  // The value is checked against BOOKMARK above: hex and hyphens only, nothing to escape.
  return `${BOOKMARK_COOKIE}=${bookmark}; Max-Age=${BOOKMARK_MAX_AGE_SECONDS}; Path=/; HttpOnly; SameSite=Lax${secure}`;
}

/**
 * The bookmark for an API answer's header, or null: only a successful answer to a bearer client
 * or of the token endpoints (/api/v1/auth/*, whose next request reads the session or device code
 * this one wrote). Health, the OpenAPI document, Stripe's webhook and every error answer get none.
 */
export function apiBookmark(request: Request, response: Response, d1: D1RequestSession): string | null {
  if (response.status < 200 || response.status > 299) return null;
  const bearer = /^Bearer\s/i.test(request.headers.get("Authorization") ?? "");
  if (!bearer && !new URL(request.url).pathname.startsWith("/api/v1/auth/")) return null;
  return currentBookmark(d1);
}
