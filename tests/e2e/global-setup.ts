// Before the browser tests: Chromium present, the site built into its own directory (a running
// `npm start` keeps serving build/), and one local state migrated and seeded. No site is served
// here: each worker serves its own copy of the build on its own copy of that state (fixtures.ts,
// sites.ts). E2E_NO_BUILD=1 reuses the last test build.
import type { FullConfig } from "@playwright/test";
import { ensureChromium } from "../../scripts/ensure-chromium.mjs";
import { buildDirFor, buildSite, ensureDevVars } from "../../scripts/lib.mjs";
import { prepareTestState } from "../../scripts/serve-test-site.mjs";
import { removeOldSites } from "./sites.ts";

export const E2E_BUILD_DIR = buildDirFor("e2e");
const SEEDED_STATE = ".wrangler/e2e-seeded-state";

export default async function globalSetup(_config: FullConfig) {
  process.env.CHROMIUM_PATH = await ensureChromium();
  // Before the build, which copies .dev.vars into the built Workers.
  ensureDevVars();
  removeOldSites();
  const build = process.env.E2E_NO_BUILD === "1" ? Promise.resolve() : buildSite(E2E_BUILD_DIR, { stdio: ["ignore", "ignore", "inherit"] });
  // The build and the seeding share nothing: both at once.
  await Promise.all([build, prepareTestState(SEEDED_STATE)]);
  // Read by sites.ts in the workers (they inherit this process's environment).
  process.env.E2E_BUILD_DIR = E2E_BUILD_DIR;
  process.env.E2E_SEEDED_STATE = SEEDED_STATE;
}
