// The browser end-to-end tests (tests/e2e): Debian's Chromium against the built site on workerd,
// served by tests/e2e/global-setup.ts. One worker: the files share one local site and database,
// and the malformed-request corpus compares row counts before and after.
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS } from "./tests/e2e/browser.ts";

export const E2E_REPORT = ".wrangler/e2e-report.json";

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "*.test.ts",
  globalSetup: "./tests/e2e/global-setup.ts",
  forbidOnly: true,
  retries: 0,
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: E2E_REPORT }]],
  outputDir: "test-results",
  use: {
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 900 },
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
});
