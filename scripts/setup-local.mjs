// First-run set-up for local development (`npm run setup`, and `npm run dev` before Vite starts):
// the secrets file, then D1 migrations, demo accounts and demo builds in .wrangler/state
// (scripts/local-state.mjs; what is there already is skipped).
import { ensureDevVars } from "./lib.mjs";
import { migrateAndSeed } from "./local-state.mjs";

ensureDevVars();
await migrateAndSeed();
