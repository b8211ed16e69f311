// `npm run lighthouse`: Lighthouse (mobile, default simulated throttling) on every page of the route
// table (the build's client manifest, as tests/e2e/accessibility.test.ts reads it; dynamic segments
// from /sitemap.xml), each seen signed out or, where that is only a redirect, as the demo account or
// the admin; plus the states a route alone does not reach (PAGE_STATES: the signed-in header, the
// sign-up and reset forms, a subscriber's tabs, the profile's two-factor, passkeys and data export
// as an account that has them, the two-factor sign-in step, the pages e-mailed links open). Measured against the production build served the way
// production serves it: workerd behind a proxy that, like Cloudflare's edge, compresses text with
// brotli or gzip and speaks HTTP/2 over TLS. Builds into .build/lighthouse and serves it on a free
// port with its own state, so a running `npm start` is left alone
// (docs/decisions/0016-lighthouse-and-compression.md). Exits with 1 unless every page's median
// score over the runs is 100 in every category measured (issue 31's acceptance: "median of 3 runs")
// and every page was measured as itself in every run (not where it redirected). With `--runs N`,
// N > 1, a last table gives each page's min/median/max per category and its median metrics; one
// run below 100 beside two at 100 passes, as the median does.
//
//   npm run lighthouse [-- --runs 3] [--json FILE] [--reports DIR] [--no-build] [--paths /,/pricing]
//                      [--only accessibility] [--desktop] [--http1]
//
// --json writes every run's summaries and the per-page medians (`medians`). --reports writes each
// page's Lighthouse report of each run, as JSON and as the HTML report Lighthouse itself shows.
// --paths picks pages of that list by path (signed in as it would be). --only measures some
// categories (comma-separated): accessibility alone takes about a third of the time. --desktop
// uses Lighthouse's desktop preset (1350 px: the dashboard's side rail shows) instead of mobile.
// Lighthouse is installed on first use into .cache/lighthouse, outside node_modules.
import { spawnSync } from "node:child_process";
import { createHash, createPublicKey } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";
import { ensureChromium } from "./ensure-chromium.mjs";
import { pagePatterns, readClientManifest } from "./bundle-size.mjs";
import { buildDirFor, buildSite } from "./lib.mjs";
import { serveTestSite } from "./serve-test-site.mjs";

export const LIGHTHOUSE_VERSION = "12.8.2";
const CACHE_DIR = resolve(".cache/lighthouse");
export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
const ACCOUNTS = {
  demo: { email: "demo@modelify.dev", password: "Modelify-Demo-2026" },
  admin: { email: "admin@modelify.dev", password: "Modelify-Admin-2026" },
};
/**
 * What the route table alone does not show, and who sees it. `as` null is signed out; "demo" and
 * "admin" are the seeded accounts (neither subscribed); "member" is an account made for the run
 * (scripts/member-account.ts): subscribed, with model calls from the desktop app, two-factor on, a
 * passkey, a ready data export and a change of e-mail waiting; "two-factor step" is that account
 * after its password, before its code (/auth/two-factor only opens then); "password reset" is a
 * browser that followed its reset link. A function `path` takes that account: the links the
 * outbox holds for it, unused.
 */
const PAGE_STATES = [
  // The site header signed in (the public pages' bodies are the same as signed out).
  { path: "/", as: "demo" },
  { path: "/auth?mode=signup", as: null },
  { path: "/auth?mode=forgot-password", as: null },
  { path: "/auth/two-factor", as: "two-factor step" },
  { path: "/auth/reset-password", as: "password reset" },
  // Where e-mailed links land: a sign-up's confirmation (in another browser: it asks for the
  // password), a failed sign-in with a provider, the new address's confirmation and the old one's cancel.
  { path: ({ links }) => links.confirmSignUp, as: null },
  { path: "/auth/callback?error=access_denied", as: null },
  { path: ({ links }) => links.confirmEmail, as: null },
  { path: ({ links }) => links.cancelEmailChange, as: null },
  // A subscriber's tabs: the overview, Model Analytics with data, the builds to download, the plan and its invoice.
  { path: "/dashboard", as: "member" },
  { path: "/dashboard/analytics", as: "member" },
  { path: "/dashboard/downloads", as: "member" },
  { path: "/dashboard/billing", as: "member" },
  { path: "/dashboard/billing?view=invoices", as: "member" },
  // The profile's cards with a passkey, an export ready to download, the e-mail change waiting and both cards' notices.
  { path: "/dashboard/profile?passkeys=added&export=requested", as: "member" },
  // Two-factor on: the page turns it off instead of setting it up (the demo account sees the setup).
  { path: "/dashboard/profile/two-factor", as: "member" },
  // With a subscription and two-factor: the deletion asks for a code and says what happens to the plan.
  { path: "/dashboard/profile/delete", as: "member" },
];
/** How long a session's cookie is reused before signing in again (the access token lasts 15 minutes). */
const SESSION_REUSE_MS = 10 * 60_000;

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

