// bench/results.md is written in sections, one per part of the bench, each between
// `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`: a part run alone (`npm run bench -- --only start`)
// replaces its own section and leaves the others' figures as they were measured.
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const RESULTS_FILE = "bench/results.md";

export function writeResultsSection(name, markdown, file = RESULTS_FILE) {
  const open = `<!-- bench:${name} -->`;
  const close = `<!-- /bench:${name} -->`;
  const section = `${open}\n${markdown.trim()}\n${close}`;
  const current = existsSync(file) ? readFileSync(file, "utf8") : "";
  const start = current.indexOf(open);
  const end = current.indexOf(close);
  const next =
    start !== -1 && end > start
      ? `${current.slice(0, start)}${section}${current.slice(end + close.length)}`
      : `${current.trimEnd()}${current.trim() ? "\n\n" : ""}${section}\n`;
  writeFileSync(file, next);
}
