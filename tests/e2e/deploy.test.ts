// `npm run deploy` (scripts/deploy.mjs, issue 30): the real run checks every secret before it
// changes anything and stops at the first failure. Nothing here reaches Cloudflare: the command
// line runs against a fake `wrangler` (and `react-router`) on PATH that records its calls, and the
// step order is checked with the deploy's tools replaced by recorders. The dry run itself, with
// the real wrangler, is `npm run deploy:check` in `npm run validate`.
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { expect, test } from "@playwright/test";
import { configProblems, DeployError, deploy, ENVIRONMENTS, nodeTools } from "../../scripts/deploy.mjs";

const SITE_KEYS = ["JWT_SECRET", "DOWNLOAD_LINK_SECRET", "PHONE_CODE_SECRET", "TWO_FACTOR_KEY"];
const SITE_SECRETS = [...SITE_KEYS, "APP_URL", "MAIL_API_URL", "MAIL_API_KEY", "LOG_SALT", "DEAD_LETTER_KEY", "WEBHOOK_KEY"];
const CONSUMER_SECRETS = [
  "MAIL_API_URL",
  "MAIL_API_KEY",
  "SMS_API_URL",
  "SMS_ACCOUNT_SID",
  "SMS_AUTH_TOKEN",
  "SMS_FROM",
  "LOG_SALT",
  "DEAD_LETTER_KEY",
  "WEBHOOK_KEY",
];

// Records each call as a JSON line; answers `secret list` with the names in FAKE_SECRETS_<WORKER>.
const FAKE = `#!/usr/bin/env node
const { appendFileSync } = require("node:fs");
const args = process.argv.slice(2);
appendFileSync(process.env.FAKE_LOG, JSON.stringify([require("node:path").basename(process.argv[1]), ...args]) + "\\n");
if (args[0] === "secret" && args[1] === "list") {
  const worker = args.includes("wrangler.consumer.toml") ? "CONSUMER" : "SITE";
  const names = (process.env["FAKE_SECRETS_" + worker] || "").split(",").filter(Boolean);
  console.log(JSON.stringify(names.map((name) => ({ name, type: "secret_text" })), null, "  "));
}
`;

