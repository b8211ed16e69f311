// Starts the built site on a free port with a throwaway local state (migrated and seeded),
// for the browser tests and the benchmarks. Returns { baseUrl, stripeUrl, stateDir, pid, log, stop }.
import { closeSync, cpSync, mkdirSync, openSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { createServer } from "node:net";
import { ensureDevVars, LOCAL_STRIPE, readDevVars, serveBuiltWorkers, setDevVars } from "./lib.mjs";
import { startStripeStandin } from "../tools/stripe-standin/server.mjs";

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** Resolves once `url` answers; rejects when the server exits first or after `timeoutMs`. */
export async function waitFor(url, exited, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  exited.then(() => (gone = true));
  while (Date.now() < deadline) {
    if (gone) throw new Error(`The site at ${url} exited before it answered`);
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The site did not start at ${url} within ${timeoutMs} ms`);
}

/** A fresh local state in `stateDir`: migrated, seeded, with the demo builds (no server left running). */
export async function prepareTestState(stateDir) {
  rmSync(stateDir, { recursive: true, force: true });
  // Imported here: a site served from a copied seeded state (each browser test worker's) needs
  // none of the set-up's modules (the seed, the demo builds, the app's constants).
  const { migrateAndSeed } = await import("./local-state.mjs");
  await migrateAndSeed(stateDir);
}

/** `stateDir` ready to serve: a copy of `seededState`, kept as it is, or made afresh; then `beforeStart`'s additions. */
async function readyState(stateDir, { seededState, keepState, beforeStart }) {
  if (seededState) {
    // Nothing has the seeded state's SQLite files open: a plain copy is a consistent snapshot.
    rmSync(stateDir, { recursive: true, force: true });
    cpSync(seededState, stateDir, { recursive: true });
  } else if (!keepState) {
    await prepareTestState(stateDir);
  }
  // Extra fixtures (the benchmarks' large accounts) go in before workerd opens the database.
  if (beforeStart) await beforeStart(stateDir);
}

/**
 * Serves the build in `buildDir` (see buildSite in lib.mjs).
 * @param {{ buildDir: string, stateDir?: string, seededState?: string, keepState?: boolean, beforeStart?: (stateDir: string) => Promise<void>, vars?: Record<string, string>, env?: Record<string, string>, logLevel?: string, logFile?: string }} options
 *   `seededState`: a state made by prepareTestState, copied into `stateDir` instead of migrating
 *   and seeding again (the browser tests start one site per worker from one seeded state).
 *   `keepState`: serve `stateDir` as an earlier server of the build left it, once that one has
 *   ended (the ledger bench serves its filled state again at another log level).
 *   `vars`: extra configuration for this server (e.g. an advertising pixel id).
 *   `env`: extra environment for wrangler itself.
 *   `logLevel`: wrangler's (default "warn"); at "log" it prints every line the Workers log.
 *   `logFile`: where everything wrangler prints is also appended (the browser tests' log scan reads it).
 */
export async function serveTestSite({
  buildDir,
  stateDir = ".wrangler/e2e-state",
  seededState,
  keepState = false,
  beforeStart,
  vars = {},
  env = {},
  logLevel,
  logFile,
}) {
  if (logFile) mkdirSync(dirname(logFile), { recursive: true });
  ensureDevVars();
  await readyState(stateDir, { seededState, keepState, beforeStart });
  // A port found free can be taken again before workerd binds it (by the other test site, or by
  // an outgoing connection's ephemeral port; wrangler also picks the consumer's socket this way):
  // a start that fails on "Address already in use" is retried on fresh ports.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    // A Stripe stand-in of its own, wired into the built Workers' secrets (wrangler dev reads them).
    // All local vars are written, not only Stripe's: a build made before .dev.vars existed (a fresh
    // clone running `npm test` first) carries none of them.
    const standin = await startStripeStandin({
      port: 0,
      webhookUrl: `http://localhost:${port}/api/stripe/webhook`,
      webhookSecret: LOCAL_STRIPE.STRIPE_WEBHOOK_SECRET,
    });
    for (const file of [`${buildDir}/server/.dev.vars`, `${buildDir}/consumer/.dev.vars`]) {
      setDevVars(file, { ...readDevVars(".dev.vars"), ...LOCAL_STRIPE, STRIPE_API_BASE: standin.url, ...vars });
    }
    const child = serveBuiltWorkers({ port, buildDir, stateDir, logLevel, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let log = "";
    // Opened once per server and written as the output comes (nothing is lost when the test
    // process ends), closed once both of wrangler's pipes have.
    const file = logFile ? openSync(logFile, "a") : null;
    if (file !== null) child.once("close", () => closeSync(file));
    const keep = (d) => {
      log += d;
      if (file !== null) writeSync(file, d);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const exited = new Promise((resolve) => child.once("exit", resolve));
    const stop = async () => {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
      await standin.close();
    };
    const baseUrl = `http://localhost:${port}`;
    try {
      await waitFor(baseUrl, exited);
    } catch (error) {
      await stop();
      if (attempt < 4 && /Address already in use/.test(log)) continue;
      console.error(log);
      throw error;
    }
    return {
      baseUrl,
      stripeUrl: standin.url,
      // The local D1/KV/R2 state (the D1 database is a *.sqlite file under <stateDir>/v3/d1).
      stateDir,
      buildDir,
      // wrangler's process: its descendants are the server's (the bench reads their CPU in /proc).
      pid: child.pid,
      log: () => log,
      stop,
    };
  }
}
