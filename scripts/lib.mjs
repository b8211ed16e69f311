// Helpers shared by the local set-up, test and bench scripts.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { setPriority } from "node:os";
import { resolve } from "node:path";

/** Runs a command to its end. `priority`: a niceness for it (and what it spawns), e.g. 10 to yield to other work. */
export function run(command, args, { priority, ...options } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit", ...options });
    if (priority !== undefined && child.pid !== undefined) setPriority(child.pid, priority);
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(" ")} exited with ${code ?? signal}`));
    });
  });
}

export function sqlString(value) {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "1" : "0";
  return `'${String(value).replace(/'/g, "''")}'`;
}

/** The site's keys (app/lib/config.ts keyShape): each a random value in a local .dev.vars. */
const LOCAL_KEYS = ["JWT_SECRET", "DOWNLOAD_LINK_SECRET", "PHONE_CODE_SECRET", "TWO_FACTOR_KEY"];

// Local runs are "development" (outbox mail, /dev pages) and sign and encrypt with random keys.
export function ensureDevVars(file = ".dev.vars") {
  let current = existsSync(file) ? readFileSync(file, "utf8") : "";
  const add = (line) => {
    current = `${current}${current && !current.endsWith("\n") ? "\n" : ""}${line}\n`;
  };
  if (!/^APP_ENV=/m.test(current)) add("APP_ENV=development");
  // Authenticator secrets were encrypted under JWT_SECRET before TWO_FACTOR_KEY existed (ADR
  // 0026): a .dev.vars from then keeps that value as the previous key, so they stay readable.
  const jwtSecret = /^JWT_SECRET=(.+)$/m.exec(current)?.[1];
  if (jwtSecret && !/^TWO_FACTOR_KEY=/m.test(current) && !/^TWO_FACTOR_KEY_PREVIOUS=/m.test(current)) add(`TWO_FACTOR_KEY_PREVIOUS=${jwtSecret}`);
  for (const name of LOCAL_KEYS) {
    if (!new RegExp(`^${name}=`, "m").test(current)) add(`${name}=${randomBytes(32).toString("base64url")}`);
  }
  // The logs' account-hash salt and the dead letters' key (ADR 0024), random per machine too.
  if (!/^LOG_SALT=/m.test(current)) add(`LOG_SALT=${randomBytes(24).toString("base64url")}`);
  if (!/^DEAD_LETTER_KEY=/m.test(current)) add(`DEAD_LETTER_KEY=${randomBytes(32).toString("base64url")}`);
  // The alert webhooks' signing secrets at rest (ADR 0033).
  if (!/^WEBHOOK_KEY=/m.test(current)) add(`WEBHOOK_KEY=${randomBytes(32).toString("base64url")}`);
  // Stripe: the local stand-in unless real keys were put here (then remove STRIPE_API_BASE).
  if (!/^STRIPE_SECRET_KEY=/m.test(current)) {
    for (const [key, value] of Object.entries(LOCAL_STRIPE)) add(`${key}=${value}`);
  }
  // The Team plan's price (issue 50) came after many .dev.vars were made: the stand-in's, when on the stand-in.
  if (/^STRIPE_API_BASE=/m.test(current) && !/^STRIPE_TEAM_PRICE_ID=/m.test(current)) add(`STRIPE_TEAM_PRICE_ID=${LOCAL_STRIPE.STRIPE_TEAM_PRICE_ID}`);
  writeFileSync(file, current);
}

// The local Stripe stand-in's port, written into .dev.vars when it is made (README, "Other ports").
export const STANDIN_PORT = Number(process.env.STRIPE_STANDIN_PORT ?? 12111);
export const LOCAL_STRIPE = {
  STRIPE_SECRET_KEY: "sk_test_local_modelify",
  STRIPE_PUBLISHABLE_KEY: "pk_test_local_modelify",
  STRIPE_WEBHOOK_SECRET: "whsec_local_modelify_standin",
  STRIPE_PRICE_ID: "price_modelify_pro",
  STRIPE_TEAM_PRICE_ID: "price_modelify_team",
  STRIPE_API_BASE: `http://localhost:${STANDIN_PORT}`,
};

export function readDevVars(file = ".dev.vars") {
  const vars = {};
  if (!existsSync(file)) return vars;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (match) vars[match[1]] = match[2];
  }
  return vars;
}

/** Rewrites keys in a .dev.vars-style file, keeping the rest. */
export function setDevVars(file, changes) {
  const vars = { ...readDevVars(file), ...changes };
  writeFileSync(
    file,
    `${Object.entries(vars)
      .map(([k, v]) => `${k}=${v}`)
      .join("\n")}\n`,
  );
}

