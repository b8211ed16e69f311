// Lighthouse itself, for `npm run lighthouse` (scripts/lighthouse.mjs) and `npm run bench`
// (bench/run.mjs): the pinned version installed once outside node_modules, and one Chromium that
// measures a list of pages, each with its own session's cookies, summarised per page.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ensureChromium } from "./ensure-chromium.mjs";

export const LIGHTHOUSE_VERSION = "12.8.2";
const CACHE_DIR = resolve(".cache/lighthouse");
export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];

/**
 * Installs the pinned Lighthouse into .cache/lighthouse once (about 186 MB: kept out of node_modules).
 * Returns an import() that resolves a package from there: lighthouse and chrome-launcher are not
 * the project's dependencies, and the project's resolution would not find them.
 */
export function ensureLighthouse() {
  const manifest = `${CACHE_DIR}/node_modules/lighthouse/package.json`;
  const installed = existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")).version : null;
  if (installed !== LIGHTHOUSE_VERSION) {
    console.log(`Installing lighthouse@${LIGHTHOUSE_VERSION} into .cache/lighthouse (once)...`);
    mkdirSync(CACHE_DIR, { recursive: true });
    // Its own package.json, so npm does not walk up and install into the project.
    if (!existsSync(`${CACHE_DIR}/package.json`)) writeFileSync(`${CACHE_DIR}/package.json`, '{ "private": true }\n');
    const result = spawnSync("npm", ["install", "--prefix", CACHE_DIR, "--no-audit", "--no-fund", "--loglevel=error", `lighthouse@${LIGHTHOUSE_VERSION}`], {
      stdio: "inherit",
    });
    if (result.status !== 0) throw new Error(`npm install lighthouse@${LIGHTHOUSE_VERSION} failed`);
  }
  const require = createRequire(`${CACHE_DIR}/package.json`);
  return (name) => import(pathToFileURL(require.resolve(name)).href);
}

export const METRICS = {
  fcp: "first-contentful-paint",
  lcp: "largest-contentful-paint",
  tbt: "total-blocking-time",
  cls: "cumulative-layout-shift",
  si: "speed-index",
};

function summarize(path, lhr) {
  const scores = Object.fromEntries(CATEGORIES.filter((c) => lhr.categories[c]).map((c) => [c, Math.round(lhr.categories[c].score * 100)]));
  const metrics = Object.fromEntries(Object.entries(METRICS).map(([k, id]) => [k, lhr.audits[id]?.numericValue ?? null]));
  // Audits that cost points: weighted in a category and below a full score.
  const weighted = new Set(CATEGORIES.flatMap((c) => (lhr.categories[c]?.auditRefs ?? []).filter((r) => r.weight > 0).map((r) => r.id)));
  const failing = Object.values(lhr.audits)
    .filter((a) => weighted.has(a.id) && a.score !== null && a.score < 1)
    .map((a) => ({ id: a.id, score: a.score, value: a.displayValue ?? "" }));
  const errors = (lhr.audits["errors-in-console"]?.details?.items ?? []).map((i) => i.description);
  // A page the site keeps out of search (a sign-in step, a link's landing page: pageMeta's noindex,
  // or a Disallow in its robots.txt, lib/site/crawl.ts) fails is-crawlable by design; its SEO is
  // full when that is the only SEO audit it fails.
  const blocking = lhr.audits["is-crawlable"]?.score === 0 ? (lhr.audits["is-crawlable"].details?.items ?? []) : [];
  const byTheSite = (i) => /^<meta name="robots" content="noindex/.test(i.source?.snippet ?? "") || /\/robots\.txt$/.test(i.source?.url ?? "");
  const seoByDesign =
    blocking.length > 0 &&
    blocking.every(byTheSite) &&
    failing.every((f) => f.id === "is-crawlable" || !(lhr.categories.seo?.auditRefs ?? []).some((r) => r.id === f.id));
  // Lighthouse's measure of the machine's speed during the run: it drops when other work shares the CPU.
  const benchmarkIndex = Math.round(lhr.environment?.benchmarkIndex ?? 0);
  return { path, scores, keptOutOfSearch: seoByDesign, metrics, benchmarkIndex, failing, consoleErrors: errors, runWarnings: lhr.runWarnings };
}

/**
 * The browser's cookie jar, over the DevTools protocol of the Chromium at `port`: `set(url, header)`
 * empties it and puts in the cookies of a Cookie header (none for null). Lighthouse leaves cookies
 * alone between pages, and a Cookie header in its `extraHeaders` only lasts until the site sets a
 * cookie of its own (the jar's then replace it): the dashboard's tabs were measured as the sign-in
 * page they redirected to.
 */
