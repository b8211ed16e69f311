// JavaScript a page loads before it hydrates, from a production build's client manifest
// (window.__reactRouterManifest in build/client/assets/manifest-*.js): the entry and its imports
// plus, for each matched route, its module and imports, each file counted once, gzipped at level 9
// (Cloudflare serves compressed; its level differs a little, the comparison between pages does not).
// The pages are the route table's (pageRoutes): every route with a component that no other
// component route nests in, so a page is in the budget the day it lands. A page's JavaScript does
// not depend on who is signed in, nor on a dynamic segment's value: its route chain is enough.
//
//   node scripts/bundle-size.mjs [build/client]   the table for every page, and exit 1 naming the
//                                                 pages over the budget (run with node_modules/.bin
//                                                 on PATH: it builds the baseline with react-router)
//   node scripts/bundle-size.mjs --build          the same on a fresh build in .build/js-budget
//                                                 (`npm run check:js`, part of `npm run validate`)
//   ... --record                                  also writes the table into bench/results.md
//
// routeJsBytes is meant for bench/run.mjs too, on its own build; pagePatterns for the accessibility
// test (tests/e2e/accessibility.test.ts), which opens the same pages.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { writeResultsSection } from "../bench/results-file.mjs";
import { buildDirFor, buildSite } from "./lib.mjs";

/**
 * The budget: a page may load at most 1.25 times what a bare React Router page loads: the page of
 * React Router's default template (bench/floor), built with this repository's versions and
 * measured the same way (about 110 KiB gzip). A page that draws a chart may load 1.5 times: the
 * chart library (visx, with d3's scales and shapes) and the charts are about 21 KiB gzip.
 */
const BUDGET_RATIO = 1.25;
const CHART_BUDGET_RATIO = 1.5;

/**
 * Whether files of a build hold the chart library: each visx component stamps its class name on
 * what it draws ("visx-bar", "visx-axis"...), so the names are in the code that draws a chart.
 */
