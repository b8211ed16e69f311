// The browser end-to-end tests (tests/e2e): Debian's Chromium against the built site on workerd.
// tests/e2e/global-setup.ts builds once and seeds one local state; each worker then serves its own
// copy of both (its own site, port, database and Stripe stand-in: tests/e2e/fixtures.ts), and runs
// the tests it is handed one after another. The malformed-request corpus, which compares row counts
// before and after, gets a site nobody else uses.
//
// Workers, measured on this 2-core machine (whole `npx playwright test`, build included, all green,
// 2026-11-25, three runs each): 2 workers 184 / 192 / 188 s; 3 workers 200 / 183 / 185 s;
// 4 workers 197 / 187 / 194 s (and one failure before the waits in tests/e2e were made load-proof).
// One worker, before this change: 6.7-8.0 min. Two cores are the limit: Chromium, workerd and Node
// keep both busy from 2 workers on (the corpus alone: 25 s; beside 1, 2, 3 other workers 45, 95,
// 150 s), so more workers only share them. 2 is as fast as any and leaves the most headroom.
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS } from "./tests/e2e/browser.ts";

export const E2E_REPORT = ".wrangler/e2e-report.json";

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "*.test.ts",
  // The malformed-request corpus is the longest file (a site of its own and 4,400 requests, 45 s
  // beside another worker): a project of its own is dispatched first, so it runs beside the others
  // rather than at the end (Playwright hands out tests in order, and files on another fixture set last).
  projects: [
    { name: "corpus", testMatch: "malformed-corpus.test.ts" },
    { name: "browser", testIgnore: "malformed-corpus.test.ts" },
  ],
  globalSetup: "./tests/e2e/global-setup.ts",
  forbidOnly: true,
  retries: 0,
  workers: 2,
  // Tests, not files, are handed out (a file's tests are independent, each with its own accounts),
  // so no long file is left for the end; files that keep state between tests say "serial".
  fullyParallel: true,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: E2E_REPORT }]],
  outputDir: "test-results",
  use: {
    // Chromium's headless shell, as Playwright runs headless Chromium by default (ADR 0040): on
    // this machine the same tests took 27% less time than in the whole browser's headless mode.
    launchOptions: { executablePath: process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? "/usr/bin/chromium-headless-shell", args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 900 },
    // The visitor the pages were written for until issue 48, whatever this machine's settings: en-US
    // figures and dates, and a browser in UTC (the accounts' default zone, so the dashboard does not
    // ask to change it). tests/e2e/locale.test.ts sets others on contexts of its own.
    locale: "en-US",
    timezoneId: "UTC",
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    // No trace unless asked for (`npx playwright test <file> --trace on`): recording one for every
    // test, kept only on failure, cost a third more CPU (two files, 2026-11-26: 31.3 CPU-s with it,
    // 21.7 without) on a suite that is CPU-bound on two cores. A failure keeps its screenshot.
    trace: "off",
    screenshot: "only-on-failure",
  },
});
