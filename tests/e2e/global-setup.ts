// Before the browser tests: Chromium present, the site built into its own directory (a running
// `npm start` keeps serving build/), then served on a free port with a throwaway local state and
// its own Stripe stand-in. E2E_NO_BUILD=1 reuses the last test build.
import type { FullConfig } from "@playwright/test";
import { ensureChromium } from "../../scripts/ensure-chromium.mjs";
import { buildDirFor, buildSite, ensureDevVars } from "../../scripts/lib.mjs";
import { serveTestSite } from "../../scripts/serve-test-site.mjs";

export const E2E_BUILD_DIR = buildDirFor("e2e");

export default async function globalSetup(_config: FullConfig) {
  process.env.CHROMIUM_PATH = await ensureChromium();
  // Before the build, which copies .dev.vars into the built Workers.
  ensureDevVars();
  if (process.env.E2E_NO_BUILD !== "1") await buildSite(E2E_BUILD_DIR, { stdio: ["ignore", "ignore", "inherit"] });
  const site = await serveTestSite({ buildDir: E2E_BUILD_DIR });
  // Read by the tests (workers inherit this process's environment) and by playwright.config.ts.
  process.env.BASE_URL = site.baseUrl;
  process.env.STRIPE_URL = site.stripeUrl;
  process.env.STATE_DIR = site.stateDir;
  process.env.E2E_BUILD_DIR = E2E_BUILD_DIR;
  return async () => {
    await site.stop();
  };
}