const drawsChart = (buildClientDir, files) => files.some((file) => /["'`]visx-[a-z]/.test(readFileSync(join(buildClientDir, file), "utf8")));
const FLOOR_PROJECT = "bench/floor";
const FLOOR_BUILD = ".build/bench-floor";

/** Builds the template page (about a second) and returns its JavaScript, gzip bytes. */
export function floorJsBytes() {
  execFileSync("react-router", ["build", FLOOR_PROJECT], { stdio: ["ignore", "ignore", "inherit"] });
  const dir = join(FLOOR_BUILD, "client");
  return routeJsBytes(dir, routeChain(readClientManifest(dir), "routes/home"));
}

/**
 * @typedef {{ id: string, parentId?: string, path?: string, index?: boolean, hasDefaultExport?: boolean,
 *   module?: string, imports?: string[] }} ManifestRoute
 */

/**
 * The route table's pages, sorted by path: each route with a component (a default export) that no
 * other route with a component nests in, its path its ancestors' paths joined ("/legal/:doc").
 * Resource routes (no component) and layouts are not pages.
 * @param {Record<string, ManifestRoute>} routes the client manifest's routes
 * @returns {Array<{ path: string, route: string }>}
 */
function pageRoutes(routes) {
  const all = Object.values(routes);
  const parents = new Set(all.filter((r) => r.hasDefaultExport).map((r) => r.parentId));
  /** @param {ManifestRoute} route */
  const fullPath = (route) => {
    const parts = [];
    for (let r = /** @type {ManifestRoute | undefined} */ (route); r; r = r.parentId ? routes[r.parentId] : undefined) if (r.path) parts.unshift(r.path);
    return `/${parts.join("/")}`;
  };
  return all
    .filter((r) => r.hasDefaultExport && !parents.has(r.id))
    .map((r) => ({ path: fullPath(r), route: r.id }))
    .sort((a, b) => a.path.localeCompare(b.path) || a.route.localeCompare(b.route));
}

/**
 * The route table's page paths: "/pricing", "/legal/:doc"... (pageRoutes, each path once).
 * @param {Record<string, ManifestRoute>} routes
 */
export function pagePatterns(routes) {
  return [...new Set(pageRoutes(routes).map((page) => page.path))];
}

/** The manifest React Router's client reads; the newest if an old build left more than one. */
export function readClientManifest(buildClientDir) {
  const assets = join(buildClientDir, "assets");
  const files = readdirSync(assets)
    .filter((name) => /^manifest-.*\.js$/.test(name))
    .map((name) => join(assets, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (files.length === 0) throw new Error(`No React Router client manifest in ${assets}: build first (npm run build)`);
  const source = readFileSync(files[0], "utf8");
  return JSON.parse(source.slice(source.indexOf("=") + 1).replace(/;\s*$/, ""));
}

/** A route's id and its layouts' ids, root first: every route module a page at that route loads. */
export function routeChain(manifest, leafId) {
  const ids = [];
  for (let id = leafId; id; id = manifest.routes[id]?.parentId) {
    if (!manifest.routes[id]) throw new Error(`No route "${id}" in the client manifest`);
    ids.unshift(id);
  }
  return ids;
}

/** The unique JavaScript files (URL paths such as /assets/x.js) for these route ids and the entry. */
function routeJsFiles(manifest, routeIds) {
  const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const id of routeIds) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`No route "${id}" in the client manifest`);
    if (route.module) files.add(route.module);
    for (const file of route.imports ?? []) files.add(file);
  }
  return [...files];
}

const gzipBytes = (buildClientDir, urlPath) => gzipSync(readFileSync(join(buildClientDir, urlPath)), { level: 9 }).length;

/**
 * Gzip bytes (level 9) of the JavaScript loaded for these route ids (give the whole chain, e.g.
 * routeChain(manifest, "routes/auth/index")), the entry included, each file counted once.
 */
export function routeJsBytes(buildClientDir, routeIds) {
  const manifest = readClientManifest(buildClientDir);
  return routeJsFiles(manifest, routeIds).reduce((sum, file) => sum + gzipBytes(buildClientDir, file), 0);
}

/**
 * The budget of the page at these route ids: 1.5x when its routes' own JavaScript draws a chart,
 * else 1.25x. The entry's files do not count: the chart library there would load on every page,
 * and then every page is held to 1.25x.
 */
function budgetRatio(buildClientDir, routeIds) {
  const manifest = readClientManifest(buildClientDir);
  const entry = new Set(routeJsFiles(manifest, []));
  const own = routeJsFiles(manifest, routeIds).filter((file) => !entry.has(file));
  return drawsChart(buildClientDir, own) ? CHART_BUDGET_RATIO : BUDGET_RATIO;
}

/** The framework's share: the entry module and its imports, which every page loads. */
function entryJsBytes(buildClientDir) {
  return routeJsBytes(buildClientDir, []);
}

/** Each page's route chain, gzip bytes, ratio to the floor and budget; `over` when past its budget. */
function measurePages(dir, floor) {
  const manifest = readClientManifest(dir);
  return pageRoutes(manifest.routes).map((page) => {
    const chain = routeChain(manifest, page.route);
    const bytes = routeJsBytes(dir, chain);
    const budget = budgetRatio(dir, chain);
    return { ...page, chain, bytes, ratio: bytes / floor, budget, over: bytes > floor * budget };
  });
}

const kib = (bytes) => (bytes / 1024).toFixed(1);

/** The table as aligned text columns (the terminal) or as Markdown (bench/results.md). */
function table(rows, markdown) {
  if (markdown)
    return [rows[0], rows[0].map((_, i) => (i === 2 || i === 3 ? "---:" : "---")), ...rows.slice(1)].map((row) => `| ${row.join(" | ")} |`).join("\n");
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === 2 || i === 3 ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = process.argv.slice(2);
  const fresh = args.includes("--build");
  const buildDir = buildDirFor("js-budget");
  if (fresh) await buildSite(buildDir, { stdio: ["ignore", "ignore", "inherit"] });
  const dir = fresh ? `${buildDir}/client` : (args.find((arg) => !arg.startsWith("--")) ?? "build/client");
  const floor = floorJsBytes();
  const pages = measurePages(dir, floor);
  const entry = entryJsBytes(dir);
  const rows = [["page", "routes", "KiB gzip", `x ${kib(floor)} KiB`, "budget", ""]];
  rows.push(["(entry)", "", kib(entry), (entry / floor).toFixed(2), "", ""]);
  for (const page of pages) rows.push([page.path, page.chain.join(" > "), kib(page.bytes), page.ratio.toFixed(2), `${page.budget}x`, page.over ? "over" : ""]);
  console.log(table(rows, false));
  if (args.includes("--record")) {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    writeResultsSection(
      "js",
      `## JavaScript per page\n\n\`node scripts/bundle-size.mjs --record\` on a build of commit ${commit}: gzip (level 9) of every script a page loads before it hydrates (the entry, each route module of its chain, layouts included, and their imports), against the page of React Router's default template built with the same versions (bench/floor, ${kib(floor)} KiB). Budget: ${BUDGET_RATIO}x on every page of the route table, ${CHART_BUDGET_RATIO}x on a page whose JavaScript holds the chart library (\`npm run check:js\`).\n\n${table(
        rows.map((row) => row.map((cell, i) => (i === 0 && cell.startsWith("/") ? `\`${cell}\`` : cell))),
        true,
      )}`,
    );
  }
  const over = pages.filter((page) => page.over);
  if (over.length) {
    console.error(
      `\n${over.length} page${over.length === 1 ? "" : "s"} over the JavaScript budget (${BUDGET_RATIO}x ${kib(floor)} KiB = ${kib(floor * BUDGET_RATIO)} KiB gzip; ${CHART_BUDGET_RATIO}x = ${kib(floor * CHART_BUDGET_RATIO)} KiB with a chart):`,
    );
    for (const page of over) console.error(`  ${page.path}: ${kib(page.bytes)} KiB, ${page.ratio.toFixed(2)}x, budget ${page.budget}x (${page.route})`);
    process.exit(1);
  }
  const charts = pages.filter((page) => page.budget === CHART_BUDGET_RATIO).length;
  console.log(
    `\nEvery page (${pages.length}) within ${BUDGET_RATIO}x the bare React Router page's JavaScript, or ${CHART_BUDGET_RATIO}x when it draws a chart (${charts} pages).`,
  );
}
