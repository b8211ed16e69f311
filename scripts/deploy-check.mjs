// The deploy's dry run for both environments (scripts/deploy.mjs --dry-run): each builds both
// Workers for its environment and runs `wrangler deploy --dry-run` on them, which bundles them
// and checks their generated configs without uploading; the configs' cross-checks run too. So a
// broken deploy configuration fails `npm run validate` (and CI) instead of the release. Works
// offline: no secret is listed and no migration applied.
import { DeployError, deploy, ENVIRONMENTS } from "./deploy.mjs";

for (const env of ENVIRONMENTS) {
  try {
    await deploy({ env, dryRun: true });
  } catch (error) {
    console.error(error instanceof DeployError ? error.message : error);
    process.exit(1);
  }
}
