import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vitest/config";

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./drizzle/migrations");
  return {
    plugins: [
      cloudflareTest({
        main: "./tests/worker.ts",
        wrangler: { configPath: "./tests/wrangler.test.toml" },
        miniflare: { bindings: { TEST_MIGRATIONS: migrations } },
      }),
      reactRouter(),
    ],
    // Load packages' worker builds (not their Node builds) inside workerd.
    environments: { ssr: { resolve: { conditions: ["workerd", "worker", "module", "browser"] } } },
    resolve: { tsconfigPaths: true },
    logLevel: "error" as const,
    test: {
      include: ["app/**/*.test.ts", "tests/integration/**/*.test.ts"],
      setupFiles: ["./tests/setup.ts"],
      testTimeout: 20_000,
    },
  };
});
