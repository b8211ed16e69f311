// JavaScript a page loads before it hydrates, from a production build's client manifest
// (window.__reactRouterManifest in build/client/assets/manifest-*.js): the entry and its imports
// plus, for each matched route, its module and imports, each file counted once, gzipped at level 9
// (Cloudflare serves compressed; its level differs a little, the comparison between pages does not).
//
//   node scripts/bundle-size.mjs [build/client]   prints the table for PAGES
//
// routeJsBytes is meant for bench/run.mjs too, on its own build.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

/**
 * The budget: a page may load at most 1.25 times the framework floor of 111 KiB gzip (this build's
 * entry chunk, React, React DOM and React Router's client that every page loads, is about 104).
 */
export const FRAMEWORK_FLOOR_BYTES = 111 * 1024;
export const BUDGET_RATIO = 1.25;

/** Pages to report: their URL and the id of the leaf route that renders them (app/routes.ts). */
export const PAGES = [
  { path: "/", route: "routes/home" },
  { path: "/pricing", route: "routes/pricing" },
  { path: "/auth", route: "routes/auth" },
  { path: "/dashboard", route: "routes/dashboard/overview" },
  { path: "/dashboard/usage", route: "routes/dashboard/usage" },
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
export function routeJsFiles(manifest, routeIds) {
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
 * routeChain(manifest, "routes/auth")), the entry included, each file counted once.
 */
export function routeJsBytes(buildClientDir, routeIds) {
  const manifest = readClientManifest(buildClientDir);
  return routeJsFiles(manifest, routeIds).reduce((sum, file) => sum + gzipBytes(buildClientDir, file), 0);
}

/** The framework's share: the entry module and its imports, which every page loads. */
export function entryJsBytes(buildClientDir) {
  return routeJsBytes(buildClientDir, []);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const dir = process.argv[2] ?? "build/client";
  const manifest = readClientManifest(dir);
  const kib = (bytes) => (bytes / 1024).toFixed(1);
  const ratio = (bytes) => (bytes / FRAMEWORK_FLOOR_BYTES).toFixed(2);
  const entry = entryJsBytes(dir);
  const rows = [["page", "routes", "KiB gzip", "x 111 KiB", ""]];
  rows.push(["(entry)", "", kib(entry), ratio(entry), ""]);
  for (const page of PAGES) {
    const chain = routeChain(manifest, page.route);
    const bytes = routeJsBytes(dir, chain);
    rows.push([page.path, chain.join(" > "), kib(bytes), ratio(bytes), bytes > FRAMEWORK_FLOOR_BYTES * BUDGET_RATIO ? `over ${BUDGET_RATIO}x` : ""]);
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