// What Cloudflare compresses (text and structured text); fonts and images are compressed already.
const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml|manifest\+json|rss\+xml|atom\+xml)|image\/svg\+xml)/;

function pickEncoding(acceptEncoding = "") {
  const accepted = acceptEncoding
    .toLowerCase()
    .split(",")
    .map((part) => part.trim().split(";"))
    .filter(([, q]) => !q || Number(q.split("=")[1]) > 0)
    .map(([name]) => name.trim());
  if (accepted.includes("br")) return "br";
  if (accepted.includes("gzip")) return "gzip";
  return null;
}

function compressor(encoding) {
  // Flushed per chunk: a streamed page (React's shell first, deferred data later) reaches the
  // browser as it is written, as through the edge. Brotli at 5, about what the edge uses for
  // dynamic answers; 11 would cost seconds per page.
  return encoding === "br"
    ? zlib.createBrotliCompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
    : zlib.createGzip({ flush: zlib.constants.Z_SYNC_FLUSH, level: 6 });
}

// The system's openssl (Debian's, as Chromium is), not a package of the project.
const OPENSSL = "openssl";

// The certificate of the local HTTPS proxy: self-signed for localhost, made once per run.
function selfSignedCertificate() {
  const dir = mkdtempSync(join(tmpdir(), "modelify-lighthouse-"));
  const result = spawnSync(
    OPENSSL,
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "2",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost",
      "-keyout",
      `${dir}/key.pem`,
      "-out",
      `${dir}/cert.pem`,
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  if (result.status !== 0) throw new Error(`openssl could not make a certificate: ${result.stderr}`);
  const pair = { key: readFileSync(`${dir}/key.pem`), cert: readFileSync(`${dir}/cert.pem`) };
  rmSync(dir, { recursive: true, force: true });
  // Chromium trusts a certificate whose public key hash it is given (--ignore-certificate-errors-spki-list).
  const spki = createHash("sha256")
    .update(createPublicKey(pair.cert).export({ type: "spki", format: "der" }))
    .digest("base64");
  return { ...pair, spki };
}

// Hop-by-hop headers: they describe one connection, and HTTP/2 forbids them.
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection", "te", "trailer"]);

/**
 * A reverse proxy in front of `target` (e.g. http://localhost:8787) that compresses text answers
 * with brotli or gzip as the request's Accept-Encoding allows, streaming, with Vary:
 * Accept-Encoding. With `http2`, it speaks HTTP/2 over TLS with a throwaway self-signed
 * certificate, as the edge does; `chromeFlags` then make Chromium trust that certificate.
 * Resolves to { url, chromeFlags, close }.
 */
export function startCompressingProxy(target, { port = 0, http2: useHttp2 = false } = {}) {
  const upstream = new URL(target);
  const handler = (req, res) => {
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !name.startsWith(":") && !HOP_BY_HOP.has(name)));
    headers.host = req.headers[":authority"] ?? req.headers.host;
    const proxied = http.request({ hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
      const out = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
      const type = String(out["content-type"] ?? "");
      const bodyless = req.method === "HEAD" || answer.statusCode === 204 || answer.statusCode === 304;
      const encoding = !bodyless && !out["content-encoding"] && COMPRESSIBLE.test(type) ? pickEncoding(req.headers["accept-encoding"]) : null;
      if (COMPRESSIBLE.test(type)) {
        const vary = String(out.vary ?? "");
        if (!/accept-encoding/i.test(vary)) out.vary = vary ? `${vary}, Accept-Encoding` : "Accept-Encoding";
      }
      if (encoding) {
        delete out["content-length"];
        out["content-encoding"] = encoding;
      }
      res.writeHead(answer.statusCode, out);
      (encoding ? answer.pipe(compressor(encoding)) : answer).pipe(res);
    });
    proxied.on("error", (error) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`proxy: ${error.message}`);
    });
    req.pipe(proxied);
  };
  const tls = useHttp2 ? selfSignedCertificate() : null;
  const server = tls ? http2.createSecureServer({ key: tls.key, cert: tls.cert, allowHTTP1: true }, handler) : http.createServer(handler);
  const sessions = new Set();
  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  // WebSockets (the usage tab's live totals), which Chromium opens over HTTP/1.1 and the edge passes
  // through: the upgrade goes upstream as it came, then bytes flow both ways untouched.
  const tunnels = new Set();
  server.on("upgrade", (req, socket, head) => {
    tunnels.add(socket);
    socket.on("close", () => tunnels.delete(socket));
    const proxied = http.request({ hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers });
    proxied.on("upgrade", (answer, upstreamSocket, upstreamHead) => {
      const lines = [`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}`];
      for (let i = 0; i < answer.rawHeaders.length; i += 2) lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`);
      socket.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (upstreamHead.length) socket.write(upstreamHead);
      if (head.length) upstreamSocket.write(head);
      upstreamSocket.pipe(socket).pipe(upstreamSocket);
      upstreamSocket.on("error", () => socket.destroy());
      socket.on("error", () => upstreamSocket.destroy());
      socket.on("close", () => upstreamSocket.destroy());
    });
    proxied.on("response", (answer) => {
      socket.end(`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      answer.resume();
    });
    proxied.on("error", () => socket.destroy());
    proxied.end();
  });
  return new Promise((resolvePromise, reject) => {
    server.on("error", reject);
    server.listen(port, "localhost", () => {
      resolvePromise({
        url: `${tls ? "https" : "http"}://localhost:${server.address().port}`,
        chromeFlags: tls ? [`--ignore-certificate-errors-spki-list=${tls.spki}`] : [],
        close: () =>
          new Promise((done) => {
            for (const session of sessions) session.destroy();
            for (const tunnel of tunnels) tunnel.destroy();
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A form POST as the site's own pages send one (with their Origin), its redirect not followed. */
function postForm(baseUrl, path, fields, cookie = null) {
  return fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseUrl, ...(cookie ? { Cookie: cookie } : {}) },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

/** The name=value pairs of the cookies a response sets whose pair matches `pattern`. */
function cookiesSet(response, pattern) {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => pattern.test(c));
}

const SESSION_COOKIES = /^mfy_(access|refresh)=./;

/** Signs in through the web form and returns the session's Cookie header. */
export async function signInCookie(baseUrl, { email, password } = ACCOUNTS.demo) {
  const response = await postForm(baseUrl, "/auth?mode=signin", { intent: "signin", email, password });
  const cookies = cookiesSet(response, SESSION_COOKIES);
  if (cookies.length < 2) throw new Error(`Sign-in as ${email} failed: ${response.status}`);
  return cookies.join("; ");
}

/** The password step of an account with two-factor on: the Cookie header of its pending sign-in. */
async function pendingTwoFactorCookie(baseUrl, { email, password }) {
  const response = await postForm(baseUrl, "/auth?mode=signin", { intent: "signin", email, password });
  const [pending] = cookiesSet(response, /^mfy_2fa_pending=./);
  if (!pending) throw new Error(`The password step of ${email} left no pending sign-in: ${response.status}`);
  return pending;
}

/** Signs in an account with two-factor on (its password, then one of its recovery codes) and returns the session's Cookie header. */
async function twoFactorSignInCookie(baseUrl, account) {
  const code = account.recoveryCodes.shift();
  if (!code) throw new Error(`${account.email} has no recovery code left`);
  const response = await postForm(baseUrl, "/auth/two-factor", { code }, await pendingTwoFactorCookie(baseUrl, account));
  const cookies = cookiesSet(response, SESSION_COOKIES);
  if (cookies.length < 2) throw new Error(`The two-factor step of ${account.email} failed: ${response.status}`);
  return cookies.join("; ");
}

/** Makes the member account (scripts/member-account.ts) in a Chromium of Playwright's. */
async function prepareMember(baseUrl) {
  process.env.BASE_URL = baseUrl;
  const [{ chromium }, { CHROMIUM_ARGS }, { prepareMemberAccount }] = await Promise.all([
    import("playwright-core"),
    import("../tests/e2e/browser.ts"),
    import("./member-account.ts"),
  ]);
  const browser = await chromium.launch({ executablePath: await ensureChromium(), args: CHROMIUM_ARGS });
  try {
    return await prepareMemberAccount(browser);
  } finally {
    await browser.close();
  }
}

/**
 * The Cookie header for each `as` of PAGE_STATES, signed in when first asked and again once it is
 * older than SESSION_REUSE_MS. A pending two-factor sign-in and a followed reset link are made
 * fresh for each page that asks.
 */
function sessionCookies(baseUrl, member) {
  const held = new Map();
  return async (as) => {
    if (as === null) return null;
    if (as === "two-factor step") return pendingTwoFactorCookie(baseUrl, member);
    if (as === "password reset") {
      const response = await fetch(`${baseUrl}${member.links.resetPassword}`, { redirect: "manual" });
      const [cookie] = cookiesSet(response, /^mfy_recovery=./);
      if (!cookie) throw new Error(`The reset link of ${member.email} set no cookie: ${response.status}`);
      return cookie;
    }
    const session = held.get(as);
    if (session && Date.now() - session.at < SESSION_REUSE_MS) return session.cookie;
    const cookie = as === "member" ? await twoFactorSignInCookie(baseUrl, member) : await signInCookie(baseUrl, ACCOUNTS[as]);
    held.set(as, { cookie, at: Date.now() });
    return cookie;
  };
}

/**
 * Every page of the build's route table, each with who opens it: signed out where it answers 200
 * so, else the demo account, else the admin; a dynamic segment takes its values from /sitemap.xml.
 * Then PAGE_STATES (their paths made with `member`). `unreached` names the pages no one opens
 * (a redirect or an error for everyone) that no state covers, and the dynamic ones with no URL.
 */
async function sitePages(baseUrl, buildDir, session, member) {
  const states = PAGE_STATES.map((state) => ({ ...state, path: typeof state.path === "function" ? state.path(member) : state.path }));
  const sitemapXml = await (await fetch(`${baseUrl}/sitemap.xml`)).text();
  const sitemap = [...sitemapXml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
  const pages = [];
  const unreached = [];
  for (const pattern of pagePatterns(readClientManifest(`${buildDir}/client`).routes)) {
    const matcher = new RegExp(`^${pattern.replace(/:[^/]+/g, "[^/]+").replace("*", ".*")}$`);
    const urls = /[:*]/.test(pattern) ? sitemap.filter((path) => matcher.test(path)) : [pattern];
    if (urls.length === 0) unreached.push(`${pattern}: no URL in /sitemap.xml to check it with`);
    for (const path of urls) {
      const answers = [];
      for (const as of [null, "demo", "admin"]) {
        const cookie = await session(as);
        const response = await fetch(`${baseUrl}${path}`, { redirect: "manual", headers: cookie ? { Cookie: cookie } : {} });
        await response.body?.cancel();
        if (response.status === 200) {
          pages.push({ path, as });
          answers.length = 0;
          break;
        }
        const location = response.headers.get("location");
        answers.push(`${as ?? "signed out"} ${response.status}${location ? ` to ${location}` : ""}`);
      }
      if (answers.length && !states.some((state) => state.path.split("?")[0] === path)) unreached.push(`${path}: ${answers.join(", ")}`);
    }
  }
  return { pages: [...pages, ...states], unreached };
}

const METRICS = {
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

export function scoreTable(results) {
  const head = ["page", "perf", "a11y", "best", "seo", "FCP s", "LCP s", "TBT ms", "CLS", "CPU index"];
  const rows = results.map((r) => [
    r.path,
    ...CATEGORIES.map((c) => `${r.scores[c] ?? "-"}${c === "seo" && r.keptOutOfSearch ? "*" : ""}`),
    r.metrics.fcp === null ? "-" : (r.metrics.fcp / 1000).toFixed(2),
    r.metrics.lcp === null ? "-" : (r.metrics.lcp / 1000).toFixed(2),
    r.metrics.tbt === null ? "-" : String(Math.round(r.metrics.tbt)),
    r.metrics.cls === null ? "-" : r.metrics.cls.toFixed(3),
    String(r.benchmarkIndex),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  const notes = results.flatMap((r) => [
    ...(r.redirectedTo ? [`  ${r.path}: redirected to ${r.redirectedTo}: measured there, not as itself`] : []),
    ...r.failing.map((f) => `  ${r.path}: ${f.id} ${f.score}${f.value ? ` (${f.value})` : ""}`),
    ...r.consoleErrors.map((e) => `  ${r.path}: console: ${e}`),
    ...r.runWarnings.map((w) => `  ${r.path}: Lighthouse warns: ${w}`),
  ]);
  const footnote = results.some((r) => r.keptOutOfSearch)
    ? [
        "",
        "* kept out of search by design (noindex or the site's robots.txt: a private step or a link's landing page): is-crawlable is the only SEO audit it fails",
      ]
    : [];
  return [line(head), ...rows.map(line), ...footnote, ...(notes.length ? ["", "Below a full score, or worth knowing:", ...notes] : [])].join("\n");
}

/** The middle value of `values` (the mean of the two middle ones for an even count). */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Each page over the runs (`runs`: one array of summaries per run, the pages in the same order):
 * per category its min, median and max score, each metric's median, whether it redirected in any
 * run, and `passes`: the median is 100 in every category (a page kept out of search by design
 * counts as 100 for SEO in a run where is-crawlable is its only SEO audit below 100) and it never
 * redirected. This is what the exit code judges.
 */
function pageMedians(runs, categories) {
  return runs[0].map((first, i) => {
    const seen = runs.map((results) => results[i]);
    const scores = {};
    let passes = seen.every((r) => !r.redirectedTo);
    for (const c of categories) {
      const values = seen.map((r) => r.scores[c] ?? 0);
      scores[c] = { min: Math.min(...values), median: median(values), max: Math.max(...values) };
      const judged = seen.map((r) => (c === "seo" && r.keptOutOfSearch ? 100 : (r.scores[c] ?? 0)));
      passes &&= median(judged) === 100;
    }
    const metrics = {};
    for (const key of Object.keys(METRICS)) {
      const values = seen.map((r) => r.metrics[key]).filter((v) => v !== null);
      metrics[key] = values.length ? median(values) : null;
    }
    return { path: first.path, scores, metrics, keptOutOfSearch: seen.some((r) => r.keptOutOfSearch), redirected: seen.some((r) => r.redirectedTo), passes };
  });
}

/** The table of pageMedians: min/median/max per category, the metrics' medians, and the pages that fail. */
function medianTable(pages, categories, runCount) {
  const short = { performance: "perf", accessibility: "a11y", "best-practices": "best", seo: "seo" };
  const head = ["page", ...categories.map((c) => `${short[c]} min/med/max`), "FCP s", "LCP s", "TBT ms", "CLS", "SI s", ""];
  const seconds = (ms) => (ms === null ? "-" : (ms / 1000).toFixed(2));
  const rows = pages.map((p) => [
    p.path,
    ...categories.map((c) => `${p.scores[c].min}/${p.scores[c].median}/${p.scores[c].max}${c === "seo" && p.keptOutOfSearch ? "*" : ""}`),
    seconds(p.metrics.fcp),
    seconds(p.metrics.lcp),
    p.metrics.tbt === null ? "-" : String(Math.round(p.metrics.tbt)),
    p.metrics.cls === null ? "-" : p.metrics.cls.toFixed(3),
    seconds(p.metrics.si),
    p.passes ? "" : "FAILS",
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join("  ")
      .trimEnd();
  const failing = pages.filter((p) => !p.passes);
  const verdict = failing.length
    ? `${failing.length} of ${pages.length} pages below 100 in the median of ${runCount} runs (or redirected): ${failing.map((p) => p.path).join(", ")}`
    : `Every one of the ${pages.length} pages at 100 in the median of ${runCount} runs.`;
  return [line(head), ...rows.map(line), "", verdict].join("\n");
}

async function main() {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "1" },
      json: { type: "string" },
      reports: { type: "string" },
      "no-build": { type: "boolean", default: false },
      paths: { type: "string" },
      only: { type: "string" },
      desktop: { type: "boolean", default: false },
      http1: { type: "boolean", default: false },
    },
  });
  const categories = values.only ? values.only.split(",") : CATEGORIES;
  const unknown = categories.filter((c) => !CATEGORIES.includes(c));
  if (unknown.length) throw new Error(`--only: no category ${unknown.join(", ")} (${CATEGORIES.join(", ")})`);
  ensureLighthouse();
  const buildDir = buildDirFor("lighthouse");
  if (!values["no-build"] || !existsSync(`${buildDir}/server/wrangler.json`)) {
    console.log(`Building into ${buildDir}...`);
    await buildSite(buildDir, { stdio: ["ignore", "ignore", "inherit"] });
  }
  const site = await serveTestSite({ buildDir, stateDir: ".wrangler/lighthouse-state" });
  const proxy = await startCompressingProxy(site.baseUrl, { http2: !values.http1 });
  const runs = [];
  let medians = [];
  try {
    console.log("Making a member: subscribed, model calls, two-factor, a passkey, a data export, e-mailed links (scripts/member-account.ts)...");
    const member = await prepareMember(site.baseUrl);
    const session = sessionCookies(site.baseUrl, member);
    const { pages, unreached } = await sitePages(site.baseUrl, buildDir, session, member);
    if (unreached.length) console.log(`Pages no one can open as they stand (not measured):\n${unreached.map((u) => `  ${u}`).join("\n")}`);
    // Labels without the links' tokens (each run makes new ones).
    const label = (path, as) => `${path.replace(/token=[^&]+/, "token=…")}${as ? ` [${as}]` : ""}`;
    const picked = values.paths ? values.paths.split(",").map((path) => pages.filter((p) => label(p.path, null) === path || p.path === path)) : [pages];
    const entries = picked.flat().map(({ path, as }) => ({ path, label: label(path, as), cookie: () => session(as) }));
    if (entries.length === 0) throw new Error(`--paths: none of ${values.paths} is a page of the list`);
    console.log(`Measuring ${entries.length} pages (${categories.join(", ")})...`);
    for (let run = 1; run <= Number(values.runs); run++) {
      const results = await lighthouseScores({ baseUrl: proxy.url, chromeFlags: proxy.chromeFlags, paths: entries, categories, desktop: values.desktop });
      const device = values.desktop ? "desktop" : "mobile";
      console.log(`\nRun ${run} (Lighthouse ${LIGHTHOUSE_VERSION}, ${device}, served compressed at ${proxy.url})\n${scoreTable(results)}`);
      if (values.reports) {
        mkdirSync(values.reports, { recursive: true });
        const { ReportGenerator } = await ensureLighthouse()("lighthouse/report/generator/report-generator.js");
        for (const r of results) {
          const file = `${values.reports}/run${run}${r.path.replace(/[^\w.-]+/g, "_")}`;
          writeFileSync(`${file}.json`, JSON.stringify(r.lhr));
          writeFileSync(`${file}.html`, ReportGenerator.generateReportHtml(r.lhr));
        }
      }
      runs.push(results.map(({ lhr, ...summary }) => summary));
    }
    medians = pageMedians(runs, categories);
    if (runs.length > 1) console.log(`\nOver ${runs.length} runs (the exit code judges the median)\n${medianTable(medians, categories, runs.length)}`);
  } finally {
    await proxy.close();
    await site.stop();
  }
  if (values.json)
    writeFileSync(
      values.json,
      `${JSON.stringify({ lighthouse: LIGHTHOUSE_VERSION, device: values.desktop ? "desktop" : "mobile", categories, runs, medians }, null, 2)}\n`,
    );
  if (medians.length === 0 || !medians.every((p) => p.passes)) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
