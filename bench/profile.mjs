// `npm run profile`: where a page's server CPU goes. Serves the production build (with source maps)
// on wrangler dev, as the benchmark does, loads one page for a few seconds while V8's sampling
// profiler runs in the site Worker's isolate (through wrangler's inspector), and prints the
// self time of the busiest functions and of each package, mapped to the original sources.
// Decide a render optimisation from this, then confirm it with `npm run bench`.
//
//   npm run profile [-- --path /dashboard] [--as demo] [--seconds 8] [--concurrency 8] [--top 30]
//                    [--no-build] [--cached] [--json FILE] [--callers FUNCTION]
//
// --callers prints who calls FUNCTION (its time with what it calls, by the chain of its three
// nearest callers).
//
// A signed-out page is rendered afresh on every request (a new ?b=<n> each time: an address the
// edge copy does not have) unless --cached.
import { readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildDirFor, buildSite } from "../scripts/lib.mjs";
import { signInCookie } from "../scripts/lighthouse.mjs";
import { serveTestSite } from "../scripts/serve-test-site.mjs";
import { load } from "./load.mjs";
import { processTree, procStat, TICKS_PER_SECOND } from "./proc.mjs";

const { values: cli } = parseArgs({
  options: {
    path: { type: "string", default: "/" },
    as: { type: "string" },
    seconds: { type: "string", default: "8" },
    concurrency: { type: "string", default: "8" },
    top: { type: "string", default: "30" },
    "no-build": { type: "boolean", default: false },
    cached: { type: "boolean", default: false },
    json: { type: "string" },
    callers: { type: "string" },
  },
});

const buildDir = buildDirFor("profile");
const SAMPLING_US = 100;
if (!cli["no-build"]) {
  console.log("Building with source maps...");
  await buildSite(buildDir, { stdio: ["ignore", "ignore", "inherit"], env: { MODELIFY_SOURCEMAPS: "1" } });
}

/** A Chrome DevTools Protocol session over the inspector's WebSocket. */
async function devtools(url) {
  // wrangler's inspector proxy takes local origins only.
  const socket = new WebSocket(url, { headers: { Origin: "http://localhost" } });
  await new Promise((done, fail) => {
    socket.addEventListener("open", done, { once: true });
    socket.addEventListener("error", fail, { once: true });
  });
  let id = 0;
  const pending = new Map();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data));
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.error) waiting.fail(new Error(`${waiting.method}: ${message.error.message}`));
    else waiting.done(message.result);
  });
  return {
    send: (method, params = {}) =>
      new Promise((done, fail) => {
        const call = ++id;
        pending.set(call, { done, fail, method });
        socket.send(JSON.stringify({ id: call, method, params }));
      }),
    close: () => socket.close(),
  };
}

/**
 * The site Worker's isolate in workerd's own inspector: wrangler's inspector proxy attaches to an
 * isolate that serves no request (its profiles came back empty), so the target is found where
 * workerd listens (a random port, read from /proc/net/tcp through the socket's inode).
 */
