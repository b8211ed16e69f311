import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vitest/config";
import { TEST_SECRETS } from "./tests/test-secrets";

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./drizzle/migrations");
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
      include: ["app/**/*.test.ts", "tests/integration/**/*.test.ts"],
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
