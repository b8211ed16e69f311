// The dead-letter table: queue messages that failed for good, redacted before they are stored
// (lib/queue-redaction.ts) and deleted by the hourly cron after DEAD_LETTERS.keepMs.
import { lt } from "drizzle-orm";
import { DEAD_LETTERS } from "./constants";
import type { Db } from "./db.server";
import { schema } from "./db.server";
import { noteDeadLetter } from "./log/log.server";
import { type DeadLetterReason, redactDeadLetter } from "./queue-redaction";

export async function recordDeadLetter(db: Db, queue: string, message: Message<unknown>, reason: DeadLetterReason, now = Date.now()): Promise<void> {
  const sentAt = message.timestamp instanceof Date && !Number.isNaN(message.timestamp.getTime()) ? message.timestamp.getTime() : null;
  const body = JSON.stringify(redactDeadLetter(message.body, { reason, sentAt }));
  const inserted = await db
    .insert(schema.deadLetters)
    .values({ id: message.id, queue, body, attempts: message.attempts, createdAt: now })
    .onConflictDoNothing()
    .returning({ id: schema.deadLetters.id });
  // The batch's log line counts the new ones.
  if (inserted.length > 0) noteDeadLetter();
}

/** Deletes dead letters older than the keeping time; returns how many. */
export async function sweepDeadLetters(db: Db, now = Date.now()): Promise<number> {
  const result = await db
    .delete(schema.deadLetters)
    .where(lt(schema.deadLetters.createdAt, now - DEAD_LETTERS.keepMs))
    .run();
  return result.meta.changes;
}
