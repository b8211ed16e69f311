// The queue consumer: every message is parsed, handled idempotently and acknowledged one by one,
// so a poison message is retried alone and then lands in the dead-letter queue.
import { getDb } from "~/lib/db.server";
import { parseEnv } from "~/lib/env.server";
import { handleDeadLetters, handleEventBatch } from "~/lib/consumer.server";

export default {
  async queue(batch, env) {
    const db = getDb(env.DB);
    if (batch.queue.endsWith("-dlq")) return handleDeadLetters(db, batch);
    return handleEventBatch({ db, env: parseEnv(env), queue: env.EVENTS }, batch);
  },
} satisfies ExportedHandler<Env>;
