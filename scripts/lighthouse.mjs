// `npm run lighthouse`: Lighthouse (mobile, default simulated throttling) on /, /pricing, /auth and
// the dashboard's tabs (signed in as the demo user), against the production build served the way production
// serves it: workerd behind a proxy that, like Cloudflare's edge, compresses text with brotli or
// gzip and speaks HTTP/2 over TLS. Builds into .build/lighthouse and serves it on a free port with
// its own state, so a running `npm start` is left alone
// (docs/decisions/0016-lighthouse-and-compression.md). Exits with 1 unless every score is 100.
//
//   npm run lighthouse [-- --runs 3] [--json FILE] [--reports DIR] [--no-build] [--paths /,/pricing] [--http1]
//
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
import { buildDirFor, buildSite } from "./lib.mjs";
import { serveTestSite } from "./serve-test-site.mjs";

export const LIGHTHOUSE_VERSION = "12.8.2";
const CACHE_DIR = resolve(".cache/lighthouse");
export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
// The dashboard's tabs are signed in as the demo account (its session cookie goes to /dashboard and below).
export const PAGES = [
  "/",
  "/pricing",
  "/auth",
  "/dashboard",
  "/dashboard/usage",
  "/dashboard/profile",
  "/dashboard/analytics",
  "/dashboard/billing",
  "/dashboard/budget",
  "/dashboard/downloads",
];
const DEMO = { email: "demo@modelify.dev", password: "Modelify-Demo-2026" };

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

/** Signs in through the web form and returns the session's Cookie header. */
export async function signInCookie(baseUrl, { email, password } = DEMO) {
  const response = await fetch(`${baseUrl}/auth?mode=signin`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseUrl },
    body: new URLSearchParams({ intent: "signin", email, password }),
    redirect: "manual",
  });
  const cookies = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => /^mfy_(access|refresh)=./.test(c));
  if (cookies.length < 2) throw new Error(`Sign-in as ${email} failed: ${response.status}`);
  return cookies.join("; ");
}

const METRICS = {
  fcp: "first-contentful-paint",
  lcp: "largest-contentful-paint",
  tbt: "total-blocking-time",
  cls: "cumulative-layout-shift",
  si: "speed-index",
};

function summarize(path, lhr) {
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]));
  const metrics = Object.fromEntries(Object.entries(METRICS).map(([k, id]) => [k, lhr.audits[id]?.numericValue ?? null]));
  // Audits that cost points: weighted in a category and below a full score.
  const weighted = new Set(CATEGORIES.flatMap((c) => (lhr.categories[c]?.auditRefs ?? []).filter((r) => r.weight > 0).map((r) => r.id)));
  const failing = Object.values(lhr.audits)
    .filter((a) => weighted.has(a.id) && a.score !== null && a.score < 1)
    .map((a) => ({ id: a.id, score: a.score, value: a.displayValue ?? "" }));
  const errors = (lhr.audits["errors-in-console"]?.details?.items ?? []).map((i) => i.description);
  // Lighthouse's measure of the machine's speed during the run: it drops when other work shares the CPU.
  const benchmarkIndex = Math.round(lhr.environment?.benchmarkIndex ?? 0);
  return { path, scores, metrics, benchmarkIndex, failing, consoleErrors: errors, runWarnings: lhr.runWarnings };
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
 * Lighthouse, mobile with default throttling, for each path of `baseUrl` in one Chromium.
 * `paths`: strings, or { path, cookie } for pages that need a session.
 * `cookie`: sent to the paths named in `cookiePaths` (default /dashboard and below).
 * Returns [{ path, scores, metrics, failing, consoleErrors, lhr }].
 */
