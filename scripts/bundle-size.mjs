// JavaScript a page loads before it hydrates, from a production build's client manifest
// (window.__reactRouterManifest in build/client/assets/manifest-*.js): the entry and its imports
// plus, for each matched route, its module and imports, each file counted once, gzipped at level 9
// (Cloudflare serves compressed; its level differs a little, the comparison between pages does not).
//
//   node scripts/bundle-size.mjs [build/client]   prints the table for PAGES (run through npm exec
//   or with node_modules/.bin on PATH: it builds the baseline with react-router)
//
// routeJsBytes is meant for bench/run.mjs too, on its own build.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

/**
 * The budget: a page may load at most 1.25 times what a bare React Router page loads: the page of
 * React Router's default template (bench/floor), built with this repository's versions and
 * measured the same way (about 110 KiB gzip).
 */
const BUDGET_RATIO = 1.25;
const FLOOR_PROJECT = "bench/floor";
const FLOOR_BUILD = ".build/bench-floor";

/** Builds the template page (about a second) and returns its JavaScript, gzip bytes. */
export function floorJsBytes() {
  execFileSync("react-router", ["build", FLOOR_PROJECT], { stdio: ["ignore", "ignore", "inherit"] });
  const dir = join(FLOOR_BUILD, "client");
  return routeJsBytes(dir, routeChain(readClientManifest(dir), "routes/home"));
}

/** Pages to report: their URL and the id of the leaf route that renders them (app/routes.ts). */
const PAGES = [
  { path: "/", route: "routes/home" },
  { path: "/pricing", route: "routes/pricing" },
  { path: "/api-reference", route: "routes/api-reference" },
  { path: "/auth", route: "routes/auth/index" },
  { path: "/dashboard", route: "routes/dashboard/index" },
  { path: "/dashboard/usage", route: "routes/dashboard/usage/index" },
];

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

/** The framework's share: the entry module and its imports, which every page loads. */
function entryJsBytes(buildClientDir) {
  return routeJsBytes(buildClientDir, []);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const dir = process.argv[2] ?? "build/client";
  const manifest = readClientManifest(dir);
  const kib = (bytes) => (bytes / 1024).toFixed(1);
  const floor = floorJsBytes();
  const ratio = (bytes) => (bytes / floor).toFixed(2);
  const entry = entryJsBytes(dir);
  const rows = [["page", "routes", "KiB gzip", `x ${kib(floor)} KiB`, ""]];
  rows.push(["(entry)", "", kib(entry), ratio(entry), ""]);
  for (const page of PAGES) {
    const chain = routeChain(manifest, page.route);
    const bytes = routeJsBytes(dir, chain);
    rows.push([page.path, chain.join(" > "), kib(bytes), ratio(bytes), bytes > floor * BUDGET_RATIO ? `over ${BUDGET_RATIO}x` : ""]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  for (const row of rows)
    console.log(
      row
        .map((cell, i) => (i === 2 || i === 3 ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
        .join("  ")
        .trimEnd(),
    );
}
