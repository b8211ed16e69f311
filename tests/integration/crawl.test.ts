// What crawlers and audits read: robots.txt and the sitemap answer as themselves (they used to
// redirect home), every page keeps a description, and progress bars have a name and a valid value.
import { describe, expect, it } from "vitest";
import { PUBLIC_PATHS } from "~/lib/site/crawl";
import { Browser, createConfirmedUser } from "./helpers";

describe("crawlers", () => {
  it("get robots.txt with the private areas (not the dashboard, which redirects) and the sitemap's address", async () => {
    const response = await new Browser().get("/robots.txt");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toContain("User-agent: *");
    for (const path of ["/api/", "/auth/callback", "/dev/"]) expect(text).toContain(`Disallow: ${path}`);
    // Crawlers may follow a link to the dashboard: without a session it only redirects to sign-in.
    expect(text).not.toMatch(/Disallow: \/dashboard/);
    const dashboard = await new Browser().get("/dashboard");
    expect(dashboard.status).toBe(302);
    expect(new URL(dashboard.headers.get("Location")!, "http://localhost").pathname).toBe("/auth");
    expect(text).toContain("Sitemap: http://localhost/sitemap.xml");
  });

  it("get a sitemap of the public pages, each of which answers 200", async () => {
    const response = await new Browser().get("/sitemap.xml");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/xml/);
    const xml = await response.text();
    const locations = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map(([, url]) => url!.replace(/&amp;/g, "&"));
    expect(locations).toEqual(PUBLIC_PATHS.map((p) => `http://localhost${p}`));
    for (const url of locations) expect((await new Browser().get(new URL(url).pathname + new URL(url).search)).status, url).toBe(200);
  });
});

describe("every page", () => {
  it("has a description, signed out and signed in", async () => {
    const visitor = new Browser();
    for (const path of ["/", "/pricing", "/auth", "/auth?mode=signup", "/changelog", "/contact", "/legal/terms"]) {
      expect(await (await visitor.get(path)).text(), path).toMatch(/<meta name="description" content="[^"]{50,}"/);
    }
    const { browser } = await createConfirmedUser();
    let bars = 0;
    for (const path of ["/dashboard", "/dashboard/usage", "/dashboard/budget", "/dashboard/profile"]) {
      const html = await (await browser.get(path)).text();
      expect(html, path).toMatch(/<meta name="description" content="[^"]{50,}"/);
      expect(html.slice(0, html.indexOf("</head>")).match(/<title>/g), path).toHaveLength(1);
      for (const bar of html.match(/<div[^>]*role="progressbar"[^>]*>/g) ?? []) {
        bars++;
        expect(bar, path).toMatch(/aria-label="[^"]+"/);
        const now = Number(/aria-valuenow="(\d+)"/.exec(bar)?.[1]);
        expect(now).toBeGreaterThanOrEqual(0);
        expect(now).toBeLessThanOrEqual(100);
      }
    }
    expect(bars).toBeGreaterThan(0);
  });

  // Issue 46: a form of an index route posts to "?index", which then stays in the address bar.
  it("posts its forms and links to addresses without ?index, signed out and signed in", async () => {
    const indexed = (html: string) =>
      [...html.matchAll(/<(?:form|a)\b[^>]*(?:action|href)="([^"]*)"/g)].map(([, url]) => url!).filter((url) => /[?&](amp;)?index\b/.test(url));
    const visitor = new Browser();
    for (const path of [...PUBLIC_PATHS, "/auth?mode=signin", "/auth?mode=signup", "/auth?mode=forgot-password"]) {
      expect(indexed(await (await visitor.get(path)).text()), path).toEqual([]);
    }
    const { browser } = await createConfirmedUser();
    for (const path of [
      "/",
      "/pricing",
      "/auth",
      "/dashboard",
      "/dashboard/usage",
      "/dashboard/billing",
      "/dashboard/budget",
      "/dashboard/downloads",
      "/dashboard/profile",
    ]) {
      expect(indexed(await (await browser.get(path)).text()), path).toEqual([]);
    }
  });
});
