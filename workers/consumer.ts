// The queue consumer: every message is parsed, handled idempotently and acknowledged one by one,
// so a poison message is retried alone and then lands in the dead-letter queue. Each batch writes
// one log line (queue, messages, acknowledged, retried, dead-lettered, time, D1 statements, kinds),
// and a batch that recorded dead letters may alert the admins (at most once an hour).
import { alertAdminsOfDeadLetters } from "~/lib/dead-letters/alert.server";
import { log, setLogSalt, withLogScope } from "~/lib/log/log.server";
import { withoutStatementValues } from "~/lib/log/redact";
import { QUEUE_MESSAGE_TYPES } from "~/lib/queue-redaction";
import { handleDeadLetters, handleEventBatch } from "~/lib/queue/dispatch.server";
import { metered, requestDb } from "~/server/db.server";
import { parseConsumerEnv } from "./consumer-env";

export default {
  async queue(batch, env) {
    const config = parseConsumerEnv(env);
    setLogSalt(config.LOG_SALT);
    await withLogScope(`batch-${crypto.randomUUID()}`, async (scope) => {
      const started = performance.now();
      const decisions = countDecisions(batch);
      let failure: unknown;
      const { statements } = await metered(async () => {
        // Statements are counted by the database handle made inside the batch's scope.
        const db = requestDb(env.DB);
        try {
          if (batch.queue.endsWith("-dlq")) await handleDeadLetters({ db, bucket: env.BUCKET, deadLetterKey: config.DEAD_LETTER_KEY }, batch);
          else await handleEventBatch({ db, env: config, queue: env.EVENTS, ledgers: env.USAGE_LEDGER, bucket: env.BUCKET }, batch);
        } catch (error) {
          failure = error;
        }
        // Never fails the batch: its messages are handled whether or not the mail goes out.
        if (scope.deadLettered > 0)
          await alertAdminsOfDeadLetters({ db, queue: env.EVENTS }).catch((error) => log.error("dead_letter_alert_failed", {}, error));
      });
      const fields = {
        queue: batch.queue,
        messages: batch.messages.length,
        // Undecided messages are acknowledged when the handler returns, retried when it throws.
        acked: failure === undefined ? batch.messages.length - decisions.retried : decisions.acked,
        retried: failure === undefined ? decisions.retried : batch.messages.length - decisions.acked,
        deadLettered: scope.deadLettered,
        durationMs: Math.round(performance.now() - started),
        d1Statements: statements,
        kinds: kindsOf(batch),
      };
      if (failure !== undefined) {
        log.error("queue_batch", fields, failure);
        throw withoutStatementValues(failure);
      }
      // A retry or a dead letter is worth a look; the messages' own lines say why.
      if (fields.retried > 0 || fields.deadLettered > 0) log.warn("queue_batch", fields);
      else log.info("queue_batch", fields);
    });
  },
} satisfies ExportedHandler<ConsumerEnv>;

/** Counts each message's first decision (acknowledged or retried) as the handlers make it. */
function countDecisions(batch: MessageBatch<unknown>): { acked: number; retried: number } {
  const decided = new Map<string, "ack" | "retry">();
  const tally = { acked: 0, retried: 0 };
  const decide = (id: string, decision: "ack" | "retry") => {
    if (decided.has(id)) return;
    decided.set(id, decision);
    if (decision === "ack") tally.acked++;
    else tally.retried++;
  };
  for (const message of batch.messages) {
    const { ack, retry } = message;
    Object.assign(message, {
      ack: () => {
        decide(message.id, "ack");
        ack.call(message);
      },
      retry: (options?: QueueRetryOptions) => {
        decide(message.id, "retry");
        retry.call(message, options);
      },
    });
  }
  const { ackAll, retryAll } = batch;
  Object.assign(batch, {
    ackAll: () => {
      for (const m of batch.messages) decide(m.id, "ack");
      ackAll.call(batch);
    },
    retryAll: (options?: QueueRetryOptions) => {
      for (const m of batch.messages) decide(m.id, "retry");
      retryAll.call(batch, options);
    },
  });
  return tally;
}

const KNOWN_KINDS: ReadonlySet<string> = new Set(QUEUE_MESSAGE_TYPES);

/** How many messages of each kind the batch held (a body's `type`, when it is one of ours). */
function kindsOf(batch: MessageBatch<unknown>): Array<{ kind: string; count: number }> {
  const counts = new Map<string, number>();
  for (const message of batch.messages) {
    const type = typeof message.body === "object" && message.body !== null ? (message.body as { type?: unknown }).type : undefined;
    const kind = typeof type === "string" && KNOWN_KINDS.has(type) ? type : "unknown";
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts].map(([kind, count]) => ({ kind, count })).sort((a, b) => a.kind.localeCompare(b.kind));
}