async function cookieJar(port) {
  const { webSocketDebuggerUrl } = await (await fetch(`http://127.0.0.1:${port}/json/version`)).json();
  const socket = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolvePromise, reject) => {
    socket.addEventListener("open", resolvePromise, { once: true });
    socket.addEventListener("error", () => reject(new Error(`No DevTools connection at ${webSocketDebuggerUrl}`)), { once: true });
  });
  const waiting = new Map();
  socket.addEventListener("message", ({ data }) => {
    const message = JSON.parse(String(data));
    const answer = waiting.get(message.id);
    if (!answer) return;
    waiting.delete(message.id);
    if (message.error) answer.reject(new Error(`DevTools: ${message.error.message}`));
    else answer.resolve(message.result);
  });
  let lastId = 0;
  const send = (method, params = {}) =>
    new Promise((resolvePromise, reject) => {
      const id = ++lastId;
      waiting.set(id, { resolve: resolvePromise, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  return {
    async set(url, header) {
      await send("Storage.clearCookies");
      const cookies = (header ?? "")
        .split(";")
        .map((pair) => pair.trim())
        .filter(Boolean)
        .map((pair) => ({ name: pair.slice(0, pair.indexOf("=")), value: pair.slice(pair.indexOf("=") + 1), url }));
      if (cookies.length) await send("Storage.setCookies", { cookies });
    },
    close: () => socket.close(),
  };
}

/**
 * Lighthouse (mobile with default throttling, or its desktop preset) for each path of `baseUrl` in one Chromium.
 * `paths`: strings, or { path, label, cookie } for pages that need a session (`cookie` a Cookie
 * header, or a function that resolves to one, called just before the page is measured).
 * `cookie`: sent to the string paths named in `cookiePaths` (default /dashboard and below).
 * `categories`: those of CATEGORIES to measure; `desktop`: Lighthouse's desktop preset instead of mobile.
 * Returns [{ path (the label), scores, metrics, failing, consoleErrors, redirectedTo (null unless it redirected), lhr }].
 */
export async function lighthouseScores({
  baseUrl,
  paths,
  cookie = null,
  cookiePaths = /^\/dashboard(\/|$)/,
  chromeFlags = [],
  categories = CATEGORIES,
  desktop = false,
}) {
  const importFromCache = ensureLighthouse();
  const { default: lighthouse } = await importFromCache("lighthouse");
  // Lighthouse's desktop preset: a 1350 px window (the dashboard's side rail), desktop throttling.
  const config = desktop ? (await importFromCache("lighthouse/core/config/desktop-config.js")).default : undefined;
  const { launch } = await importFromCache("chrome-launcher");
  const chromePath = await ensureChromium();
  // No GPU here: software compositing, as the browser tests run (tests/e2e/browser.ts).
  const chrome = await launch({ chromePath, chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", ...chromeFlags], logLevel: "silent" });
  const results = [];
  let jar = null;
  try {
    jar = await cookieJar(chrome.port);
    const pages = paths.map((entry) =>
      typeof entry === "string"
        ? { path: entry, label: entry, cookie: cookie && cookiePaths.test(entry) ? cookie : null }
        : { path: entry.path, label: entry.label ?? entry.path, cookie: entry.cookie ?? null },
    );
    // Each page starts with its own session's cookies and no others (none signed out).
    const audit = async ({ path, cookie: pageCookie }) => {
      await jar.set(baseUrl, typeof pageCookie === "function" ? await pageCookie() : pageCookie);
      return lighthouse(`${baseUrl}${path}`, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: categories }, config);
    };
    // The first page a fresh Chromium loads pays for the browser's own start (its caches, compiler
    // and compositor warming up; its first paint was seen up to 2 s late), not for the site's: that
    // run is made and dropped. Lighthouse clears the site's cache and storage before every page.
    await audit(pages[0]);
    for (const page of pages) {
      const runner = await audit(page);
      if (!runner) throw new Error(`Lighthouse returned nothing for ${page.label}`);
      // A page that redirected was measured where it landed, not as itself.
      const landed = new URL(runner.lhr.finalDisplayedUrl);
      const redirectedTo = `${landed.pathname}${landed.search}` === page.path ? null : `${landed.pathname}${landed.search}`;
      results.push({ ...summarize(page.label, runner.lhr), redirectedTo, lhr: runner.lhr });
    }
  } finally {
    jar?.close();
    await chrome.kill();
  }
  return results;
}
