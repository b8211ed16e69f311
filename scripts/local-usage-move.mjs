// An old local state (`.wrangler/state` from before the usage ledger, ADR 0020) still has its usage
// in D1's model_usage, secure_usage_reports and budget_alerts, and migration 0014 refuses to drop
// those tables while they hold rows. scripts/local-state.mjs calls this just before applying 0014:
// the rows move into the local ledgers with the move's own code (workers/local-move.ts, bundled
// only then), step by step as `npm run usage:move` does in production, on the set-up's Miniflare,
// whose script is swapped for the mover and back.
import { bundleWorkerModule } from "./lib.mjs";

const MOVE_WORKER = "workers/local-move.ts";
/** The migration that drops the legacy tables (and refuses while they hold rows). */
export const LEGACY_USAGE_DROP = "0014_drop_legacy_usage.sql";
const LEGACY_TABLES = ["model_usage", "secure_usage_reports", "budget_alerts"];

/** Rows left in the legacy tables (0 when they are gone). */
async function legacyRows(db) {
  const { results } = await db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (${LEGACY_TABLES.map(() => "?").join(", ")})`)
    .bind(...LEGACY_TABLES)
    .all();
  if (results.length === 0) return 0;
  const row = await db.prepare(`SELECT ${results.map((r) => `(SELECT count(*) FROM ${r.name})`).join(" + ")} AS n`).first();
  return Number(row?.n ?? 0);
}

function bundleMoveWorker() {
  return bundleWorkerModule(MOVE_WORKER);
}

/**
 * Moves the local state's legacy usage into its ledgers. `optionsFor(script)` gives the Miniflare
 * options `mf` runs with (the site Worker's name, D1 and the ledger's binding) for another script:
 * the mover runs with them, then `mf` gets its own script (`restore`) back. Returns what it did,
 * for the set-up's summary, or null when there was nothing to move.
 */
export async function moveLocalLegacyUsage({ mf, db, optionsFor, restore }) {
  const rows = await legacyRows(db);
  if (rows === 0) return null;
  await mf.setOptions(optionsFor(await bundleMoveWorker()));
  let moved = 0;
  try {
    for (;;) {
      const response = await mf.dispatchFetch("http://local-move/", { method: "POST" });
      if (!response.ok) throw new Error(`Moving the local usage into its ledgers failed: ${response.status} ${await response.text()}`);
      const step = await response.json();
      moved += step.moved;
      if (step.remaining === 0) break;
      if (step.moved === 0) throw new Error(`Moving the local usage into its ledgers stalled with ${step.remaining} rows left`);
    }
  } finally {
    await mf.setOptions(optionsFor(restore));
  }
  return `${moved} usage rows from before the usage ledger moved into it`;
}
