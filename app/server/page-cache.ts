// Signed-out visitors of the marketing pages all get the same HTML, so the Worker keeps a
// rendered copy in the edge cache (the Cache API of the data centre) and serves it instead of
// rendering again. What keeps that safe:
// - only GETs of the pages below, and only without a session cookie: a signed-in visitor (or one
//   whose session is being renewed) is always rendered for, and their page is never stored;
// - only a 200 HTML answer that sets no cookie is stored;
// - the key holds the build's id, so a deploy starts from an empty cache;
// - each response gets its own CSP nonce: the stored copy has a placeholder where the nonce was.
// See docs/decisions/0015-usage-route-cost-and-page-cache.md.
import { isbot } from "isbot";
import { PAGE_CACHE } from "~/lib/constants";
import { accessCookie, refreshCookie } from "./cookies";

/** Pages that depend on nothing but their URL for a signed-out visitor. */
const CACHEABLE_PAGES = [/^\/$/, /^\/pricing$/, /^\/changelog$/, /^\/api-setup$/, /^\/contact$/, /^\/legal\/[a-z-]+$/];

const SESSION_COOKIES = [accessCookie.name, refreshCookie.name];

// Where the nonce stood in a stored page: the same length and alphabet as a real one, so the
// document's bytes do not shift, and never a value a response is sent with.
const NONCE_PLACEHOLDER = "bW9kZWxpZnktcGFnZS1jYWNo";

/** The header that says whether the edge copy answered (tests and the benchmark read it). */
export const PAGE_CACHE_HEADER = "X-Page-Cache";

function hasSessionCookie(request: Request): boolean {
  const cookie = request.headers.get("Cookie");
  if (!cookie) return false;
  return cookie.split(";").some((part) => SESSION_COOKIES.includes(part.split("=")[0]!.trim()));
}

/** The cache key of a request that may be answered from the edge copy, or null. */
export function pageCacheKey(request: Request, buildId: string): Request | null {
  if (request.method !== "GET" || hasSessionCookie(request)) return null;
  const url = new URL(request.url);
  if (!CACHEABLE_PAGES.some((re) => re.test(url.pathname))) return null;
  // Crawlers get the whole document at once (entry.server.tsx): a copy of their own.
  const agent = isbot(request.headers.get("User-Agent") ?? "") ? "bot" : "browser";
  return new Request(`${url.origin}/__page-cache/${encodeURIComponent(buildId)}/${agent}${url.pathname}${url.search}`);
}

export type PageCache = Pick<Cache, "match" | "put">;

/** The data centre's cache (Workers' `caches.default`, which the DOM typings lack). */
export function edgeCache(): PageCache {
  return (caches as unknown as { default: Cache }).default;
}

/** The stored page for this request with `nonce` in place of the placeholder, or null. */
export async function cachedPage(cache: PageCache, key: Request, nonce: string): Promise<Response | null> {
  const stored = await cache.match(key);
  if (!stored) return null;
  const html = (await stored.text()).replaceAll(NONCE_PLACEHOLDER, nonce);
  const headers = new Headers(stored.headers);
  headers.delete("Cache-Control");
  headers.set(PAGE_CACHE_HEADER, "hit");
  return new Response(html, { status: 200, headers });
}

/**
 * Stores a fresh answer when it is a plain page (200, HTML, no cookie set) and returns what to
 * send: the same page, read whole (the pages that are stored have no deferred parts to stream).
 */
export async function storePage(
  cache: PageCache,
  key: Request,
  response: Response,
  nonce: string,
  waitUntil: (p: Promise<unknown>) => void,
): Promise<Response> {
  const html = (response.headers.get("Content-Type") ?? "").startsWith("text/html");
  if (response.status !== 200 || !html || response.headers.has("Set-Cookie") || response.headers.has("Cache-Control")) {
    return response;
  }
  const text = await response.text();
  const headers = new Headers(response.headers);
  const stored = new Headers(headers);
  stored.set("Cache-Control", `public, s-maxage=${PAGE_CACHE.ttlSeconds}`);
  waitUntil(cache.put(key, new Response(text.replaceAll(nonce, NONCE_PLACEHOLDER), { status: 200, headers: stored })));
  headers.set(PAGE_CACHE_HEADER, "miss");
  return new Response(text, { status: 200, headers });
}
