// `OPS_TOKEN=… npm run usage:move -- --url https://modelify.example`
// Moves the usage history still in D1 (model_usage, secure_usage_reports, budget_alerts) into the
// accounts' usage ledgers: POSTs /api/ops/usage/move of the deployed site until it answers
// remaining: 0. Each call is one bounded step; the move is idempotent, so this can be stopped and
// started again at any time. Run it after deploying the ledger's code and before the migration
// that drops the tables (0014, which refuses while rows remain): docs/decisions/0020-usage-ledger.md (part 2).
import { parseArgs } from "node:util";

const RETRIES = 5;
// Steps in a row that moved nothing while rows remain: something refuses them every time.
const STALLED_AFTER = 3;

const { values } = parseArgs({ options: { url: { type: "string" }, help: { type: "boolean", short: "h" } } });
if (values.help || !values.url) {
  console.log("usage: OPS_TOKEN=<token> npm run usage:move -- --url <site origin, e.g. https://modelify.example>");
  process.exit(values.help ? 0 : 2);
}
const token = process.env.OPS_TOKEN;
if (!token) {
  console.error("Set OPS_TOKEN in the environment (the site's OPS_TOKEN secret).");
  process.exit(2);
}
const endpoint = new URL("/api/ops/usage/move", values.url);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One step; retried on network errors and 5xx answers, never on 401/404. */
async function step() {
  for (let attempt = 1; ; attempt++) {
    let response;
    try {
      response = await fetch(endpoint, { method: "POST", headers: { Authorization: `Bearer ${token}` } });
    } catch (error) {
      if (attempt >= RETRIES) throw error;
      await sleep(1000 * attempt);
      continue;
    }
    if (response.ok) return response.json();
    const body = await response.text();
    if (response.status === 404) throw new Error(`${endpoint} answered 404: is OPS_TOKEN set on the site, and is its ledger code deployed?`);
    if (response.status === 401) throw new Error(`${endpoint} answered 401: OPS_TOKEN is not the site's token.`);
    if (response.status < 500 || attempt >= RETRIES) throw new Error(`${endpoint} answered ${response.status}: ${body.slice(0, 300)}`);
    await sleep(1000 * attempt);
  }
}

const started = Date.now();
let total = 0;
let stalled = 0;
for (;;) {
  let answer;
  try {
    answer = await step();
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)} (${total} rows moved before; running again resumes)`);
    process.exit(1);
  }
  const { moved, remaining } = answer;
  total += moved;
  console.log(`moved ${moved} (${total} in all), ${remaining} remaining${remaining >= 100_000 ? " or more" : ""}`);
  if (remaining === 0) break;
  stalled = moved === 0 ? stalled + 1 : 0;
  if (stalled >= STALLED_AFTER) {
    console.error(`No rows moved in ${STALLED_AFTER} steps in a row while ${remaining} remain: see the site's logs (usage_move_failed).`);
    process.exit(1);
  }
}
console.log(`Done: ${total} rows moved in ${((Date.now() - started) / 1000).toFixed(1)} s. Apply the migrations again to drop the old tables.`);
