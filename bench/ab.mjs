// `npm run bench:ab`: one page of this working tree against the same page of another commit,
// measured side by side: both production builds served by `wrangler dev` at once, each with its
// own state, loaded in alternating slices (bench/load.mjs), so a slow moment of the machine falls
// on both. Prints each side's requests/s and the CPU per request of the workerd process that runs
// its Workers (bench/proc.mjs's cpuMeter, as bench/pages.mjs reads it), and this tree ÷ the base.
// This is how a render change is decided (docs/performance.md cites its figures). With --record
// the comparison is also written to bench/results.md, a section per page and way of asking.
//
//   npm run bench:ab -- [--base HEAD] [--path /] [--as demo] [--seconds 40] [--record]
//
// A signed-out page is rendered afresh on every request (a new ?b=<n> each time: an address the
// edge copy does not have); --as demo signs
// both sides in as the seeded demo account instead.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildDirFor, buildSite } from "../scripts/lib.mjs";
import { signInCookie } from "../scripts/lighthouse.mjs";
import { serveTestSite } from "../scripts/serve-test-site.mjs";
import { alternating, fetchRetry } from "./load.mjs";
import { cpuMeter } from "./proc.mjs";
import { f } from "./report.mjs";
import { writeResultsSection } from "./results-file.mjs";

const { values: cli } = parseArgs({
  options: {
    base: { type: "string", default: "HEAD" },
    path: { type: "string", default: "/" },
    as: { type: "string" },
    seconds: { type: "string", default: "40" },
    record: { type: "boolean", default: false },
  },
});
if (cli.as !== undefined && cli.as !== "demo") {
  console.error("--as takes only demo (the seeded demo account)");
  process.exit(1);
}
const SLICE_SECONDS = 2;
const seconds = Math.max(SLICE_SECONDS * 2, Number(cli.seconds));
const baseCommit = execFileSync("git", ["rev-parse", "--short", cli.base], { encoding: "utf8" }).trim();

/** The comparison as a section of bench/results.md, named by the page and how it was asked for. */
function recordComparison([base, head]) {
  const thisCommit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  const page = `\`GET ${cli.path}\` ${cli.as ? "signed in as the demo account" : "signed out, uncached (a new ?b=<n> each request)"}`;
  const row = (label, r) => `| ${label} | ${f(r.perSecond, 1)} | ${f(r.cpuMsPerRequest.runtime, 2)} | ${r.done} |`;
  writeResultsSection(
    `ab:${cli.path}:${cli.as ?? "out"}`,
    [
      `## Before and after: ${page}`,
      "",
      `\`npm run bench:ab -- --base ${cli.base} --path ${cli.path}${cli.as ? " --as demo" : ""} --seconds ${seconds} --record\` on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC: both production builds served by \`wrangler dev\` at once, loaded in alternating ${SLICE_SECONDS} s slices; CPU is the isolate's (the workerd process that runs the Workers).`,
      "",
      "| build | requests/s | CPU ms a request | requests |",
      "|---|---:|---:|---:|",
      row(`${baseCommit} (base)`, base),
      row(`${thisCommit} (this tree)`, head),
      `| this ÷ base | ${f(head.perSecond / base.perSecond, 2)}x | ${f(head.cpuMsPerRequest.runtime / base.cpuMsPerRequest.runtime, 2)}x | |`,
    ].join("\n"),
  );
}

/** Builds commit `ref` from its own files (git archive) with this tree's node_modules. */
async function buildCommit(ref, buildDir) {
  const source = resolve(".build/ab-source");
  rmSync(source, { recursive: true, force: true });
  mkdirSync(source, { recursive: true });
  execFileSync("sh", ["-c", `git archive ${ref} | tar -x -C ${source}`]);
  symlinkSync(resolve("node_modules"), `${source}/node_modules`, "dir");
  // Outside the source's root, so the build would not empty it by itself.
  rmSync(buildDir, { recursive: true, force: true });
  await buildSite(resolve(buildDir), { cwd: source, stdio: ["ignore", "ignore", "inherit"] });
}

const thisDir = buildDirFor("ab-this");
const baseDir = buildDirFor("ab-base");
console.log(`Building this tree and ${cli.base} (${baseCommit})...`);
await buildSite(thisDir, { stdio: ["ignore", "ignore", "inherit"] });
await buildCommit(cli.base, baseDir);

const sides = [];
try {
  sides.push({ label: `${cli.base} (${baseCommit})`, site: await serveTestSite({ buildDir: baseDir, stateDir: ".wrangler/ab-base-state" }) });
  sides.push({ label: "this tree", site: await serveTestSite({ buildDir: thisDir, stateDir: ".wrangler/ab-this-state" }) });
  const loads = [];
  let fresh = 0;
  const separator = cli.path.includes("?") ? "&" : "?";
  for (const { label, site } of sides) {
    const headers = cli.as ? { Cookie: await signInCookie(site.baseUrl) } : {};
    const url = () => (cli.as ? `${site.baseUrl}${cli.path}` : `${site.baseUrl}${cli.path}${separator}b=${++fresh}`);
    loads.push({
      request: () => fetchRetry(url(), { headers, redirect: "manual" }),
      cpu: cpuMeter(site.pid, Number(new URL(site.baseUrl).port), label).read,
    });
  }
  console.log(`GET ${cli.path}${cli.as ? " signed in" : " uncached"}: warming up, then ${seconds} s in slices of ${SLICE_SECONDS} s...`);
  await alternating(loads, { ms: 4_000, slices: 2 });
  const results = await alternating(loads, { ms: seconds * 1000, slices: seconds / SLICE_SECONDS });
  for (const [k, r] of results.entries()) {
    const other = Object.keys(r.statuses).filter((status) => status !== "200");
    if (other.length > 0) throw new Error(`${sides[k].label} answered other than 200: ${JSON.stringify(r.statuses)}`);
  }
  const [base, head] = results;
  for (const [k, r] of results.entries()) {
    console.log(`${sides[k].label.padEnd(24)} ${f(r.perSecond, 1)} requests/s, ${f(r.cpuMsPerRequest.runtime, 2)} ms of CPU a request (${r.done} requests)`);
  }
  console.log(
    `this tree ÷ ${cli.base}: requests/s ${f(head.perSecond / base.perSecond, 3)}x, CPU a request ${f(head.cpuMsPerRequest.runtime / base.cpuMsPerRequest.runtime, 3)}x`,
  );
  if (cli.record) recordComparison(results);
} finally {
  for (const { site } of sides) await site.stop();
}
