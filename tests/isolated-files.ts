// Vitest files that must not share a runtime and storage with other files (scripts/unit-tests.mjs
// runs them apart, isolated; every other file runs with isolation off). A file belongs here when
// it changes the schema, empties a table or counts rows across accounts; a shuffled run without
// isolation (npx vitest run --no-isolate --sequence.shuffle) shows one that is missing.
export const ISOLATED_TEST_FILES = [
  // Creates and drops the old usage tables (migration 0014's refusal).
  "tests/integration/usage-move.test.ts",
  // Walks every table of the schema (which usage-move's tables would join).
  "tests/integration/account-data.test.ts",
  // Counts on "nothing published" for some download options.
  "tests/integration/download-pages.test.ts",
  // This week's funnel counts and the support messages' priorities read other accounts' rows.
  "tests/integration/marketing.test.ts",
  "tests/integration/support.test.ts",
  // 1,000 reports at once: near the usage route's per-minute limit, which other files' reports share.
  "tests/integration/usage.test.ts",
];

/**
 * Files that compare response times (a known address against an unknown one): they run in the
 * second, isolated run, after `npm test`'s browser-test build (started beside the first run) ends.
 */
export const QUIET_TEST_FILES = ["tests/integration/attacks.test.ts"];
