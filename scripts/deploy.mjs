// `npm run deploy -- --env staging|production [--dry-run] [--first] [--skip-migrations]` (README,
// "Deploy"): one
// environment of both Workers, step by step, stopping at the first failure with what failed and
// what has changed so far:
//   1. checks, before anything changes: no REPLACE_WITH_… id left in either config, the two
//      configs agree (one D1, the site's queue consumed, the site's ledgers bound), and every
//      setting each Worker's env schema needs in production is a secret of that Worker
//      (`wrangler secret list`) or a var of its config (workers/deploy-settings.ts);
//   2. builds both Workers for the environment into .build/deploy-<env> (CLOUDFLARE_ENV: the Vite
//      plugin writes that environment, flattened, into each build's wrangler.json);
//   3. applies the D1 migrations remotely: the code about to go live may need them, and the code
//      still live must cope with them (docs/runbook.md);
//   4. deploys the queue consumer, so that it reads every message the new site may send;
//   5. deploys the site.
// --dry-run makes no remote call: step 1 checks the configs and lists the settings it would look
// for, step 3 is skipped, steps 4 and 5 are `wrangler deploy --dry-run` (bundles and checks the
// generated config, offline). `npm run validate` runs it for both environments (deploy-check.mjs).
// --skip-migrations: for ADR 0020's one-time move only, whose migration 0014 refuses until the
// move has run with the new code deployed (README, "Deploy").
// --first: an environment's first deploy puts the site before the consumer. The consumer binds
// the site's Durable Object class (UsageLedger), which exists once the site is deployed, and no
// message can be waiting in a queue nobody has produced to yet.
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import { buildDirFor, buildSite, builtWorkerConfigs, importAppModule, run } from "./lib.mjs";

export const ENVIRONMENTS = ["staging", "production"];
const CONFIGS = { site: "wrangler.toml", consumer: "wrangler.consumer.toml" };
const PLACEHOLDER = /^REPLACE_WITH_/;
// Never set in a deployed environment, or only while a rotation lasts: not worth a notice.
const QUIET_WHEN_UNSET = /_PREVIOUS$|^STRIPE_API_BASE$/;

/** A failure the operator can act on: printed as it is, without a stack. */
export class DeployError extends Error {}

function parseArgs(argv) {
  const options = { env: null, dryRun: false, first: false, skipMigrations: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--dry-run") options.dryRun = true;
    else if (arg === "--first") options.first = true;
    else if (arg === "--skip-migrations") options.skipMigrations = true;
    else if (arg === "--env" || arg === "-e") options.env = argv[++i] ?? null;
    else if (arg.startsWith("--env=")) options.env = arg.slice("--env=".length);
    else throw new DeployError(`Unknown argument ${arg}.\n${USAGE}`);
  }
  if (!ENVIRONMENTS.includes(options.env)) throw new DeployError(`Which environment? ${USAGE}`);
  return options;
}

const USAGE = `Usage: npm run deploy -- --env ${ENVIRONMENTS.join("|")} [--dry-run] [--first] [--skip-migrations]`;

/** How the deploy reaches the outside world: wrangler, the build, the console. Tests hand it fakes. */
export const nodeTools = {
  /** Runs a command with its output on the terminal; rejects if it fails. */
  run: (command, args) => run(command, args, { stdio: ["ignore", "inherit", "inherit"], env: wranglerEnv() }),
  /** Runs a command and answers its standard output (its errors go to the terminal). */
  output: (command, args) =>
    new Promise((resolve, reject) => {
      const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"], env: wranglerEnv() });
      let stdout = "";
      child.stdout.on("data", (chunk) => {
        stdout += chunk;
      });
      child.on("error", reject);
      child.on("exit", (code) => (code === 0 ? resolve(stdout) : reject(new Error(`${command} ${args.join(" ")} exited with ${code}`))));
    }),
  build: (buildDir, environment) => buildSite(buildDir, { env: { CLOUDFLARE_ENV: environment }, stdio: ["ignore", "ignore", "inherit"] }),
  /** Each environment as both Workers' configs resolve it (Wrangler's own reader: inheritance, defaults). */
  readConfigs: async (environment) => {
    const { unstable_readConfig } = await import("wrangler");
    return {
      site: unstable_readConfig({ config: CONFIGS.site, env: environment }),
      consumer: unstable_readConfig({ config: CONFIGS.consumer, env: environment }),
    };
  },
  settings: () => importAppModule("workers/deploy-settings.ts"),
  log: (line) => console.log(line),
};

