// axe-core (WCAG 2.0/2.1 A and AA, WCAG 2.2 AA, and its best practices) on every page of the site
// and every dialog of the app, at 1280 and 390 px, signed out and signed in, and not one violation.
// Nothing here is a hand-kept list:
// - the pages are the route table's: the build's client manifest, read by scripts/bundle-size.mjs's
//   pagePatterns (the JS budget's pages too), each route with a component that is not a layout, its
//   path its ancestors' paths joined;
//   a dynamic segment takes its values from /sitemap.xml, and a page with none there fails the test;
// - the dialogs are found on the pages: the site's dialogs live in the URL (?modal=contact,
//   ?terms=open, ?confirm=signout...), so each same-page link that changes the search is asked for
//   over HTTP (cheap), and the ones whose answer holds a dialog the page does not are opened in the
//   browser and checked (and, once, the links inside them: dialogDepth); so is each button marked
//   aria-haspopup="dialog";
// - the dialogs of the app are its source's (every UrlModal and alertdialog in app/): one this walk
//   cannot open (behind a payment, a typed username) must be checked by the flow test that reaches
//   it (expectAccessibleDialog in tests/e2e/axe.ts), or this test fails.
// Each page is seen signed out, signed in as the demo account, and, for what the demo account may
// not open, as the admin, each with one browser context, signed in once; each page and dialog is
// loaded once and checked at 1280 px and again resized to 390 px.
// Measured 2026-11-26 on the shared 2-core machine: opening every same-page link in the browser and
// checking with @axe-core/playwright took 342 s of test time (241 page loads, 120 s; 126 checks,
// 154 s). Asking for the links over HTTP and running axe in the page (tests/e2e/axe.ts): 82 page
// loads and 64 s at 1280 px (signed out 30 s, demo 23 s, admin 11 s), with the load average at 10,
// and as much again at 390 px. One load per page resized to both widths, and dialogs reached
// through their links: 84-89 s for both widths beside the suite's other worker (197 s as a test per width).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { type APIRequestContext, type Page, request } from "@playwright/test";
import { pagePatterns, readClientManifest } from "../../scripts/bundle-size.mjs";
import { seededPageUrls } from "../../scripts/seed.mjs";
import { type AxeFinding, axeFindings } from "./axe.ts";
import { afterRender, clientContextOptions, HYDRATION_PROBE, hydrated, nextClientAddress, routerSettled, signIn } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

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
 * (each account); the second walks the links inside the dialogs (their tabs and steps, e.g. the
 * features dialog's tabs), which render the same markup signed in: that walk runs once, signed out.
 */
const dialogDepth = (state: string) => (state === "signed out" ? 2 : 1);

/**
 * axe at each width, on the page as it stands: the window is resized, not the page reloaded. The
 * site's layout answers the width through CSS alone (media and container queries; nothing in app/
 * reads the window's size), so a page resized to 390 px is the page a phone loads, and every page
 * and dialog is checked at both widths for one load. Ends at the first width.
 */
async function axeAtEachWidth(page: Page, state: string): Promise<AxeFinding[]> {
  const findings: AxeFinding[] = [];
  for (const viewport of [...VIEWPORTS.slice(1), VIEWPORTS[0]!]) {
    const before = page.viewportSize();
    if (before?.width !== viewport.width) {
      await page.setViewportSize(viewport);
      await afterRender(page);
    }
    findings.push(...(await axeFindings(page, `${state} at ${viewport.width} px`)));
  }
  return findings;
}

/**
 * Concrete URLs for a pattern: itself, or for a dynamic one the sitemap's URLs that match it and,
 * for private pages the sitemap leaves out (a team's), the seed's (scripts/seed.mjs).
 */
function pageUrls(pattern: string, sitemap: string[]): string[] {
  if (!pattern.includes(":") && !pattern.includes("*")) return [pattern];
  const matcher = new RegExp(`^${pattern.replace(/:[^/]+/g, "[^/]+").replace("*", ".*")}$`);
  return [...sitemap.filter((path) => matcher.test(path)), ...seededPageUrls(pattern)];
}

/** Every open dialog, modal or alert (the app's are <dialog> elements). */
const DIALOGS = 'dialog[open], [role="dialog"], [role="alertdialog"]';

/** Loads a URL, waits for its hydration; returns the path and search it ended on (after redirects). */
async function open(page: Page, url: string): Promise<URL> {
  await page.goto(url);
  await hydrated(page);
  return new URL(page.url());
}

/** The dialogs (their title ids) in a page's HTML: every <dialog> and every element with role dialog or alertdialog. */
function dialogIds(html: string): string[] {
  const tags = html.match(/<dialog\b[^>]*>|<[a-z]+\b[^>]*\brole="(?:alert)?dialog"[^>]*>/g) ?? [];
  return tags.map((tag) => /\baria-labelledby="([^"]+)"/.exec(tag)?.[1] ?? "dialog");
}

