// The edge copy of the marketing pages: served to signed-out visitors only, never stored from or
// for a signed-in one, a fresh CSP nonce on every answer, keyed by the build.
import { describe, expect, it } from "vitest";
import { PAGE_CACHE } from "~/lib/constants";
import { cachedPage, PAGE_CACHE_HEADER, type PageCache, pageCacheKey, storePage } from "~/server/page-cache.server";
import { Browser, createConfirmedUser, ORIGIN } from "./helpers";
import { measured } from "./log-lines";

const nonceOf = (response: Response) => /'nonce-([^']+)'/.exec(response.headers.get("Content-Security-Policy") ?? "")?.[1];
const scriptNonces = (html: string) => [...new Set([...html.matchAll(/<(?:script|link)[^>]* nonce="([^"]+)"/g)].map((m) => m[1]))];

describe("the page cache", () => {
  it("renders a signed-out page once, then answers from the copy with a fresh nonce each time", async () => {
    const path = `/pricing?c=${crypto.randomUUID()}`;
    const first = await new Browser().get(path);
    expect(first.status).toBe(200);
    expect(first.headers.get(PAGE_CACHE_HEADER)).toBe("miss");
    const firstHtml = await first.text();

    const { response: second, d1Statements } = await measured(() => new Browser().get(path));
    expect(second.headers.get(PAGE_CACHE_HEADER)).toBe("hit");
    // No D1 statement for a copy (the request's log line counts them).
    expect(d1Statements).toBe(0);
    const secondHtml = await second.text();

    const [a, b] = [nonceOf(first), nonceOf(second)];
    expect(a).toBeTruthy();
    expect(b).toBeTruthy();
    expect(a).not.toBe(b);
    // Every script carries the nonce its own response's CSP allows, and nothing else changed.
    expect(scriptNonces(firstHtml)).toEqual([a]);
    expect(scriptNonces(secondHtml)).toEqual([b]);
    expect(secondHtml.replaceAll(b!, a!)).toBe(firstHtml);
    // The security headers are the ones every page gets.
    for (const name of ["X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy"]) expect(second.headers.get(name)).toBe(first.headers.get(name));
  });

  it("never answers a signed-in visitor from the copy, nor stores their page", async () => {
    const path = `/?c=${crypto.randomUUID()}`;
    const { browser } = await createConfirmedUser();
    // Signed in first: rendered for them, not stored.
    const mine = await browser.get(path);
    expect(mine.headers.get(PAGE_CACHE_HEADER)).toBeNull();
    expect(mine.headers.get("Cache-Control")).toBe("private, no-store");
    const visitorFirst = await new Browser().get(path);
    expect(visitorFirst.headers.get(PAGE_CACHE_HEADER)).toBe("miss");
    expect(await visitorFirst.text()).not.toContain("Go to Dashboard");
    // Once the signed-out copy exists, the signed-in visitor still gets their own page.
    expect((await new Browser().get(path)).headers.get(PAGE_CACHE_HEADER)).toBe("hit");
    const again = await browser.get(path);
    expect(again.headers.get(PAGE_CACHE_HEADER)).toBeNull();
    const html = await again.text();
    expect(html).toMatch(/Get Subscription|Go to Dashboard/);
    expect(html).not.toContain("Start Building");
  });

  it("leaves personal and form pages, other methods and errors alone", async () => {
    for (const path of ["/auth", "/dashboard", "/auth/reset-password", "/api/v1/health", "/no-such-page"]) {
      for (let i = 0; i < 2; i++) expect((await new Browser().get(path)).headers.get(PAGE_CACHE_HEADER), path).toBeNull();
    }
    const head = await new Browser().get("/", { method: "HEAD" });
    expect(head.headers.get(PAGE_CACHE_HEADER)).toBeNull();
    // A stale session cookie is cleared (Set-Cookie): that answer is not stored either.
    const stale = new Browser();
    stale.cookies.set("mfy_access", "not-a-token");
    const path = `/changelog?c=${crypto.randomUUID()}`;
    expect((await stale.get(path)).headers.get(PAGE_CACHE_HEADER)).toBeNull();
    expect((await new Browser().get(path)).headers.get(PAGE_CACHE_HEADER)).toBe("miss");
  });

  it("keys copies by build, crawler or browser, locale, path and query", () => {
    const key = (url: string, init: RequestInit = {}, build = "b1") => pageCacheKey(new Request(`${ORIGIN}${url}`, init), build)?.url ?? null;
    expect(key("/")).not.toBe(key("/", {}, "b2"));
    expect(key("/?modal=contact")).not.toBe(key("/"));
    expect(key("/", { headers: { "User-Agent": "Googlebot/2.1" } })).not.toBe(key("/"));
    expect(key("/legal/privacy")).not.toBeNull();
    // A copy per locale the figures and dates are written in, not per header.
    const german = key("/", { headers: { "Accept-Language": "de-DE,de;q=0.9,en;q=0.8" } });
    expect(german).not.toBe(key("/"));
    expect(key("/", { headers: { "Accept-Language": "de-AT, en;q=0.5" } })).toBe(german);
    expect(key("/", { headers: { "Accept-Language": "en-US,en;q=0.9" } })).toBe(key("/"));
    expect(key("/", { method: "POST" })).toBeNull();
    expect(key("/", { headers: { Cookie: "theme=dark; mfy_refresh=x" } })).toBeNull();
    expect(key("/", { headers: { Cookie: "theme=dark" } })).not.toBeNull();
  });

  it("cannot be made to render afresh by anything a client sends: a header asking for it is ignored", async () => {
    const path = `/pricing?c=${crypto.randomUUID()}`;
    expect((await new Browser().get(path)).headers.get(PAGE_CACHE_HEADER)).toBe("miss");
    const asked = await new Browser().get(path, { headers: { [PAGE_CACHE_HEADER]: "bypass", "Cache-Control": "no-cache", Pragma: "no-cache" } });
    expect(asked.headers.get(PAGE_CACHE_HEADER)).toBe("hit");
    expect(pageCacheKey(new Request(`${ORIGIN}/pricing`, { headers: { [PAGE_CACHE_HEADER]: "bypass" } }), "b1")).not.toBeNull();
  });
});

describe("the page cache's copies", () => {
  it("expire after their 60 s, in memory as in the data centre's cache", async () => {
    const key = pageCacheKey(new Request(`${ORIGIN}/pricing?expiry=${crypto.randomUUID()}`), "expiry-test")!;
    const stored = new Map<string, Response>();
    const cache = {
      match: async (k: RequestInfo | URL) => stored.get((k as Request).url)?.clone(),
      put: async (k: RequestInfo | URL, r: Response) => void stored.set((k as Request).url, r),
    } as unknown as PageCache;
    const now = Date.now();
    const page = new Response('<script nonce="n1">1</script>', { headers: { "Content-Type": "text/html" } });
    const pending: Promise<unknown>[] = [];
    await storePage(cache, key, page, "n1", (p) => pending.push(p), now);
    await Promise.all(pending);
    expect(await (await cachedPage(cache, key, "n2", now + 1000))?.text()).toBe('<script nonce="n2">1</script>');
    expect(await cachedPage(cache, key, "n3", now + PAGE_CACHE.ttlSeconds * 1000 + 1)).toBeNull();
  });
});
