// `npm run release:publish -- --platform windows --arch x64 --version 1.4.0 [--demo] [--remote] [--persist-to DIR] FILE`
// Publishes an installer build: puts FILE into R2 (bucket modelify-files) under the release key
// and inserts its releases row, with the size and SHA-256 of the file uploaded. Local state by
// default (.wrangler/state, or --persist-to DIR); --remote acts on the Cloudflare account.
// A version already published for that option is refused. Larger builds than wrangler's object
// put takes go through the admin area's upload (Dashboard → Admin → Publish a build).
//
// `node scripts/release-publish.mjs --demo-builds [--persist-to DIR]` publishes small demo files
// (1.0.0-demo, marked demo) for the six options that have none yet: `npm start` and the test
// site publish the same through scripts/local-state.mjs, so every download flow works offline.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { parseArgs } from "node:util";
// The app's own rules, loaded as they are: these two modules import nothing.
import { DOWNLOAD } from "../app/lib/constants/index.ts";
import { DOWNLOAD_OPTIONS, findOption, installerFileName, releaseKey, VERSION_MAX_LENGTH, VERSION_PATTERN } from "../app/lib/downloads/options.ts";
import { importAppModule, sqlString } from "./lib.mjs";

export const BUCKET = "modelify-files";

export const DEMO_VERSION = "1.0.0-demo";
const DEMO_BYTES = 48 * 1024;

class UsageError extends Error {}

/** Runs wrangler with output captured; rejects with its output when it fails. */
function wrangler(args) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn("wrangler", args, {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolvePromise(out) : reject(new Error(`wrangler ${args.slice(0, 4).join(" ")} failed:\n${err || out}`))));
  });
}

/**
 * Where to publish: an object with `query(sql)` (resolves to the result rows) and
 * `put(key, file, contentType)` (puts the file into the bucket). `wranglerTarget` acts through
 * wrangler commands, on the local state or on the Cloudflare account; `bindingTarget` through D1
 * and R2 bindings already open in this process (scripts/local-state.mjs, used by `npm start`).
 */
export function wranglerTarget({ remote = false, persistTo } = {}) {
  const flags = remote ? ["--remote"] : ["--local", ...(persistTo ? ["--persist-to", persistTo] : [])];
  return {
    async query(sql) {
      const out = await wrangler(["d1", "execute", "DB", ...flags, "--json", "--command", sql]);
      const parsed = JSON.parse(out.slice(out.indexOf("[")));
      return parsed.flatMap((r) => r.results ?? []);
    },
    async put(key, file, contentType) {
      await wrangler(["r2", "object", "put", `${BUCKET}/${key}`, "--file", file, "--content-type", contentType, ...flags]);
    },
  };
}

/** The same through a D1Database and an R2Bucket (e.g. from Miniflare): what `wrangler r2 object put` stores. */
export function bindingTarget({ db, bucket }) {
  return {
    async query(sql) {
      return (await db.prepare(sql).all()).results;
    },
    async put(key, file, contentType) {
      await bucket.put(key, readFileSync(file), { httpMetadata: { contentType } });
    },
  };
}

export async function publishedVersions(target, versionFilter) {
  const where = versionFilter ? ` WHERE version = ${sqlString(versionFilter)}` : "";
  return target.query(`SELECT option_id, version FROM releases${where}`);
}

export async function fileDigest(file) {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk);
  return hash.digest("hex");
}

/** Puts the file into R2 and returns its releases row (not inserted yet). */
async function putFile(target, { option, version, file, demo = false }) {
  const byteSize = statSync(file).size;
  const sha256 = await fileDigest(file);
  const key = releaseKey(option, version);
  await target.put(key, file, "application/octet-stream");
  return {
    id: crypto.randomUUID(),
    optionId: option.id,
    platform: option.platform,
    architecture: option.arch,
    version,
    fileName: installerFileName(option, version),
    r2Key: key,
    byteSize,
    sha256,
    recommended: option.recommended,
    demo,
    publishedBy: null,
    publishedAt: Date.now(),
  };
}

/** The releases table's column name of each field, from the app's drizzle schema. */
async function releaseColumns() {
  const [{ releases }, { getTableColumns, getTableName }] = await Promise.all([importAppModule("drizzle/schema.ts"), import("drizzle-orm")]);
  const columns = Object.fromEntries(Object.entries(getTableColumns(releases)).map(([field, column]) => [field, column.name]));
  return { table: getTableName(releases), columns };
}