// The built configs name their environment already; an operator's CLOUDFLARE_ENV must not apply a second one.
function wranglerEnv() {
  return { ...process.env, CLOUDFLARE_ENV: undefined, WRANGLER_SEND_METRICS: "false" };
}

/** Problems with the environment's configs that a deploy would only find out about halfway. */
export function configProblems({ site, consumer }, { dryRun }) {
  const problems = [];
  if (!dryRun) {
    for (const [worker, config] of Object.entries({ site, consumer })) {
      for (const db of config.d1_databases ?? [])
        if (PLACEHOLDER.test(db.database_id ?? ""))
          problems.push(
            `${CONFIGS[worker]}: the id of D1 database ${db.database_name} (${db.database_id}): paste it from \`wrangler d1 create ${db.database_name}\``,
          );
      for (const kv of config.kv_namespaces ?? [])
        if (PLACEHOLDER.test(kv.id ?? ""))
          problems.push(`${CONFIGS[worker]}: the id of KV namespace ${kv.binding} (${kv.id}): paste it from \`wrangler kv namespace create\``);
    }
  }
  const siteDb = site.d1_databases?.[0];
  const consumerDb = consumer.d1_databases?.[0];
  if (siteDb?.database_id !== consumerDb?.database_id || siteDb?.database_name !== consumerDb?.database_name)
    problems.push(
      `the site and the consumer must bind the same D1 database (${CONFIGS.site}: ${siteDb?.database_name}, ${CONFIGS.consumer}: ${consumerDb?.database_name})`,
    );
  const produced = site.queues?.producers?.map((p) => p.queue) ?? [];
  const consumed = consumer.queues?.consumers?.map((c) => c.queue) ?? [];
  for (const queue of produced) if (!consumed.includes(queue)) problems.push(`the site sends to queue ${queue}, which the consumer does not consume`);
  for (const binding of consumer.durable_objects?.bindings ?? [])
    if (binding.script_name && binding.script_name !== site.name)
      problems.push(`the consumer binds ${binding.class_name} of Worker ${binding.script_name}, not of this environment's site (${site.name})`);
  return problems;
}

/** The names set on a Worker: its secrets and its config's non-empty vars. */
async function setNames(tools, worker, environment, config) {
  let listed;
  try {
    listed = await tools.output("wrangler", ["secret", "list", "--config", CONFIGS[worker], "--env", environment, "--format", "json"]);
  } catch (error) {
    // Wrangler's own message (above) may say to deploy first: here the secrets come first, and
    // `wrangler secret put` creates a Worker that does not exist yet.
    throw new DeployError(
      `could not list the secrets of ${config.name} (${error instanceof Error ? error.message : error}; wrangler's message is above). If the Worker does not exist yet, set its secrets first (README, "Deploy"): that creates it.`,
    );
  }
  let secrets;
  try {
    secrets = JSON.parse(listed.slice(listed.indexOf("[")));
  } catch {
    throw new DeployError(`\`wrangler secret list\` for the ${worker} answered something other than a JSON list:\n${listed}`);
  }
  const vars = Object.entries(config.vars ?? {}).filter(([, value]) => value !== "" && value !== undefined);
  return new Set([...secrets.map((secret) => secret.name), ...vars.map(([name]) => name)]);
}

/** Step 1's settings: every missing one of both Workers, in one message. */
async function checkSettings(tools, settings, environment, configs) {
  const set = { site: await setNames(tools, "site", environment, configs.site), consumer: await setNames(tools, "consumer", environment, configs.consumer) };
  const missing = [];
  for (const worker of ["site", "consumer"]) {
    for (const { name, message } of settings.unmetSettings(worker, (n) => set[worker].has(n)))
      missing.push(`${worker}: ${message}: \`wrangler secret put ${name} --env ${environment}${worker === "consumer" ? ` -c ${CONFIGS.consumer}` : ""}\``);
  }
  // A setting both Workers read (mail, Stripe) set on one only: the other would act without it.
  const shared = settings.settingNames("site").filter((name) => settings.settingNames("consumer").includes(name) && name !== "APP_ENV");
  for (const name of shared) {
    if (set.site.has(name) !== set.consumer.has(name))
      missing.push(`${name} is set on the ${set.site.has(name) ? "site" : "consumer"} only: both Workers read it`);
  }
  const optional = ["site", "consumer"].flatMap((worker) =>
    settings
      .settingNames(worker)
      .filter((name) => !set[worker].has(name) && !QUIET_WHEN_UNSET.test(name) && name !== "APP_ENV")
      .map((name) => `${name} (${worker})`),
  );
  return { missing, optional };
}