/** One account's pass at one width: its browser page, its HTTP client (the same cookies), what it found. */
type Pass = {
  state: string;
  page: Page;
  /** Signed in: the same URLs asked for signed out, whose dialogs the signed-out pass checks. */
  anonymous: APIRequestContext | null;
  seen: Set<string>;
  dialogs: Set<string>;
  findings: AxeFinding[];
};

/** The same-page links that change the search (the URL-kept dialogs' openers), one per dialog they can open. */
async function sameUrlVariants(pass: Pass, inDialog: boolean): Promise<Array<{ href: string; key: string }>> {
  const here = new URL(pass.page.url());
  const links = await pass.page
    .locator("a[href]")
    .evaluateAll((links) => links.map((a) => ({ href: (a as HTMLAnchorElement).href, inRow: a.closest("tbody tr") !== null })));
  const found: Array<{ href: string; key: string }> = [];
  for (const { href, inRow } of links) {
    const url = new URL(href);
    if (url.origin !== here.origin || url.pathname !== here.pathname || url.search === here.search) continue;
    // Which dialog: from a page, the first changed parameter and its value (?modal=contact,
    // ?terms=open), the others by name only (?modal=features&tab=models is the features dialog on
    // another tab); from inside a dialog (its tabs, its steps), the names only.
    const changed = [...new Set([...url.searchParams.keys(), ...here.searchParams.keys()])].filter(
      (key) => url.searchParams.get(key) !== here.searchParams.get(key),
    );
    const [first, ...rest] = changed;
    // A table's rows each open the same dialog for their own record (the request log's ?report=<id>):
    // by the parameters' names only, so one row's is checked, not fifty.
    const key = inDialog || inRow ? `?${changed.sort().join("&")}` : `?${first}=${url.searchParams.get(first ?? "") ?? ""}&${rest.sort().join("&")}`;
    // Asked for once per page, and on no other page once it opened a dialog (the site's dialogs open
    // on every marketing page; /dashboard/budget?edit=1 is a form, /dashboard/profile?edit=1 a dialog).
    if (pass.seen.has(`${url.pathname}${key}`) || pass.seen.has(`dialog${key}`)) continue;
    pass.seen.add(`${url.pathname}${key}`);
    found.push({ href: `${url.pathname}${url.search}`, key });
  }
  return found;
}

/**
 * Of the page's same-page links, the ones that open a dialog: asked for over HTTP, four at a time,
 * each answer's dialogs compared with the page's own. Signed in, a dialog that the same URL also
 * opens signed out is left to the signed-out pass (its markup is the same; a signed-in contact form
 * only has its fields filled in).
 */
async function dialogVariants(pass: Pass, inDialog: boolean): Promise<Array<{ href: string; key: string }>> {
  const before = new Set(await pass.page.locator(DIALOGS).evaluateAll((els) => els.map((e) => e.getAttribute("aria-labelledby") ?? "dialog")));
  const variants = await sameUrlVariants(pass, inDialog);
  const opens: Array<{ href: string; key: string }> = [];
  const ask = async (variant: { href: string; key: string }) => {
    const answer = await pass.page.request.get(variant.href, { maxRedirects: 0 });
    const ids = answer.status() === 200 ? dialogIds(await answer.text()) : [];
    if (!(inDialog ? ids.length > 0 : ids.some((id) => !before.has(id)))) return;
    if (pass.anonymous) {
      const signedOut = await pass.anonymous.get(variant.href, { maxRedirects: 0 });
      const theirs = signedOut.status() === 200 ? dialogIds(await signedOut.text()) : [];
      if (ids.every((id) => theirs.includes(id))) {
        pass.seen.add(`dialog${variant.key}`);
        return;
      }
    }
    opens.push(variant);
  };
  for (let i = 0; i < variants.length; i += 4) await Promise.all(variants.slice(i, i + 4).map(ask));
  return opens;
}

/**
 * Goes from `from` to a same-page URL as a visitor does: back to `from` through the history and
 * then through the link to `href` when one is visible there (client-side navigations, which render
 * only what changed), or else by loading it. Measured 2026-11-26: a dialog reached this way costs
 * the browser about a third of a page load, and the sweep makes some fifty of them.
 */
