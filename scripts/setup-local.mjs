// First-run set-up for local development: secrets file, D1 migrations, seed data.
import { ensureDevVars, migrateAndSeed } from "./lib.mjs";

ensureDevVars();
await migrateAndSeed();
console.log("Local database migrated and seeded (.wrangler/state)");
