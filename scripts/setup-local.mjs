// First-run set-up for local development (`npm run setup`, and `npm run dev` before Vite starts):
// the secrets file, then D1 migrations, demo accounts and demo builds in .wrangler/state
// (scripts/local-state.mjs; what is there already is skipped).
import { ensureDevVars, migrateAndSeed } from "./lib.mjs";

ensureDevVars();
await migrateAndSeed();