/** Inserts releases rows in one statement; the unique (option, version) index refuses a duplicate. */
async function insertRows(target, rows) {
  const { table, columns } = await releaseColumns();
  const fields = Object.keys(rows[0]);
  const sql = `INSERT INTO ${table} (${fields.map((field) => columns[field]).join(", ")}) VALUES ${rows.map((row) => `(${fields.map((field) => sqlString(row[field])).join(", ")})`).join(", ")}`;
  try {
    await target.query(sql);
  } catch (error) {
    if (/UNIQUE/i.test(String(error))) throw new UsageError(`${rows.map((r) => `${r.optionId} ${r.version}`).join(", ")}: already published.`);
    throw error;
  }
}

/** Puts the file into R2 and inserts its row. Call after checking that the version is new. */
export async function publishFile(target, build) {
  const row = await putFile(target, build);
  await insertRows(target, [row]);
  return row;
}

/** The demo builds for every option that has none: clearly named, small, marked demo. */
export async function publishDemoBuilds(target, dir = ".wrangler/demo-builds") {
  const present = new Set((await publishedVersions(target, DEMO_VERSION)).map((r) => r.option_id));
  const missing = DOWNLOAD_OPTIONS.filter((o) => !present.has(o.id));
  if (missing.length === 0) return [];
  mkdirSync(dir, { recursive: true });
  const rows = [];
  for (const option of missing) {
    const head = `Modelify demo installer — not a real build.\nOption: ${option.name} (${option.id}), version ${DEMO_VERSION}.\nPublished by npm start so the download flows work offline.\n`;
    const line = "This file is a placeholder for local development and tests. It installs nothing.\n";
    let text = head;
    while (Buffer.byteLength(text) + Buffer.byteLength(line) <= DEMO_BYTES) text += line;
    const file = `${dir}/${installerFileName(option, DEMO_VERSION)}`;
    writeFileSync(file, text);
    rows.push(await putFile(target, { option, version: DEMO_VERSION, file, demo: true }));
  }
  await insertRows(target, rows);
  return rows;
}

function usage() {
  return "Usage: npm run release:publish -- --platform <windows|mac|linux> --arch <x64|x86|intel|apple-silicon|arm64> --version <1.4.0> [--demo] [--remote] [--persist-to DIR] FILE";
}

async function main(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      platform: { type: "string" },
      arch: { type: "string" },
      version: { type: "string" },
      demo: { type: "boolean", default: false },
      remote: { type: "boolean", default: false },
      "persist-to": { type: "string" },
      "demo-builds": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) return console.log(usage());
  if (values.remote && values["persist-to"]) throw new UsageError("--persist-to is for the local state; leave it out with --remote.");
  const persistTo = values["persist-to"] ? resolve(values["persist-to"]) : undefined;
  const target = wranglerTarget({ remote: values.remote, persistTo });

  if (values["demo-builds"]) {
    if (values.remote) throw new UsageError("Demo builds are for local state only.");
    const rows = await publishDemoBuilds(target);
    if (rows.length) console.log(`Published demo builds (${DEMO_VERSION}) for ${rows.map((r) => r.optionId).join(", ")}`);
    return;
  }

  if (positionals.length !== 1) throw new UsageError(`Name exactly one installer file.\n${usage()}`);
  const file = resolve(positionals[0]);
  let size;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw new Error();
    size = stat.size;
  } catch {
    throw new UsageError(`No such file: ${positionals[0]}`);
  }
  if (size === 0) throw new UsageError(`${basename(file)} is empty.`);
  if (size > DOWNLOAD.maxInstallerBytes) throw new UsageError(`${basename(file)} is larger than the 2 GB an installer may be.`);
  const option = findOption(values.platform ?? "", values.arch ?? "");
  if (!option)
    throw new UsageError(
      `Unknown build ${values.platform ?? "(no --platform)"}/${values.arch ?? "(no --arch)"}. One of: ${DOWNLOAD_OPTIONS.map((o) => `--platform ${o.platform} --arch ${o.arch}`).join("; ")}`,
    );
  const version = values.version ?? "";
  if (version.length > VERSION_MAX_LENGTH || !VERSION_PATTERN.test(version))
    throw new UsageError(`--version must look like 1.4.0 or 1.4.0-beta.1 (at most ${VERSION_MAX_LENGTH} characters).`);

  const existing = await publishedVersions(target, version);
  if (existing.some((r) => r.option_id === option.id)) throw new UsageError(`${option.name} ${version} is already published: choose a new version number.`);
  const row = await publishFile(target, { option, version, file, demo: values.demo });
  console.log(
    `Published ${option.name} ${version}${row.demo ? " (demo)" : ""} to ${values.remote ? "Cloudflare" : `local state${persistTo ? ` in ${persistTo}` : ""}`}\n` +
      `  file    ${row.fileName}\n  key     ${BUCKET}/${row.r2Key}\n  size    ${row.byteSize} bytes\n  sha256  ${row.sha256}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    await main(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof UsageError || error?.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" ? error.message : error);
    process.exit(1);
  }
}