/**
 * Node's on-disk cache of compiled modules (NODE_COMPILE_CACHE), shared by the processes
 * `npm start` runs: the set-up loads wrangler and Miniflare first, and `wrangler dev` then reads
 * their compiled code instead of compiling its 15 MB bundle again; a second start reads the
 * build's too. Inside node_modules, so a fresh install starts without one. Node checks each entry
 * against its source, so an updated package is compiled afresh.
 */
export const COMPILE_CACHE = resolve("node_modules/.cache/node-compile");

/** `npm start` and `wrangler deploy` use this build; react-router.config.ts reads the same variable. */
const SITE_BUILD_DIR = "build";
/** Where the tests, benchmarks and screenshots build, apart from the build a running site serves. */
export const buildDirFor = (name) => `.build/${name}`;

/** The two Workers' generated configs in a build directory (react-router.config.ts, vite.config.ts). */
export const builtWorkerConfigs = (buildDir) => [`${buildDir}/server/wrangler.json`, `${buildDir}/consumer/wrangler.json`];

const DEPLOY_REDIRECT = ".wrangler/deploy/config.json";

/**
 * Builds the site and the consumer into `buildDir`. The Cloudflare Vite plugin points
 * `wrangler deploy` (.wrangler/deploy/config.json) at the newest build; a build made for tests
 * puts the previous pointer back, so deploying never picks up a test build. `options.env` adds to
 * the build's environment (CLOUDFLARE_ENV picks a Wrangler environment: scripts/deploy.mjs).
 */
export async function buildSite(buildDir = SITE_BUILD_DIR, options = {}) {
  const redirect = existsSync(DEPLOY_REDIRECT) ? readFileSync(DEPLOY_REDIRECT, "utf8") : null;
  try {
    const env = { ...process.env, ...options.env };
    await run("react-router", ["build"], {
      ...options,
      env: {
        NODE_COMPILE_CACHE: COMPILE_CACHE,
        ...env,
        // Without it Node parses each CommonJS file that is import()ed from a package with no
        // "type" twice, once to look for ESM syntax, and the Cloudflare plugin imports wrangler's
        // 15 MB bundle: four alternating builds took 7.5 s with this, 8.0 s without. Every package
        // the build loads declares its ESM files (.mjs or "type": "module"); one that did not
        // would fail the build loudly.
        NODE_OPTIONS: [env.NODE_OPTIONS, "--no-experimental-detect-module"].filter(Boolean).join(" "),
        MODELIFY_BUILD_DIR: buildDir,
      },
    });
  } finally {
    if (buildDir !== SITE_BUILD_DIR) {
      if (redirect === null) rmSync(DEPLOY_REDIRECT, { force: true });
      else writeFileSync(DEPLOY_REDIRECT, redirect);
    }
  }
}

/**
 * Serves the built site and queue consumer on workerd through `wrangler dev`, both Workers in
 * one process sharing the local D1/KV/R2/Queue state (`configs`: other built Workers instead, e.g.
 * the bench's peer, bench/pages.mjs). Not `vite preview`: its Node proxy
 * (undici into workerd) answers `500 fetch failed` when the Worker responds without reading a
 * request body (docs/decisions/0007-serving-the-build-locally.md).
 */
export function serveBuiltWorkers({
  port,
  buildDir = SITE_BUILD_DIR,
  configs = builtWorkerConfigs(buildDir),
  stateDir = ".wrangler/state",
  env = process.env,
  logLevel = "warn",
  ...options
}) {
  const args = [
    "dev",
    ...configs.flatMap((config) => ["--config", config]),
    "--port",
    String(port),
    "--ip",
    "localhost",
    "--persist-to",
    stateDir,
    "--show-interactive-dev-session=false",
    "--test-scheduled",
    "--log-level",
    logLevel,
  ];
  // No internet here: skip the request.cf download (a placeholder is used either way).
  return spawn("wrangler", args, {
    env: { NODE_COMPILE_CACHE: COMPILE_CACHE, ...env, CI: "true", WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    ...options,
  });
}

/**
 * A Worker module of the app (TypeScript, the app's "~/" paths) as one ES module for a Miniflare
 * of the local set-up, bundled in memory with the esbuild wrangler installs (about 0.1 s).
 */
export async function bundleWorkerModule(entry) {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    tsconfig: "tsconfig.cloudflare.json",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    external: ["cloudflare:*", "node:*"],
    logLevel: "error",
  });
  return result.outputFiles[0].text;
}

/**
 * A module of the app (TypeScript, "~/" paths, packages) loaded into this Node process, bundled as
 * bundleWorkerModule does: scripts use the app's own code instead of copies of it.
 */
export async function importAppModule(entry) {
  const code = await bundleWorkerModule(entry);
  return import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
}
