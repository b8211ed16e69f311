// Signed-out visitors of the marketing pages all get the same HTML, so the Worker keeps a
// rendered copy in the edge cache (the Cache API of the data centre) and serves it instead of
// rendering again. What keeps that safe:
// - only GETs of the pages below, and only without a session cookie: a signed-in visitor (or one
//   whose session is being renewed) is always rendered for, and their page is never stored;
// - only a 200 HTML answer that sets no cookie is stored;
// - the key holds the build's id, so a deploy starts from an empty cache, and the locale the page
//   writes its figures and dates in (Accept-Language's best: a few copies at most, issue 48);
// - each response gets its own CSP nonce: the stored copy has a placeholder where the nonce was;
// - the isolate keeps the last few pages in memory too, for the same 60 s.
// See docs/decisions/0015-usage-route-cost-and-page-cache.md.
import { isbot } from "isbot";
import { BoundedMap } from "~/lib/bounded-map";
import { PAGE_CACHE } from "~/lib/constants";
import { bestLocale } from "~/lib/locale";
import { accessCookie, refreshCookie } from "./cookies.server";

/** Pages that depend on nothing but their URL for a signed-out visitor. */
const CACHEABLE_PAGES = [/^\/$/, /^\/pricing$/, /^\/changelog$/, /^\/api-setup$/, /^\/api-reference$/, /^\/contact$/, /^\/legal\/[a-z-]+$/];

const SESSION_COOKIES = [accessCookie.name, refreshCookie.name];

// Where the nonce stood in a stored page: the same length and alphabet as a real one, so the
// document's bytes do not shift, and never a value a response is sent with.
const NONCE_PLACEHOLDER = "bW9kZWxpZnktcGFnZS1jYWNo";

/** The header that tells whoever asks (an operator, a test, the benchmark) whether the edge copy answered. */
export const PAGE_CACHE_HEADER = "X-Page-Cache";

function hasSessionCookie(request: Request): boolean {
  const cookie = request.headers.get("Cookie");
  if (!cookie) return false;
  return cookie.split(";").some((part) => SESSION_COOKIES.includes(part.split("=")[0]!.trim()));
}

/** The route pattern of a page answered from the edge copy, for its log line (no router ran). */
export function cachedPageRoute(pathname: string): string {
  return pathname.startsWith("/legal/") ? "/legal/:doc" : pathname;
}

/** The cache key of a request that may be answered from the edge copy, or null. */
export function pageCacheKey(request: Request, buildId: string): Request | null {
  if (request.method !== "GET" || hasSessionCookie(request)) return null;
  const url = new URL(request.url);
  if (!CACHEABLE_PAGES.some((re) => re.test(url.pathname))) return null;
  // Crawlers get the whole document at once (entry.server.tsx): a copy of their own.
  const agent = isbot(request.headers.get("User-Agent") ?? "") ? "bot" : "browser";
  // The locale as the root loader resolves it for a signed-out visitor (server/page-format.server.ts).
  const locale = bestLocale(request.headers.get("Accept-Language"));
  return new Request(`${url.origin}/__page-cache/${encodeURIComponent(buildId)}/${agent}/${locale}${url.pathname}${url.search}`);
}

export type PageCache = Pick<Cache, "match" | "put">;

/** The data centre's cache (Workers' `caches.default`, which the DOM typings lack). */
export function edgeCache(): PageCache {
  return (caches as unknown as { default: Cache }).default;
}

// The pages this isolate served last, in front of the data centre's cache: a Cache API lookup is
// a round trip, a Map lookup is not. Same keys, same lifetime; a handful of pages, so a few MB.
// A copy is held as its UTF-8 bytes split where the nonce goes, so an answer is a few copies of
// bytes rather than a replace over the whole document and its encoding.
type Copy = { parts: Uint8Array[]; headers: [string, string][]; until: number };
const utf8 = new TextEncoder();
const recent = new BoundedMap<string, Copy>(PAGE_CACHE.memoryPages);
const STORED_AT = "X-Page-Cache-Stored-At";

function remember(key: Request, copy: Copy) {
  recent.set(key.url, copy, copy.until);
}

function held(html: string, headers: [string, string][], until: number): Copy {
  const answerHeaders = new Headers(headers);
  answerHeaders.delete("Cache-Control");
  answerHeaders.delete(STORED_AT);
  answerHeaders.set(PAGE_CACHE_HEADER, "hit");
  return { parts: html.split(NONCE_PLACEHOLDER).map((part) => utf8.encode(part)), headers: [...answerHeaders], until };
}

function answer(copy: Copy, nonce: string): Response {
  const nonceBytes = utf8.encode(nonce);
  let length = nonceBytes.length * (copy.parts.length - 1);
  for (const part of copy.parts) length += part.length;
  const body = new Uint8Array(length);
  let at = 0;
  copy.parts.forEach((part, i) => {
    if (i > 0) {
      body.set(nonceBytes, at);
      at += nonceBytes.length;
    }
    body.set(part, at);
    at += part.length;
  });
  return new Response(body, { status: 200, headers: copy.headers });
}

/** The stored page for this request with `nonce` in place of the placeholder, or null. */
export async function cachedPage(cache: PageCache, key: Request, nonce: string, now = Date.now()): Promise<Response | null> {
  const recentCopy = recent.get(key.url, now);
  if (recentCopy) return answer(recentCopy, nonce);
  const stored = await cache.match(key);
  if (!stored) return null;
  const copy = held(await stored.text(), [...stored.headers], Number(stored.headers.get(STORED_AT) ?? now) + PAGE_CACHE.ttlSeconds * 1000);
  // The data centre may keep a copy a little longer than asked: past its 60 s it is not used.
  if (copy.until <= now) return null;
  remember(key, copy);
  return answer(copy, nonce);
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
  now = Date.now(),
): Promise<Response> {
  const isHtml = (response.headers.get("Content-Type") ?? "").startsWith("text/html");
  if (response.status !== 200 || !isHtml || response.headers.has("Set-Cookie") || response.headers.has("Cache-Control")) {
    return response;
  }
  const text = await response.text();
  const headers = new Headers(response.headers);
  const stored = new Headers(headers);
  stored.set("Cache-Control", `public, s-maxage=${PAGE_CACHE.ttlSeconds}`);
  stored.set(STORED_AT, String(now));
  const html = text.replaceAll(nonce, NONCE_PLACEHOLDER);
  remember(key, held(html, [...stored], now + PAGE_CACHE.ttlSeconds * 1000));
  waitUntil(cache.put(key, new Response(html, { status: 200, headers: stored })));
  headers.set(PAGE_CACHE_HEADER, "miss");
  return new Response(text, { status: 200, headers });
}
