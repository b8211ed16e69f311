// The queue consumer: every message is parsed, handled idempotently and acknowledged one by one,
// so a poison message is retried alone and then lands in the dead-letter queue.
import { handleDeadLetters, handleEventBatch } from "~/lib/queue/dispatch.server";
import { getDb } from "~/lib/db.server";
import { parseConsumerEnv } from "./consumer-env";

export default {
  async queue(batch, env) {
    const db = getDb(env.DB);
    if (batch.queue.endsWith("-dlq")) return handleDeadLetters({ db, bucket: env.BUCKET }, batch);
    return handleEventBatch({ db, env: parseConsumerEnv(env), queue: env.EVENTS, ledgers: env.USAGE_LEDGER, bucket: env.BUCKET }, batch);
  },
} satisfies ExportedHandler<ConsumerEnv>;