async function visit(page: Page, from: string, href: string) {
  await routerSettled(page);
  for (let back = 0; page.url() !== from && back < 3; back++) {
    await page.goBack();
    // The address changes at once; the dialog it names only once the router has caught up.
    await routerSettled(page);
  }
  const target = new URL(href, from).href;
  const found =
    page.url() === from &&
    (await page.evaluate((target) => {
      const dialogs = document.querySelectorAll('dialog[open], [role="dialog"], [role="alertdialog"]');
      const scope = dialogs.length ? dialogs[dialogs.length - 1]! : document.body;
      const link = [...scope.querySelectorAll("a[href]")].find(
        (a) => (a as HTMLAnchorElement).href === target && (a as HTMLElement).checkVisibility() && a.getBoundingClientRect().width > 0,
      );
      link?.setAttribute("data-a11y-visit", "");
      return Boolean(link);
    }, target));
  if (!found) {
    await open(page, href);
    return;
  }
  const link = page.locator("[data-a11y-visit]");
  await link.click();
  await page.waitForURL(target);
  // Every URL visited holds a dialog (dialogVariants asked); the site's load their code when first
  // opened (a Suspense boundary), so it may come a moment after the URL.
  await page.locator(DIALOGS).first().waitFor();
  await afterRender(page);
  await link.evaluateAll((links) => {
    for (const a of links) a.removeAttribute("data-a11y-visit");
  });
}

async function dialogName(page: Page): Promise<string | null> {
  const dialog = page.locator(DIALOGS).last();
  if ((await dialog.count()) === 0) return null;
  await dialog.waitFor();
  return (await dialog.getAttribute("aria-labelledby")) ?? (await dialog.getAttribute("aria-label")) ?? "dialog";
}

/** Checks the dialogs this page opens: its same-page links (followed `depth` levels) and its aria-haspopup buttons. */
async function checkDialogs(pass: Pass, depth: number) {
  const { page } = pass;
  // With a dialog open, only its own buttons: the page's lie behind its backdrop.
  const openDialog = page.locator(DIALOGS);
  const scope = (await openDialog.count()) > 0 ? openDialog.last() : page.locator("body");
  for (const button of await scope.locator('button[aria-haspopup="dialog"]').all()) {
    if (!(await button.isVisible())) continue;
    const key = `${new URL(page.url()).pathname}#${await button.textContent()}`;
    if (pass.seen.has(key)) continue;
    pass.seen.add(key);
    const from = page.url();
    await button.click();
    await expect(page.locator(DIALOGS), `${key} opens a dialog`).not.toHaveCount(0);
    const name = await dialogName(page);
    pass.dialogs.add(name ?? "");
    pass.findings.push(...(await axeAtEachWidth(page, `${pass.state}, dialog ${name}`)));
    await page.keyboard.press("Escape");
    await expect(page.locator(DIALOGS)).toHaveCount(0);
    // A URL-kept dialog closes to a URL of its own: the walk goes on from the page's.
    if (page.url() !== from) await open(page, from);
  }
  if (depth === 0) return;
  const inDialog = (await page.locator(DIALOGS).count()) > 0;
  const from = page.url();
  for (const variant of await dialogVariants(pass, inDialog)) {
    await visit(page, from, variant.href);
    const name = await dialogName(page);
    expect(name, `${variant.href} held a dialog over HTTP, none in the browser`).not.toBeNull();
    pass.seen.add(`dialog${variant.key}`);
    pass.dialogs.add(name ?? "");
    pass.findings.push(...(await axeAtEachWidth(page, `${pass.state}, dialog ${name}`)));
    await checkDialogs(pass, depth - 1);
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
  const patterns = pagePatterns(readClientManifest(`${build}/client`).routes);
  const sitemapXml = await (await fetch(`${baseURL}/sitemap.xml`)).text();
  const sitemap = [...sitemapXml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  const missing = patterns.filter((p) => pageUrls(p, sitemap).length === 0).map((p) => `${p}: no URL in /sitemap.xml or the seed to check it with`);
  return { urls: patterns.flatMap((p) => pageUrls(p, sitemap)), missing };
}

/** Files under a directory whose name matches, recursively. */
function filesUnder(dir: string, name: RegExp): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path, name) : name.test(entry) ? [path] : [];
  });
}

/** The app's dialogs, by title id: each UrlModal's labelledBy and each alertdialog's aria-labelledby in app/. */
function sourceDialogs(): string[] {
  const ids = filesUnder("app", /\.tsx$/).flatMap((file) => {
    const source = readFileSync(file, "utf8");
    const modals = [...source.matchAll(/<UrlModal\b[^>]*\blabelledBy="([^"]+)"/g)].map((m) => m[1]!);
    const alerts = [...source.matchAll(/role="alertdialog"\s+aria-labelledby="([^"]+)"/g)].map((m) => m[1]!);
    return [...modals, ...alerts];
  });
  return [...new Set(ids)].sort();
}

