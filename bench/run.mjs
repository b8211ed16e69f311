// `npm run bench`: every figure of the performance goals, measured side by side in one run on the
// local runtime (the production build on wrangler dev, as `npm start` serves it), each repeated
// three times (min / median / max), written to bench/results.md.
//
// It builds into .build/bench and serves on a free port with its own local state and Stripe
// stand-in, so a running `npm start` (build/, .wrangler/state, port 8787) is left alone. First the
// usage reports' requests/s, the dashboard's D1 statements, Lighthouse on four pages and the
// JavaScript of two (bench/load-figures.mjs, alone `npm run bench -- --only load`); then the
// pages' requests/s and CPU against a static file and against React Router's Cloudflare template
// (bench/pages.mjs, alone `npm run bench -- --only pages`, a few minutes); the usage ledgers'
// figures on the same build with a state of their own (bench/ledger.mjs, alone
// `npm run bench -- --only ledger`); a team of 1,000 members' pages against a team of 10's
// (bench/teams.mjs, alone `npm run bench -- --only teams`); last, the start of a fresh clone (bench/start.mjs, `npm run
// bench -- --only start`) and the whole test suite on a fresh clone, three times (bench/suite.mjs,
// `npm run bench -- --only suite`). Each part writes its own section of bench/results.md
// (bench/results-file.mjs).
import { parseArgs } from "node:util";
import { buildDirFor, buildSite } from "../scripts/lib.mjs";
import { benchLedger } from "./ledger.mjs";
import { benchLighthouse } from "./lighthouse.mjs";
import { benchLoad } from "./load-figures.mjs";
import { benchPages } from "./pages.mjs";
import { writeResultsSection } from "./results-file.mjs";
import { benchStart } from "./start.mjs";
import { benchSuite } from "./suite.mjs";
import { benchTeams } from "./teams.mjs";

const { values: cli } = parseArgs({ options: { only: { type: "string" }, from: { type: "string" } } });
/** Each part run alone, by the name of its section. */
const PARTS = {
  load: () => benchLoad(),
  pages: () => benchPages(),
  ledger: () => benchLedger(),
  teams: () => benchTeams(),
  lighthouse: () => benchLighthouse({ from: cli.from }),
  start: () => benchStart(),
  suite: () => benchSuite(),
};
if (cli.only !== undefined && !(cli.only in PARTS)) {
  console.error(
    `--only takes "load" (usage reports' requests/s, the dashboard's D1 statements, Lighthouse on four pages, the JavaScript of two), "pages" (the pages' requests/s and CPU against a static file and React Router's Cloudflare template), "ledger" (the usage ledgers' figures), "teams" (a 1,000-member team's pages ÷ a 10-member team's), "lighthouse" (every page, 3 runs; --from FILE: the JSON of such a run), "start" (the start of a fresh clone) or "suite" (npm test on a fresh clone, 3 times); without it every figure is measured.`,
  );
  process.exit(1);
}
if (cli.only !== undefined) {
  writeResultsSection(cli.only, await PARTS[cli.only]());
  console.log(`bench/results.md: the ${cli.only} section is written.`);
  process.exit(0);
}

console.log("Building the site...");
const buildDir = buildDirFor("bench");
await buildSite(buildDir, { stdio: ["ignore", "ignore", "inherit"] });
const load = await benchLoad({ buildDir });
writeResultsSection("load", load);
console.log(load);
writeResultsSection("pages", await benchPages({ buildDir }));
writeResultsSection("ledger", await benchLedger({ buildDir }));
writeResultsSection("teams", await benchTeams({ buildDir }));
writeResultsSection("lighthouse", await benchLighthouse());
writeResultsSection("start", await benchStart());
writeResultsSection("suite", await benchSuite());
