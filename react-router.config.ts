import type { Config } from "@react-router/dev/config";

// `npm start` builds into build/; the tests, benchmarks and screenshots build into .build/<name>
// (MODELIFY_BUILD_DIR) so that running them never replaces the files a running site serves.
export const buildDirectory = process.env.MODELIFY_BUILD_DIR ?? "build";

export default {
  ssr: true,
  buildDirectory,
} satisfies Config;
