// axe-core (WCAG 2.0/2.1 A and AA, WCAG 2.2 AA, and its best practices) on every page of the site
// and every dialog those pages open, at 1280 and 390 px, signed out and signed in, and not one
// violation. Nothing here is a hand-kept list:
// - the pages are the route table's: the build's client manifest (what scripts/bundle-size.mjs
//   reads), each route with a component that is not a layout, its path its ancestors' paths joined;
//   a dynamic segment takes its values from /sitemap.xml, and a page with none there fails the test;
// - the dialogs are found on the pages: every link that keeps the page's path and sets search
//   parameters (the site's dialogs live in the URL: ?modal=contact, ?terms=open, ?confirm=signout...)
//   is followed, and each dialog that shows is checked (and, once, the links inside it: dialogDepth);
//   so is each button marked aria-haspopup="dialog".
// Each page is seen signed out, signed in as the demo account, and, for what the demo account may
// not open, as the admin: a test per width and account (the suite's two workers share the six), each
// with one browser context, signed in once. Measured 2026-11-26 on the shared 2-core machine (four
// sessions building and testing beside it), walking dialogs two levels deep everywhere: 1280 px signed
// out 116 s, demo 191 s, admin 33 s; 390 px signed out 105 s, demo 141 s, admin 29 s: 5.7 min on two
// workers. Now the second level runs once (dialogDepth).
import AxeBuilder from "@axe-core/playwright";
import { type Page, request } from "@playwright/test";
import { readClientManifest } from "../../scripts/bundle-size.mjs";
import { clientContextOptions, HYDRATION_PROBE, hydrated, nextClientAddress, signIn } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];
const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
];
const ACCOUNTS = {
  demo: { email: "demo@modelify.dev", password: "Modelify-Demo-2026" },
  admin: { email: "admin@modelify.dev", password: "Modelify-Admin-2026" },
};
/**
 * How deep the dialog search follows same-page links. One level opens every dialog of every page
 * (each account and width); the second walks the links inside the dialogs (their tabs and steps,
 * e.g. the features dialog's tabs), which render the same markup signed in and at any width: that
 * walk runs once, signed out at 1280 px, and keeps the suite inside its 8 minutes (the full walk in
 * all six passes took 458 s of test time, 138 s for the demo account at 1280 px alone; 68 s at one level).
 */
const dialogDepth = (width: number, state: string) => (width === 1280 && state === "signed out" ? 2 : 1);

type ManifestRoute = { id: string; parentId?: string; path?: string; index?: boolean; hasDefaultExport?: boolean };

/** The route table's pages: "/pricing", "/legal/:doc"... (routes with a component that no route nests in). */
function pagePatterns(routes: Record<string, ManifestRoute>): string[] {
  const all = Object.values(routes);
  const parents = new Set(all.filter((r) => r.hasDefaultExport).map((r) => r.parentId));
  const fullPath = (route: ManifestRoute): string => {
    const parts: string[] = [];
    for (let r: ManifestRoute | undefined = route; r; r = r.parentId ? routes[r.parentId] : undefined) if (r.path) parts.unshift(r.path);
    return `/${parts.join("/")}`;
  };
  return [...new Set(all.filter((r) => r.hasDefaultExport && !parents.has(r.id)).map(fullPath))].sort();
}

/** Concrete URLs for a pattern: itself, or for a dynamic one the sitemap's URLs that match it. */
function pageUrls(pattern: string, sitemap: string[]): string[] {
  if (!pattern.includes(":") && !pattern.includes("*")) return [pattern];
  const matcher = new RegExp(`^${pattern.replace(/:[^/]+/g, "[^/]+").replace("*", ".*")}$`);
  return sitemap.filter((path) => matcher.test(path));
}

type Finding = { url: string; state: string; rule: string; impact: string; nodes: string[] };