async function siteTarget(wranglerPid) {
  for (let i = 0; i < 100; i++) {
    const workerds = processTree(wranglerPid)
      .filter((p) => p.name === "workerd" && readFileSync(`/proc/${p.pid}/cmdline`, "utf8").includes("--inspector-addr"))
      .map((p) => p.pid);
    const inodes = new Set(
      workerds.flatMap((p) =>
        readdirSync(`/proc/${p}/fd`).flatMap((fd) => {
          try {
            return [/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${p}/fd/${fd}`))?.[1]].filter(Boolean);
          } catch {
            return [];
          }
        }),
      ),
    );
    const ports = readFileSync("/proc/net/tcp", "utf8")
      .split("\n")
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      // state 0A is LISTEN
      .filter((f) => f[3] === "0A" && inodes.has(f[9]))
      .map((f) => Number.parseInt(f[1].split(":")[1], 16));
    for (const port of ports) {
      try {
        const targets = await (await fetch(`http://127.0.0.1:${port}/json`, { signal: AbortSignal.timeout(1000) })).json();
        const site = targets.find((t) => t.id === "core:user:modelify");
        if (site) return site;
      } catch {
        // not the inspector
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("no inspector target for the site Worker");
}

// Source maps of the server build, by the file name V8 reports.
const maps = new Map();
function sourceMapFor(url) {
  const file =
    decodeURIComponent(url.replace(/^file:\/\//, ""))
      .split("/")
      .pop() ?? "";
  if (!maps.has(file)) {
    const found = [join(buildDir, "server", file), join(buildDir, "server", "assets", file)].find((f) => {
      try {
        readFileSync(`${f}.map`);
        return true;
      } catch {
        return false;
      }
    });
    maps.set(file, found ? { map: new SourceMap(JSON.parse(readFileSync(`${found}.map`, "utf8"))), dir: resolve(found, "..") } : null);
  }
  return maps.get(file);
}

/** Where a profile node's function came from: its package or app file. */
function origin(callFrame) {
  if (!callFrame.url) return { where: callFrame.functionName || "(native)", file: "" };
  const source = sourceMapFor(callFrame.url);
  const entry = source?.map.findEntry(callFrame.lineNumber, callFrame.columnNumber);
  const file = entry?.originalSource ? resolve(source.dir, entry.originalSource.replace(/^file:\/\//, "")) : callFrame.url;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1];
  const relative = file.replace(`${process.cwd()}/`, "");
  return { where: pkg ?? relative.replace(/^(app|workers)\/(.*)$/, "$1/$2"), file: entry ? `${relative}:${entry.originalLine + 1}` : relative };
}

const site = await serveTestSite({ buildDir, stateDir: ".wrangler/profile-state" });
try {
  const headers = {};
  if (cli.as)
    headers.Cookie = await signInCookie(site.baseUrl, cli.as === "admin" ? { email: "admin@modelify.dev", password: "Modelify-Admin-2026" } : undefined);
  const fresh = !cli.as && !cli.cached;
  let n = 0;
  const url = () => (fresh ? `${site.baseUrl}${cli.path}${cli.path.includes("?") ? "&" : "?"}b=${++n}` : `${site.baseUrl}${cli.path}`);
  const ms = Number(cli.seconds) * 1000;
  const concurrency = Number(cli.concurrency);
  // Warm-up: the first compile and the route modules' loading are not what a request costs.
  const page = () => fetch(url(), { headers, redirect: "manual" });
  await load(page, { ms: 2000, concurrency });
  // CPU of the workerd processes per request, without the profiler: the figure to compare.
  const workerds = processTree(site.pid).filter((p) => p.name === "workerd");
  const cpuTicks = () => workerds.reduce((sum, p) => sum + procStat(p.pid).ticks, 0);
  const ticksBefore = cpuTicks();
  const plain = await load(page, { ms, concurrency });
  const cpuMs = ((cpuTicks() - ticksBefore) * 1000) / TICKS_PER_SECOND / plain.done;
  console.log(
    `Without the profiler: ${plain.done} requests in ${ms / 1000} s (${(plain.done / (ms / 1000)).toFixed(0)}/s), ${cpuMs.toFixed(2)} ms of workerd CPU per request (wrangler's proxy included; npm run bench -- --only pages tells the two apart)`,
  );
  const target = await siteTarget(site.pid);
  const session = await devtools(target.webSocketDebuggerUrl);
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: SAMPLING_US });
  await session.send("Profiler.start");
  const result = await load(page, { ms, concurrency });
  const { profile } = await session.send("Profiler.stop");
  session.close();
  if (cli.json) writeFileSync(cli.json, JSON.stringify(profile));

  // Self time per node, from the samples and the time between them.
  const self = new Map();
  // A sample's time is the gap since the one before, capped: workerd takes no samples while the
  // isolate waits between requests, so the first sample after a wait carries the whole wait,
  // and summing raw gaps made whatever runs first in a request (the nonce, the cache key) look
  // hundreds of times dearer than it measures alone.
  const cap = 2 * SAMPLING_US;
  for (let i = 0; i < profile.samples.length; i++)
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + Math.min(profile.timeDeltas[i] ?? 0, cap));
  const parentOf = new Map();
  const nodeById = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  // The runtime's own functions (no script URL) by the nearest script function that called them.
  const callerOf = (node) => {
    for (let id = parentOf.get(node.id); id !== undefined; id = parentOf.get(id)) {
      const frame = nodeById.get(id).callFrame;
      if (frame.url) return `${frame.functionName || "(anonymous)"}  ${origin(frame).file}`;
    }
    return "(no script caller)";
  };
  const byRuntimeCaller = new Map();
  const byFunction = new Map();
  const byWhere = new Map();
  let total = 0;
  let idle = 0;
  for (const node of profile.nodes) {
    const us = self.get(node.id) ?? 0;
    if (!us) continue;
    total += us;
    if (["(idle)", "(program)"].includes(node.callFrame.functionName)) {
      idle += us;
      continue;
    }
    const { where, file } = origin(node.callFrame);
    if (!node.callFrame.url && node.callFrame.functionName !== "(garbage collector)") {
      const key = `${node.callFrame.functionName || "(anonymous)"} ← ${callerOf(node)}`;
      byRuntimeCaller.set(key, (byRuntimeCaller.get(key) ?? 0) + us);
    }
    const key = `${node.callFrame.functionName || "(anonymous)"}  ${file}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    byWhere.set(where, (byWhere.get(where) ?? 0) + us);
  }
  const busy = total - idle;
  const pct = (us) => `${((100 * us) / busy).toFixed(1).padStart(5)}%`;
  const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log(
    `\n${cli.path}${cli.as ? ` as ${cli.as}` : ""}: ${result.done} requests in ${ms / 1000} s (${JSON.stringify(result.statuses)}), concurrency ${concurrency}`,
  );
  console.log(
    `JS busy ${(busy / 1000).toFixed(0)} ms of ${(total / 1000).toFixed(0)} ms sampled: ${(busy / 1000 / result.done).toFixed(2)} ms of JavaScript per request\n`,
  );
  console.log("By package or file (self time):");
  for (const [where, us] of top(byWhere, 25)) console.log(`  ${pct(us)}  ${where}`);
  console.log("\nBy function (self time):");
  for (const [key, us] of top(byFunction, Number(cli.top))) console.log(`  ${pct(us)}  ${key}`);
  if (cli.callers) {
    // Time of a node with everything below it.
    const inclusive = new Map();
    const totalOf = (node) => {
      if (inclusive.has(node.id)) return inclusive.get(node.id);
      const t = (self.get(node.id) ?? 0) + (node.children ?? []).reduce((sum, c) => sum + totalOf(nodeById.get(c)), 0);
      inclusive.set(node.id, t);
      return t;
    };
    const chains = new Map();
    for (const node of profile.nodes) {
      if (node.callFrame.functionName !== cli.callers) continue;
      // Nested calls of the same function are counted at their outermost.
      let nested = false;
      const chain = [];
      for (let id = parentOf.get(node.id); id !== undefined; id = parentOf.get(id)) {
        const frame = nodeById.get(id).callFrame;
        if (frame.functionName === cli.callers) nested = true;
        if (chain.length < 3) chain.push(`${frame.functionName || "(anonymous)"} ${origin(frame).file.split("/").pop()}`);
      }
      if (nested) continue;
      const key = chain.join(" ← ");
      chains.set(key, (chains.get(key) ?? 0) + totalOf(node));
    }
    console.log(`\nCallers of ${cli.callers} (its time with what it calls):`);
    for (const [key, us] of top(chains, 15)) console.log(`  ${pct(us)}  ${key}`);
  }
  console.log("\nThe runtime's own functions, by their caller (self time):");
  for (const [key, us] of top(byRuntimeCaller, 15)) console.log(`  ${pct(us)}  ${key}`);
} finally {
  await site.stop();
}
// The listing of the build's files, so a missing map says why nothing was mapped.
if (maps.size && [...maps.values()].every((m) => m === null))
  console.log(`\nNo source maps found in ${buildDir}/server: ${readdirSync(join(buildDir, "server")).join(", ")}`);
