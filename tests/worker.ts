// The test Worker: the site and the queue consumer in one isolate, so a message the site produces
// is delivered through the real (local) queue to the consumer code.
import app from "../workers/app";
import consumer from "../workers/consumer";
import { trackBatch, trackQueue } from "./queue-tracker";

type Handlers = Required<Pick<ExportedHandler<Env>, "fetch" | "scheduled" | "queue">>;

/** The Workers' own handlers, for tests that hand them a made-up batch or controller directly. */
export const handlers: Handlers = {
  fetch: app.fetch,
  scheduled: app.scheduled,
  queue: (batch, env) => consumer.queue(batch, env),
};

/**
 * What the runtime runs: the same handlers, with the events queue counted from send to last
 * handling, so a test can wait until it is quiet (queueSettled in queue-tracker.ts).
 */
const worker: Handlers = {
  fetch(request, env, ctx) {
    trackQueue(env);
    return handlers.fetch(request, env, ctx);
  },
  scheduled(controller, env, ctx) {
    trackQueue(env);
    return handlers.scheduled(controller, env, ctx);
  },
  queue(batch, env, ctx) {
    trackQueue(env);
    return trackBatch(batch, () => handlers.queue(batch, env, ctx) as Promise<void>);
  },
};

export default worker;

export { UsageLedger } from "../workers/usage-ledger";
