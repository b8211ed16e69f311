// `wrangler deploy --dry-run` of both built Workers (the site and the queue consumer): bundles
// them and checks their generated configs without uploading, so a broken deploy configuration
// fails `npm run validate` (and CI) instead of the release. Works offline.
import { buildDirFor, buildSite, builtWorkerConfigs, run } from "./lib.mjs";

const buildDir = buildDirFor("deploy-check");
await buildSite(buildDir, { stdio: ["ignore", "ignore", "inherit"] });
for (const config of builtWorkerConfigs(buildDir)) {
  console.log(`wrangler deploy --dry-run -c ${config}`);
  await run("wrangler", ["deploy", "--dry-run", "--config", config, "--outdir", `${buildDir}/dry-run/${config.split("/").at(-2)}`], {
    env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
    stdio: ["ignore", "pipe", "inherit"],
  });
}
console.log("Both Workers bundle and their deploy configurations are valid.");
