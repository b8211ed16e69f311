// `npm run bench -- --only lighthouse` (also a part of a whole `npm run bench`): Lighthouse mobile
// on every page of `npm run lighthouse`'s list (the route table and its states, signed in where a
// page needs it), three runs, each page judged by its median (issue 31: performance 100 on every
// page). It runs scripts/lighthouse.mjs as a user would (`--runs 3 --json FILE`) and writes its
// medians as the "lighthouse" section of bench/results.md; `--from FILE` writes that section from
// the JSON of such a run instead of measuring again (a run takes about 20 minutes on 2 cores).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { run } from "../scripts/lib.mjs";
import { f, met } from "./report.mjs";

const RUNS = 3;

/** The JSON of `npm run lighthouse -- --runs 3 --json FILE`: measured now, or read from `from` (its runs and categories as they were). */
async function measure(from) {
  if (from) return { report: JSON.parse(readFileSync(from, "utf8")), at: statSync(from).mtime };
  const dir = mkdtempSync(join(os.tmpdir(), "modelify-lighthouse-"));
  try {
    const file = join(dir, "lighthouse.json");
    const at = new Date();
    // Exits with 1 when a page's median is below 100: the table below says which, so go on.
    await run(process.execPath, ["scripts/lighthouse.mjs", "--runs", String(RUNS), "--json", file]).catch(() => {});
    return { report: JSON.parse(readFileSync(file, "utf8")), at };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// The list names a page's state after its path: "/dashboard [member]".
const label = (page) => page.path.replace(/^(\S+)(.*)$/, "`$1`$2");
const range = ({ min, median, max }) => (min === max ? `${median}` : `${min} / **${median}** / ${max}`);
const NAMES = { performance: "performance", accessibility: "accessibility", "best-practices": "best practices", seo: "SEO" };
const score = (page, category) => `${range(page.scores[category])}${category === "seo" && page.keptOutOfSearch ? "*" : ""}`;

/** @param {{ from?: string }} [options] */
export async function benchLighthouse({ from } = {}) {
  const { report, at } = await measure(from);
  const pages = report.medians;
  const { categories } = report;
  const runs = report.runs.length;
  // scripts/lighthouse.mjs's own judgement: every category's median at 100 (SEO excepted where a page
  // is kept out of search by design), and the page measured as itself, not where it redirected.
  const below = pages.filter((page) => !page.passes);
  const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  const stamp = `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const when = from ? `${stamp} (the run's JSON, \`--from\`; commit ${commit} when this section was written)` : `${stamp}, commit ${commit}`;
  const rows = pages.map(
    (page) =>
      `| ${label(page)} | ${categories.map((c) => score(page, c)).join(" | ")} | ${f(page.metrics.fcp / 1000, 2)} | ${f(page.metrics.lcp / 1000, 2)} | ${f(page.metrics.tbt)} |`,
  );
  return `## Lighthouse on every page

\`npm run bench -- --only lighthouse\` finished ${when}: Lighthouse ${report.lighthouse}, ${report.device}, ${runs} runs, each page judged by its median (\`npm run lighthouse -- --runs ${runs}\`).

| goal | measured | met |
|---|---|---|
| performance 100 on every page of the list (median of ${runs}), and the other categories measured | ${pages.length - below.length} of ${pages.length} pages at 100 in all ${categories.length}${below.length ? `; below: ${below.map(label).join(", ")}` : ""} | ${met(below.length === 0)} |

Each page's scores (min / **median** / max when the runs differed) and its median metrics:

| page | ${categories.map((c) => NAMES[c] ?? c).join(" | ")} | FCP s | LCP s | TBT ms |
|---|${categories.map(() => "---").join("|")}|---:|---:|---:|
${rows.join("\n")}

\\* kept out of search by design (noindex or robots.txt: a private step or an e-mailed link's landing page); \`is-crawlable\` is the only SEO audit it fails, and the median is judged as 100.

- **Which pages:** every page of \`app/routes.ts\` and its states (scripts/lighthouse.mjs's list: signed in as the demo account, the admin or a member with a subscription, two-factor, a passkey and a data export where a page needs one; e-mailed links opened as they arrive).
- **How:** the production build behind a proxy that compresses and speaks HTTP/2 as Cloudflare's edge does (ADR 0016), Debian's Chromium, mobile with Lighthouse's default simulated throttling.
`;
}