/**
 * Runs the deploy of one environment. Throws a DeployError naming the step that failed and what
 * had changed by then.
 */
export async function deploy({ env: environment, dryRun = false, first = false, skipMigrations = false }, tools = nodeTools) {
  const changed = [];
  /** Runs one step; its failure names the step, what had changed before it and what it may have changed itself. */
  const step = async (name, action, partly = null) => {
    tools.log(`▸ ${name}`);
    try {
      return await action();
    } catch (error) {
      const reason = error instanceof DeployError ? error.message : `${error instanceof Error ? error.message : error}`;
      const state = changed.length ? `Already changed: ${changed.join("; ")}.` : "Nothing had been changed before this step.";
      throw new DeployError(
        `Deploy of ${environment} stopped at "${name}":${reason.startsWith("\n") ? "" : " "}${reason}\n${state}${partly ? `\n${partly}` : ""}`,
      );
    }
  };

  const configs = await step("read both configurations", () => tools.readConfigs(environment));
  const names = { site: configs.site.name, consumer: configs.consumer.name };
  await step("check the configuration and the secrets", async () => {
    const problems = configProblems(configs, { dryRun });
    const settings = await tools.settings();
    if (dryRun) {
      for (const worker of ["site", "consumer"]) {
        const needed = settings.unmetSettings(worker, () => false).map((unmet) => unmet.name);
        tools.log(`  dry run, secrets not listed; ${names[worker]} needs: ${needed.join(", ")}`);
      }
    } else {
      const { missing, optional } = await checkSettings(tools, settings, environment, configs);
      problems.push(...missing);
      if (optional.length && !problems.length) tools.log(`  not set (optional): ${optional.join(", ")}`);
    }
    if (problems.length) throw new DeployError(`\n  - ${problems.join("\n  - ")}`);
  });

  const buildDir = buildDirFor(`deploy-${environment}`);
  const [siteConfig, consumerConfig] = builtWorkerConfigs(buildDir);
  await step(`build both Workers for ${environment}`, () => tools.build(buildDir, environment));

  const database = configs.site.d1_databases[0].database_name;
  if (dryRun || skipMigrations) tools.log(`▸ apply D1 migrations to ${database}: skipped (${dryRun ? "dry run" : "--skip-migrations"})`);
  else {
    await step(
      `apply D1 migrations to ${database}`,
      () => tools.run("wrangler", ["d1", "migrations", "apply", database, "--remote", "--config", CONFIGS.site, "--env", environment]),
      // Each migration runs in its own transaction: the failing one is rolled back, earlier ones stay.
      `Migrations before the failing one stay applied: \`wrangler d1 migrations list ${database} --remote --env ${environment}\` shows which.`,
    );
    changed.push(`D1 migrations applied to ${database}`);
  }

  const deployOne = async (worker, config) => {
    const dry = dryRun ? ["--dry-run", "--outdir", `${buildDir}/dry-run/${worker}`] : [];
    await step(`deploy ${dryRun ? "(dry run) " : ""}${names[worker]}`, () => tools.run("wrangler", ["deploy", "--config", config, ...dry]));
    if (!dryRun) changed.push(`${names[worker]} deployed (undo: \`wrangler rollback --name ${names[worker]}\`)`);
  };
  const order = first
    ? [
        ["site", siteConfig],
        ["consumer", consumerConfig],
      ]
    : [
        ["consumer", consumerConfig],
        ["site", siteConfig],
      ];
  for (const [worker, config] of order) await deployOne(worker, config);

  tools.log(
    dryRun ? `Dry run of ${environment} passed: both Workers build and their configs are valid.` : `Deployed ${environment}: ${names.consumer}, ${names.site}.`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    await deploy(parseArgs(process.argv.slice(2)));
  } catch (error) {
    console.error(error instanceof DeployError ? error.message : error);
    process.exit(1);
  }
}
