// End-to-end tests: build, serve on a throwaway state, run tests/e2e (Chromium, and plain HTTP for
// the malformed-request corpus, which also reads the local D1 file under STATE_DIR).
// Writes its counts to .wrangler/e2e-summary.json for scripts/test.mjs.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { ensureChromium } from "./ensure-chromium.mjs";
import { ensureDevVars, run } from "./lib.mjs";
import { serveTestSite } from "./serve-test-site.mjs";

const chromium = await ensureChromium();
// Before the build, which copies .dev.vars into the built Workers.
ensureDevVars();
if (!process.argv.includes("--no-build")) await run("react-router", ["build"], { stdio: ["ignore", "ignore", "inherit"] });
const site = await serveTestSite();
const files = readdirSync("tests/e2e").filter((f) => f.endsWith(".test.ts")).sort().map((f) => `tests/e2e/${f}`);

let output = "";
const code = await new Promise((resolve) => {
  const child = spawn("node", ["--test", "--test-concurrency=1", "--test-reporter=spec", ...files], {
    env: { ...process.env, BASE_URL: site.baseUrl, STRIPE_URL: site.stripeUrl, STATE_DIR: site.stateDir, CHROMIUM_PATH: chromium },
    stdio: ["ignore", "pipe", "inherit"],
  });
  child.stdout.on("data", (d) => {
    output += d;
    process.stdout.write(d);
  });
  child.on("exit", (c) => resolve(c ?? 1));
});
await site.stop();

const count = (label) => Number(new RegExp(`ℹ ${label} (\\d+)`).exec(output)?.[1] ?? 0);
const summary = { passed: count("pass"), failed: count("fail") + count("cancelled"), skipped: count("skipped") + count("todo") };
mkdirSync(".wrangler", { recursive: true });
writeFileSync(".wrangler/e2e-summary.json", JSON.stringify(summary));
if (code !== 0) console.error(site.log().slice(-4000));
process.exit(code === 0 && summary.failed === 0 ? 0 : 1);
