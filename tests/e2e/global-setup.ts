// Before the browser tests: Chromium's headless shell present (scripts/ensure-chromium.mjs), the site built into its own directory (a running
// `npm start` keeps serving build/), and one local state migrated and seeded. No site is served
// here: each worker serves its own copy of the build on its own copy of that state (fixtures.ts,
// sites.ts). E2E_NO_BUILD=1 reuses the last test build; E2E_PREPARED=1 reuses build and state.
import type { FullConfig } from "@playwright/test";
import { ensureChromium } from "../../scripts/ensure-chromium.mjs";
import { buildDirFor, buildSite, ensureDevVars } from "../../scripts/lib.mjs";
import { prepareTestState } from "../../scripts/serve-test-site.mjs";
import { removeOldSites } from "./sites.ts";

export const E2E_BUILD_DIR = buildDirFor("e2e");
const SEEDED_STATE = ".wrangler/e2e-seeded-state";

/** The build and the seeded state the workers copy; the two share nothing, so both at once. */
export async function prepareBrowserTests(build = true): Promise<void> {
  await Promise.all([build ? buildSite(E2E_BUILD_DIR, { stdio: ["ignore", "ignore", "inherit"] }) : null, prepareTestState(SEEDED_STATE)]);
}

export default async function globalSetup(_config: FullConfig) {
  // Read by playwright.config.ts in the workers (they inherit this process's environment).
  process.env.CHROMIUM_HEADLESS_SHELL_PATH = await ensureChromium("headless-shell");
  // Before the build, which copies .dev.vars into the built Workers.
  ensureDevVars();
  removeOldSites();
  // E2E_PREPARED=1: `npm test` (scripts/test.mjs) built and seeded while the Workers tests ran.
  if (process.env.E2E_PREPARED !== "1") await prepareBrowserTests(process.env.E2E_NO_BUILD !== "1");
  // Read by sites.ts in the workers (they inherit this process's environment).
  process.env.E2E_BUILD_DIR = E2E_BUILD_DIR;
  process.env.E2E_SEEDED_STATE = SEEDED_STATE;
}
