import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vitest/config";
import { VITEST_LOG_FILE } from "./tests/log-scan.ts";
import { TEST_SECRETS } from "./tests/test-secrets.ts";

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./drizzle/migrations");
  // Every console line of the run, for the log scan (scripts/log-scan.ts, after the suite).
  mkdirSync(dirname(VITEST_LOG_FILE), { recursive: true });
  // scripts/unit-tests.mjs's second run adds to the first's lines.
  if (!process.env.VITEST_LOG_APPEND) writeFileSync(VITEST_LOG_FILE, "");
  return {
    plugins: [
      cloudflareTest(({ inject }) => ({
        main: "./tests/worker.ts",
        wrangler: { configPath: "./tests/wrangler.test.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            // The Stripe stand-in started by tests/global-setup.ts, through the real SDK.
            STRIPE_API_BASE: inject("stripeBase"),
            STRIPE_PUBLISHABLE_KEY: "pk_test_modelify_vitest",
            STRIPE_PRICE_ID: "price_modelify_pro",
            STRIPE_TEAM_PRICE_ID: "price_modelify_team",
            ...TEST_SECRETS,
          },
        },
      })),
      reactRouter(),
    ],
    // Load packages' worker builds (not their Node builds) inside workerd.
    environments: { ssr: { resolve: { conditions: ["workerd", "worker", "module", "browser"] } } },
    define: { "import.meta.env.BUILD_ID": JSON.stringify(`test-${Date.now().toString(36)}`) },
    resolve: { tsconfigPaths: true },
    logLevel: "error" as const,
    test: {
      include: ["app/**/*.test.ts", "tests/integration/**/*.test.ts", "tests/log-scan.test.ts"],
      // The Workers' log lines (one JSON object each, lib/log) go to the scan's file, not the
      // terminal: every request writes one. Anything else is kept there too and still printed.
      onConsoleLog(text: string) {
        const lines = text.replace(/\n$/, "");
        appendFileSync(VITEST_LOG_FILE, `${lines}\n`);
        return lines.startsWith('{"level":') ? false : undefined;
      },
      setupFiles: ["./tests/setup.ts"],
      globalSetup: ["./tests/global-setup.ts"],
      testTimeout: 20_000,
      // Each file runs in its own workerd with its own storage, so files run side by side. The
      // tests mostly wait (for the queue, D1, the Stripe stand-in): on this 2-core machine three
      // at a time was fastest (bench/results.md, "Test suite").
      maxWorkers: 3,
      // Transformed modules are cached beside the build outputs, not inside node_modules (whose
      // size is a budget: bench/results.md).
      fsModuleCachePath: ".cache/vitest",
    },
  };
});