export async function lighthouseScores({ baseUrl, paths = PAGES, cookie = null, cookiePaths = /^\/dashboard(\/|$)/, chromeFlags = [] }) {
  const importFromCache = ensureLighthouse();
  const { default: lighthouse } = await importFromCache("lighthouse");
  const { launch } = await importFromCache("chrome-launcher");
  const chromePath = await ensureChromium();
  // No GPU here: software compositing, as the browser tests run (tests/e2e/browser.ts).
  const chrome = await launch({ chromePath, chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", ...chromeFlags], logLevel: "silent" });
  const results = [];
  let jar = null;
  try {
    jar = await cookieJar(chrome.port);
    const pages = paths.map((entry) => {
      const path = typeof entry === "string" ? entry : entry.path;
      return { path, cookie: typeof entry === "string" ? (cookie && cookiePaths.test(path) ? cookie : null) : (entry.cookie ?? null) };
    });
    // Each page starts with its own session's cookies and no others (none signed out).
    const audit = async ({ path, cookie: pageCookie }) => {
      await jar.set(baseUrl, pageCookie);
      return lighthouse(`${baseUrl}${path}`, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: CATEGORIES });
    };
    // The first page a fresh Chromium loads pays for the browser's own start (its caches, compiler
    // and compositor warming up; its first paint was seen up to 2 s late), not for the site's: that
    // run is made and dropped. Lighthouse clears the site's cache and storage before every page.
    await audit(pages[0]);
    for (const page of pages) {
      const runner = await audit(page);
      if (!runner) throw new Error(`Lighthouse returned nothing for ${page.path}`);
      results.push({ ...summarize(page.path, runner.lhr), lhr: runner.lhr });
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
    ...CATEGORIES.map((c) => String(r.scores[c])),
    (r.metrics.fcp / 1000).toFixed(2),
    (r.metrics.lcp / 1000).toFixed(2),
    String(Math.round(r.metrics.tbt)),
    r.metrics.cls.toFixed(3),
    String(r.benchmarkIndex),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  const notes = results.flatMap((r) => [
    ...r.failing.map((f) => `  ${r.path}: ${f.id} ${f.score}${f.value ? ` (${f.value})` : ""}`),
    ...r.consoleErrors.map((e) => `  ${r.path}: console: ${e}`),
    ...r.runWarnings.map((w) => `  ${r.path}: Lighthouse warns: ${w}`),
  ]);
  return [line(head), ...rows.map(line), ...(notes.length ? ["", "Below a full score, or worth knowing:", ...notes] : [])].join("\n");
}

async function main() {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "1" },
      json: { type: "string" },
      reports: { type: "string" },
      "no-build": { type: "boolean", default: false },
      paths: { type: "string" },
      http1: { type: "boolean", default: false },
    },
  });
  ensureLighthouse();
  const buildDir = buildDirFor("lighthouse");
  if (!values["no-build"] || !existsSync(`${buildDir}/server/wrangler.json`)) {
    console.log(`Building into ${buildDir}...`);
    await buildSite(buildDir, { stdio: ["ignore", "ignore", "inherit"] });
  }
  const site = await serveTestSite({ buildDir, stateDir: ".wrangler/lighthouse-state" });
  const proxy = await startCompressingProxy(site.baseUrl, { http2: !values.http1 });
  const runs = [];
  let perfect = true;
  try {
    for (let run = 1; run <= Number(values.runs); run++) {
      // A fresh session each run: the 15-minute access token must outlast the run.
      const cookie = await signInCookie(site.baseUrl);
      const results = await lighthouseScores({
        baseUrl: proxy.url,
        cookie,
        chromeFlags: proxy.chromeFlags,
        paths: values.paths ? values.paths.split(",") : PAGES,
      });
      console.log(`\nRun ${run} (Lighthouse ${LIGHTHOUSE_VERSION}, mobile, served compressed at ${proxy.url})\n${scoreTable(results)}`);
      if (values.reports) {
        mkdirSync(values.reports, { recursive: true });
        for (const r of results) writeFileSync(`${values.reports}/run${run}${r.path.replaceAll("/", "_") || "_"}.json`, JSON.stringify(r.lhr));
      }
      perfect &&= results.every((r) => CATEGORIES.every((c) => r.scores[c] === 100));
      runs.push(results.map(({ lhr, ...summary }) => summary));
    }
  } finally {
    await proxy.close();
    await site.stop();
  }
  if (values.json) writeFileSync(values.json, `${JSON.stringify({ lighthouse: LIGHTHOUSE_VERSION, runs }, null, 2)}\n`);
  if (!perfect) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