/** The dialogs the flow tests check where they reach them: expectAccessibleDialog(page, "<id>") in tests/e2e. */
function flowCheckedDialogs(): Set<string> {
  const calls = filesUnder("tests/e2e", /\.test\.ts$/).flatMap((file) => [
    ...readFileSync(file, "utf8").matchAll(/expectAccessibleDialog\(\s*\w+,\s*"([^"]+)"\)/g),
  ]);
  return new Set(calls.map((m) => m[1]!));
}

// Signed out, as the demo account, and as the admin for what the demo account may not open, one
// after another in one test (the app's dialogs are known in one place): a browser context per
// account, signed in once, each page loaded once and checked at both widths (axeAtEachWidth).
const STATES = [
  { name: "signed out", account: null },
  { name: "demo", account: ACCOUNTS.demo },
  { name: "admin", account: ACCOUNTS.admin },
] as const;

type Coverage = { pages: number; dialogs: Set<string>; findings: AxeFinding[]; redirected: string[] };

async function sweep(browser: import("@playwright/test").Browser, baseURL: string, state: (typeof STATES)[number], urls: string[], coverage: Coverage) {
  const started = Date.now();
  const fresh = () => request.newContext({ baseURL, extraHTTPHeaders: { "CF-Connecting-IP": nextClientAddress() } });
  // Reduced motion: a dialog is measured as it stands, not halfway through its 300 ms fade-in.
  const context = await browser.newContext({ ...clientContextOptions(VIEWPORTS[0]!), reducedMotion: "reduce" });
  await context.addInitScript(HYDRATION_PROBE);
  const page = await context.newPage();
  if (state.account) await signInOnce(page, state.account);
  // The admin's pass is for what the demo account may not open (asked without rendering).
  const demo = state.name === "admin" ? await fresh() : null;
  if (demo) await demo.post("/auth?mode=signin", { form: { intent: "signin", ...ACCOUNTS.demo }, headers: { Origin: baseURL }, maxRedirects: 0 });
  // Signed in, the public pages differ from their signed-out selves only in the site header:
  // it is checked on the home page, and each public page's body in the signed-out pass.
  const anonymous = state.account ? await fresh() : null;
  const pass: Pass = { state: state.name, page, anonymous, seen: new Set(), dialogs: new Set(), findings: [] };
  let pages = 0;
  for (const url of urls) {
    if (demo && (await demo.get(url, { maxRedirects: 0 })).status() === 200) continue;
    if (url !== "/" && anonymous && (await anonymous.get(url, { maxRedirects: 0 })).status() === 200) continue;
    const landed = await open(page, url);
    // Sent elsewhere (a sign-in, a tab this account may not see): checked where it lands.
    if (landed.pathname !== url) {
      coverage.redirected.push(`${url} (${state.name})`);
      continue;
    }
    pages += 1;
    pass.findings.push(...(await axeAtEachWidth(page, state.name)));
    await checkDialogs(pass, dialogDepth(state.name));
  }
  await context.close();
  await demo?.dispose();
  await anonymous?.dispose();
  console.log(
    `axe at ${VIEWPORTS.map((v) => v.width).join(" and ")} px, ${state.name}: ${pages} pages, ${pass.dialogs.size} dialogs (${[...pass.dialogs].join(", ")}), ${pass.findings.length} violations, ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  coverage.pages += pages;
  for (const dialog of pass.dialogs) coverage.dialogs.add(dialog);
  coverage.findings.push(...pass.findings);
}

test("axe finds nothing on any page or dialog at 1280 and 390 px, signed out and signed in", async ({ browser, baseURL }) => {
  test.setTimeout(300_000);
  const { urls, missing } = await sitePages(baseURL!);
  const coverage: Coverage = { pages: 0, dialogs: new Set(), findings: [], redirected: [] };
  for (const state of STATES) await sweep(browser, baseURL!, state, urls, coverage);

  if (coverage.findings.length) console.log(JSON.stringify(coverage.findings, null, 2));
  test.info().annotations.push({ type: "redirected", description: coverage.redirected.join(", ") });
  expect.soft(missing).toEqual([]);
  expect(coverage.pages, "pages checked").toBeGreaterThan(0);
  // Every dialog of the app seen open: here, or (out of this walk's reach) in its flow test.
  const flowChecked = flowCheckedDialogs();
  expect(
    sourceDialogs().filter((id) => !coverage.dialogs.has(id) && !flowChecked.has(id)),
    "dialogs checked nowhere",
  ).toEqual([]);
  expect(coverage.findings).toEqual([]);
});