async function axe(page: Page, state: string, findings: Finding[]) {
  const { violations } = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  for (const v of violations)
    findings.push({
      url: page.url().replace(/^https?:\/\/[^/]+/, ""),
      state,
      rule: v.id,
      impact: v.impact ?? "",
      nodes: v.nodes.map((n) => n.target.join(" ")),
    });
}

/** Loads a URL, waits for its hydration; returns the path and search it ended on (after redirects). */
async function open(page: Page, url: string): Promise<URL> {
  await page.goto(url);
  await hydrated(page);
  return new URL(page.url());
}

/** The same-page links that change the search (the URL-kept dialogs' openers), one per dialog they can open. */
async function sameUrlVariants(page: Page, seen: Set<string>, inDialog: boolean): Promise<Array<{ href: string; key: string }>> {
  const here = new URL(page.url());
  const hrefs = await page.locator("a[href]").evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
  const found: Array<{ href: string; key: string }> = [];
  for (const href of hrefs) {
    const url = new URL(href);
    if (url.origin !== here.origin || url.pathname !== here.pathname || url.search === here.search) continue;
    // Which dialog: from a page, the first changed parameter and its value (?modal=contact,
    // ?terms=open), the others by name only (?modal=features&tab=models is the features dialog on
    // another tab); from inside a dialog (its tabs, its steps), the names only.
    const changed = [...new Set([...url.searchParams.keys(), ...here.searchParams.keys()])].filter(
      (key) => url.searchParams.get(key) !== here.searchParams.get(key),
    );
    const [first, ...rest] = changed;
    const key = inDialog ? `?${changed.sort().join("&")}` : `?${first}=${url.searchParams.get(first ?? "") ?? ""}&${rest.sort().join("&")}`;
    // Followed once per page, and on no other page once it opened a dialog (the site's dialogs open
    // on every marketing page; /dashboard/budget?edit=1 is a form, /dashboard/profile?edit=1 a dialog).
    if (seen.has(`${url.pathname}${key}`) || seen.has(`dialog${key}`)) continue;
    seen.add(`${url.pathname}${key}`);
    found.push({ href: `${url.pathname}${url.search}`, key });
  }
  return found;
}

type Coverage = { pages: Set<string>; dialogs: Set<string> };

async function dialogName(page: Page): Promise<string | null> {
  const dialog = page.getByRole("dialog").last();
  if ((await dialog.count()) === 0) return null;
  await dialog.waitFor();
  return (await dialog.getAttribute("aria-labelledby")) ?? (await dialog.getAttribute("aria-label")) ?? "dialog";
}

