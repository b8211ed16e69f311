// What `npm run lighthouse` prints and judges: each run's table of scores and metrics, and over
// several runs each page's min / median / max, which decides the exit code.
import { CATEGORIES, METRICS } from "./lighthouse-runner.mjs";

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
export function pageMedians(runs, categories) {
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
export function medianTable(pages, categories, runCount) {
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