function fakeBin() {
  const dir = mkdtempSync(join(tmpdir(), "modelify-deploy-"));
  for (const name of ["wrangler", "react-router"]) {
    writeFileSync(join(dir, name), FAKE.replace("#!/usr/bin/env node", `#!${process.execPath}`));
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

function runDeploy(args: string[], secrets: { site: string[]; consumer: string[] }) {
  const bin = fakeBin();
  const log = join(bin, "calls.log");
  writeFileSync(log, "");
  const child = spawn(process.execPath, ["scripts/deploy.mjs", ...args], {
    env: {
      ...process.env,
      PATH: `${bin}${delimiter}${process.env.PATH}`,
      FAKE_LOG: log,
      FAKE_SECRETS_SITE: secrets.site.join(","),
      FAKE_SECRETS_CONSUMER: secrets.consumer.join(","),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  return new Promise<{ code: number | null; output: string; calls: string[][] }>((resolve) =>
    child.on("exit", (code) => {
      const calls = readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as string[]);
      rmSync(bin, { recursive: true, force: true });
      resolve({ code, output, calls });
    }),
  );
}

test.describe("npm run deploy", () => {
  test("a missing secret stops the real run before any change, naming the secret", async () => {
    const without = (names: string[], missing: string) => names.filter((name) => name !== missing);
    const { code, output, calls } = await runDeploy(["--env", "staging"], {
      site: without(SITE_SECRETS, "TWO_FACTOR_KEY"),
      consumer: without(CONSUMER_SECRETS, "SMS_AUTH_TOKEN"),
    });
    expect(code).toBe(1);
    expect(output).toContain('Deploy of staging stopped at "check the configuration and the secrets"');
    expect(output).toContain("site: TWO_FACTOR_KEY is required: `wrangler secret put TWO_FACTOR_KEY --env staging`");
    expect(output).toContain(
      "consumer: SMS_AUTH_TOKEN is required in production: `wrangler secret put SMS_AUTH_TOKEN --env staging -c wrangler.consumer.toml`",
    );
    expect(output).toContain("Nothing had been changed before this step.");
    // Only the two secret lists ran: no build, no migration, no deploy.
    expect(calls).toEqual([
      ["wrangler", "secret", "list", "--config", "wrangler.toml", "--env", "staging", "--format", "json"],
      ["wrangler", "secret", "list", "--config", "wrangler.consumer.toml", "--env", "staging", "--format", "json"],
    ]);
  });

  test("refuses an unknown environment without calling anything", async () => {
    const { code, output, calls } = await runDeploy(["--env", "prod"], { site: SITE_SECRETS, consumer: CONSUMER_SECRETS });
    expect(code).toBe(1);
    expect(output).toContain("Usage: npm run deploy -- --env staging|production [--dry-run] [--first] [--skip-migrations]");
    expect(calls).toEqual([]);
  });
});

/** The deploy's tools, recording each call; `fail` makes the first call matching it fail. */
async function recordingTools(fail?: (call: string[]) => boolean) {
  const real = await nodeTools.readConfigs("staging");
  // The repository's configs keep REPLACE_WITH_… ids until an operator pastes real ones.
  const pasted = JSON.parse(JSON.stringify(real).replace(/REPLACE_WITH_[A-Z_]+/g, "0123456789abcdef0123456789abcdef"));
  const calls: string[][] = [];
  const lines: string[] = [];
  const call = async (command: string[]) => {
    calls.push(command);
    if (fail?.(command)) throw new Error(`${command.join(" ")} exited with 1`);
  };
  return {
    calls,
    lines,
    tools: {
      ...nodeTools,
      readConfigs: async () => pasted,
      run: (command: string, args: string[]) => call([command, ...args]),
      output: async (command: string, args: string[]) => {
        await call([command, ...args]);
        const names = args.includes("wrangler.consumer.toml") ? CONSUMER_SECRETS : SITE_SECRETS;
        return JSON.stringify(names.map((name) => ({ name, type: "secret_text" })));
      },
      build: (dir: string, env: string) => call(["build", dir, env]),
      log: (line: string) => void lines.push(line),
    },
  };
}

const kinds = (calls: string[][]) =>
  calls.map((c) => (c[0] === "build" ? "build" : c[1] === "secret" ? `secrets ${c[4]}` : c[1] === "d1" ? "migrations" : `deploy ${c[3]?.split("/").at(-2)}`));

test.describe("the deploy's steps", () => {
  test("checks, builds, migrates, then deploys the consumer before the site", async () => {
    const { tools, calls } = await recordingTools();
    await deploy({ env: "staging" }, tools);
    expect(kinds(calls)).toEqual(["secrets wrangler.toml", "secrets wrangler.consumer.toml", "build", "migrations", "deploy consumer", "deploy server"]);
    expect(calls[2]).toEqual(["build", ".build/deploy-staging", "staging"]);
    expect(calls[3]).toEqual(["wrangler", "d1", "migrations", "apply", "modelify-staging", "--remote", "--config", "wrangler.toml", "--env", "staging"]);
    expect(calls[4]).toEqual(["wrangler", "deploy", "--config", ".build/deploy-staging/consumer/wrangler.json"]);
  });

  test("stops when the secrets cannot be listed, saying how a new Worker gets its first ones", async () => {
    const { tools, calls } = await recordingTools((c) => c[1] === "secret");
    await expect(deploy({ env: "staging" }, tools)).rejects.toThrow(/could not list the secrets of modelify-staging[\s\S]*set its secrets first/);
    expect(calls).toHaveLength(1);
  });

  test("stops at a failed migration before deploying anything", async () => {
    const { tools, calls } = await recordingTools((c) => c[1] === "d1");
    const failure = deploy({ env: "staging" }, tools);
    await expect(failure).rejects.toThrow(DeployError);
    await expect(failure).rejects.toThrow(/stopped at "apply D1 migrations to modelify-staging"[\s\S]*Migrations before the failing one stay applied/);
    expect(kinds(calls)).not.toContain("deploy consumer");
  });

  test("keeps the site as it was when the consumer's deploy fails, and says what changed", async () => {
    const { tools, calls } = await recordingTools((c) => c[1] === "deploy");
    await expect(deploy({ env: "staging" }, tools)).rejects.toThrow(
      /stopped at "deploy modelify-consumer-staging"[\s\S]*Already changed: D1 migrations applied to modelify-staging\./,
    );
    expect(kinds(calls).at(-1)).toBe("deploy consumer");
  });

  test("puts the site first on an environment's first deploy (--first)", async () => {
    const { tools, calls } = await recordingTools();
    await deploy({ env: "staging", first: true }, tools);
    expect(kinds(calls).slice(-2)).toEqual(["deploy server", "deploy consumer"]);
  });

  test("a dry run makes no remote call: no secret list, no migration, deploys with --dry-run", async () => {
    const { tools, calls, lines } = await recordingTools();
    await deploy({ env: "staging", dryRun: true }, tools);
    expect(kinds(calls)).toEqual(["build", "deploy consumer", "deploy server"]);
    for (const c of calls.slice(1)) expect(c).toContain("--dry-run");
    expect(lines.join("\n")).toContain(`modelify-staging needs: ${SITE_SECRETS.join(", ")}`);
  });

  test("refuses REPLACE_WITH_… ids (the repository's until an operator pastes real ones) in a real run, not in a dry run", async () => {
    const configs = await nodeTools.readConfigs("production");
    // As the repository ships them, whatever ids were pasted since.
    configs.site.d1_databases[0].database_id = "REPLACE_WITH_PRODUCTION_D1_ID";
    configs.site.kv_namespaces[0].id = "REPLACE_WITH_PRODUCTION_KV_ID";
    configs.consumer.d1_databases[0].database_id = "REPLACE_WITH_PRODUCTION_D1_ID";
    const problems = configProblems(configs, { dryRun: false });
    expect(problems).toEqual([
      "wrangler.toml: the id of D1 database modelify-production (REPLACE_WITH_PRODUCTION_D1_ID): paste it from `wrangler d1 create modelify-production`",
      "wrangler.toml: the id of KV namespace KV (REPLACE_WITH_PRODUCTION_KV_ID): paste it from `wrangler kv namespace create`",
      "wrangler.consumer.toml: the id of D1 database modelify-production (REPLACE_WITH_PRODUCTION_D1_ID): paste it from `wrangler d1 create modelify-production`",
    ]);
    expect(configProblems(configs, { dryRun: true })).toEqual([]);
  });

  test("refuses configs that disagree: another D1, an unconsumed queue, another site's ledgers", async () => {
    const configs = await nodeTools.readConfigs("staging");
    const broken = JSON.parse(JSON.stringify(configs));
    broken.consumer.d1_databases[0].database_id = "another";
    broken.consumer.queues.consumers[0].queue = "modelify-events";
    broken.consumer.durable_objects.bindings[0].script_name = "modelify-production";
    expect(configProblems(broken, { dryRun: true })).toEqual([
      "the site and the consumer must bind the same D1 database (wrangler.toml: modelify-staging, wrangler.consumer.toml: modelify-staging)",
      "the site sends to queue modelify-events-staging, which the consumer does not consume",
      "the consumer binds UsageLedger of Worker modelify-production, not of this environment's site (modelify-staging)",
    ]);
  });
});

test.describe("the environments' configs", () => {
  test("every environment of both Workers redacts query strings, and counts its rate limits in a namespace of its own", async () => {
    // Namespaces belong to the Cloudflare account: one shared by two environments shares their counters.
    const owners = new Map<string, string>();
    for (const environment of [undefined, ...ENVIRONMENTS]) {
      const name = environment ?? "the local default";
      for (const [worker, config] of Object.entries(await nodeTools.readConfigs(environment))) {
        expect(config.observability?.redact_query_string, `${worker} in ${name}`).toBe(true);
        for (const { namespace_id } of config.ratelimits ?? []) {
          expect(owners.get(namespace_id) ?? name, `the one environment of rate-limit namespace ${namespace_id} (${worker} in ${name})`).toBe(name);
          owners.set(namespace_id, name);
        }
      }
    }
    expect(new Set(owners.values())).toEqual(new Set(["the local default", ...ENVIRONMENTS]));
  });
});
