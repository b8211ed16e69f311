// The sites the browser tests run against. tests/e2e/global-setup.ts builds once and seeds one
// local state; each Playwright worker then serves a site of its own (fixtures.ts), and a file that
// must be alone on its site (the malformed corpus, the pixel's configured site) starts another.
// Every site has its own copy of the build (its .dev.vars name its own Stripe stand-in), its own
// copy of the seeded state, its own port and its own stand-in.
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { serveTestSite } from "../../scripts/serve-test-site.mjs";

export type TestSite = Awaited<ReturnType<typeof serveTestSite>>;

const BUILD_PREFIX = "e2e-site-";
const buildDirOf = (name: string) => `.build/${BUILD_PREFIX}${name}`;
const stateDirOf = (name: string) => `.wrangler/${BUILD_PREFIX}${name}`;
/** Everything each site's wrangler printed, the Workers' log lines included: `npm test` scans them after the browser tests (scripts/log-scan.ts). */
export const E2E_LOG_DIR = ".wrangler/e2e-logs";

/**
 * Serves a copy of the test build on a copy of the seeded state. `name` keeps sites apart
 * (a worker's index, or a file's own name and worker); `vars` adds configuration to this site only.
 */
export async function startTestSite(name: string, vars: Record<string, string> = {}): Promise<TestSite> {
  const build = process.env.E2E_BUILD_DIR;
  const seeded = process.env.E2E_SEEDED_STATE;
  if (!build || !seeded) throw new Error("No test build: run the browser tests with `npx playwright test` (tests/e2e/global-setup.ts builds and seeds)");
  // Same depth as the build (.build/<name>): the generated wrangler.json files name paths relative to it.
  const buildDir = buildDirOf(name);
  rmSync(buildDir, { recursive: true, force: true });
  cpSync(build, buildDir, { recursive: true });
  deliverQueueAtOnce(buildDir);
  return serveTestSite({
    buildDir,
    stateDir: stateDirOf(name),
    seededState: seeded,
    vars,
    env: QUIET_RUNTIME,
    logLevel: "log",
    logFile: `${E2E_LOG_DIR}/${name}.log`,
  });
}

/**
 * wrangler dev records a trace of every request into a local store for its dashboard (even with
 * [observability] off, STACK.md). The tests never read it, and with several sites on two cores it
 * is CPU they need: the malformed corpus alone took 30.7 s with it and 25.6 s without.
 */
const QUIET_RUNTIME = { X_LOCAL_OBSERVABILITY: "false" };

/**
 * The test copy's consumer takes each message as soon as it is sent instead of waiting up to a
 * second to fill a batch (wrangler.consumer.toml's max_batch_timeout, kept for production and
 * `npm start`): tests wait for the mail or row itself, and that wait is no longer padded by a timer.
 */
function deliverQueueAtOnce(buildDir: string) {
  const file = `${buildDir}/consumer/wrangler.json`;
  const config = JSON.parse(readFileSync(file, "utf8")) as { queues?: { consumers?: Array<{ max_batch_timeout?: number }> } };
  for (const consumer of config.queues?.consumers ?? []) consumer.max_batch_timeout = 0;
  writeFileSync(file, JSON.stringify(config));
}

/** Removes the copies and logs left by an earlier run (global setup, before any site starts). */
export function removeOldSites() {
  rmSync(E2E_LOG_DIR, { recursive: true, force: true });
  for (const parent of [".build", ".wrangler"]) {
    let names: string[] = [];
    try {
      names = readdirSync(parent);
    } catch {
      continue;
    }
    for (const name of names) if (name.startsWith(BUILD_PREFIX)) rmSync(`${parent}/${name}`, { recursive: true, force: true });
  }
}
