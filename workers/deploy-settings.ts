// What `npm run deploy` checks before it changes anything, read from the two Workers' own env
// schemas (app/server/env.ts, workers/consumer-env.ts) so the list is never kept twice. Not a
// Worker: scripts/deploy.mjs bundles this module and loads it into Node (importAppModule).
import { alwaysRequired, unmetRequirements } from "~/lib/config";
import { SITE_SETTINGS } from "~/server/env.server";
import { CONSUMER_SETTINGS } from "./consumer-env";

const WORKERS = { site: SITE_SETTINGS, consumer: CONSUMER_SETTINGS };
export type WorkerName = keyof typeof WORKERS;

/** Every setting the Worker needs in production and lacks, with the reason, given which are set. */
export function unmetSettings(worker: WorkerName, isSet: (name: string) => boolean): Array<{ name: string; message: string }> {
  const { shape, requirements } = WORKERS[worker];
  const always = alwaysRequired(shape)
    .filter((name) => !isSet(name))
    .map((name) => ({ name, message: `${name} is required` }));
  return [...always, ...unmetRequirements(requirements, isSet, true)];
}

/** Every setting the Worker reads (its schema's fields). */
export function settingNames(worker: WorkerName): string[] {
  return Object.keys(WORKERS[worker].shape);
}