/** Checks the dialogs this page opens: its same-page links (followed `depth` levels) and its aria-haspopup buttons. */
async function checkDialogs(page: Page, state: string, depth: number, seen: Set<string>, coverage: Coverage, findings: Finding[]) {
  const from = page.url();
  for (const button of await page.locator('button[aria-haspopup="dialog"]').all()) {
    if (!(await button.isVisible())) continue;
    const key = `${new URL(from).pathname}#${await button.textContent()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    await button.click();
    const name = await dialogName(page);
    expect(name, `${key} opens no dialog`).not.toBeNull();
    coverage.dialogs.add(name ?? "");
    await axe(page, `${state}, dialog ${name}`, findings);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
  }
  if (depth === 0) return;
  const inDialog = (await page.getByRole("dialog").count()) > 0;
  for (const variant of await sameUrlVariants(page, seen, inDialog)) {
    await open(page, variant.href);
    const name = await dialogName(page);
    if (name === null) continue;
    seen.add(`dialog${variant.key}`);
    coverage.dialogs.add(name);
    await axe(page, `${state}, dialog ${name}`, findings);
    await checkDialogs(page, state, depth - 1, seen, coverage, findings);
  }
}

async function signInOnce(page: Page, account: { email: string; password: string }) {
  await signIn(page, account.email, account.password);
  await page.waitForURL((url) => url.pathname.startsWith("/dashboard"));
}

/** The route table's pages as URLs to open: dynamic ones from /sitemap.xml; `missing` names a page with none. */
async function sitePages(baseURL: string): Promise<{ urls: string[]; missing: string[] }> {
  const build = process.env.E2E_BUILD_DIR;
  if (!build) throw new Error("E2E_BUILD_DIR unset: run through `npx playwright test`");
  const patterns = pagePatterns(readClientManifest(`${build}/client`).routes as Record<string, ManifestRoute>);
  const sitemapXml = await (await fetch(`${baseURL}/sitemap.xml`)).text();
  const sitemap = [...sitemapXml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  const missing = patterns.filter((p) => pageUrls(p, sitemap).length === 0).map((p) => `${p}: no URL in /sitemap.xml to check it with`);
  return { urls: patterns.flatMap((p) => pageUrls(p, sitemap)), missing };
}

// Signed out, as the demo account, and as the admin for what the demo account may not open: a test
// each (so the suite's two workers share them), one browser context per test, signed in once.
const STATES = [
  { name: "signed out", account: null },
  { name: "demo", account: ACCOUNTS.demo },
  { name: "admin", account: ACCOUNTS.admin },
] as const;

for (const viewport of VIEWPORTS) {
  for (const state of STATES) {
    test(`axe finds nothing on any page or dialog at ${viewport.width} px, ${state.name}`, async ({ browser, baseURL }) => {
      test.setTimeout(240_000);
      const started = Date.now();
      const { urls, missing } = await sitePages(baseURL!);
      // Reduced motion: a dialog is measured as it stands, not halfway through its 300 ms fade-in.
      const context = await browser.newContext({ ...clientContextOptions(viewport), reducedMotion: "reduce" });
      await context.addInitScript(HYDRATION_PROBE);
      const page = await context.newPage();
      if (state.account) await signInOnce(page, state.account);
      // The admin's pass is for what the demo account may not open (asked without rendering).
      const demo = state.name === "admin" ? await request.newContext({ baseURL, extraHTTPHeaders: { "CF-Connecting-IP": nextClientAddress() } }) : null;
      if (demo) await demo.post("/auth?mode=signin", { form: { intent: "signin", ...ACCOUNTS.demo }, headers: { Origin: baseURL! }, maxRedirects: 0 });
      // Signed in, the public pages differ from their signed-out selves only in the site header:
      // it is checked on the home page, and each public page's body in the signed-out pass.
      const anonymous = state.account ? await request.newContext({ baseURL, extraHTTPHeaders: { "CF-Connecting-IP": nextClientAddress() } }) : null;
      const publicPage = async (url: string) => url !== "/" && anonymous !== null && (await anonymous.get(url, { maxRedirects: 0 })).status() === 200;

      const findings: Finding[] = [];
      const coverage: Coverage = { pages: new Set(), dialogs: new Set() };
      const redirected: string[] = [];
      const seen = new Set<string>();
      for (const url of urls) {
        if (demo && (await demo.get(url, { maxRedirects: 0 })).status() === 200) continue;
        if (await publicPage(url)) continue;
        const landed = await open(page, url);
        // Sent elsewhere (a sign-in, a tab this account may not see): checked where it lands.
        if (landed.pathname !== url) {
          redirected.push(url);
          continue;
        }
        coverage.pages.add(url);
        await axe(page, state.name, findings);
        await checkDialogs(page, state.name, dialogDepth(viewport.width, state.name), seen, coverage, findings);
      }
      await context.close();
      await demo?.dispose();
      await anonymous?.dispose();

      console.log(
        `axe at ${viewport.width} px, ${state.name}: ${coverage.pages.size} pages, ${coverage.dialogs.size} dialogs (${[...coverage.dialogs].join(", ")}), ${findings.length} violations, ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
      if (findings.length) console.log(JSON.stringify(findings, null, 2));
      test.info().annotations.push({ type: "redirected", description: redirected.join(", ") });
      expect.soft(missing).toEqual([]);
      expect(coverage.pages.size, "pages checked").toBeGreaterThan(0);
      expect(findings).toEqual([]);
    });
  }
}
