// The dead-letter table: queue messages that failed for good. Each keeps its redacted view
// (lib/queue-redaction.ts: kind, account, why, when) and, where it can be replayed, the message
// itself sealed with DEAD_LETTER_KEY (sealed.ts, policy.ts). Admins list, replay and discard them
// (replay.server.ts); the hourly cron deletes them after DEAD_LETTERS.keepMs (ADR 0024).
import { desc, lt, sql } from "drizzle-orm";
import { DEAD_LETTERS } from "../constants";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { accountHash, noteDeadLetter } from "../log/log.server";
import { type DeadLetterReason, type RedactedDeadLetter, redactDeadLetter } from "../queue-redaction";
import { keepsOriginal, type ReplayVerdict, replayVerdict } from "./policy";
import { seal } from "./sealed";

const table = schema.deadLetters;

/**
 * Keeps a message that failed for good: its redacted view, and its original sealed with `key`
 * when its kind can be replayed. Recording the same message twice keeps the first.
 */
export async function recordDeadLetter(
  db: Db,
  queue: string,
  message: Message<unknown>,
  reason: DeadLetterReason,
  options: { key?: string; attempts?: number; now?: number } = {},
): Promise<void> {
  const now = options.now ?? Date.now();
  const sentAt = message.timestamp instanceof Date && !Number.isNaN(message.timestamp.getTime()) ? message.timestamp.getTime() : null;
  const view = redactDeadLetter(message.body, { reason, sentAt });
  // Only a message that parsed (error null) is worth replaying as it is.
  const original =
    options.key && view.error === null && keepsOriginal(view.kind, reason) ? await seal(options.key, JSON.stringify(message.body), message.id) : null;
  const inserted = await db
    .insert(table)
    .values({ id: message.id, queue, body: JSON.stringify(view), original, attempts: options.attempts ?? message.attempts, createdAt: now })
    .onConflictDoNothing()
    .returning({ id: table.id });
  if (inserted.length > 0) noteDeadLetter();
}

export type DeadLetterRow = {
  id: string;
  queue: string;
  kind: string;
  /** The account as the logs show it (a salted hash), so its lines can be found; null when none. */
  account: string | null;
  reason: DeadLetterReason;
  /** Which fields were wrong, for a malformed message. */
  error: string | null;
  attempts: number;
  /** When it was first recorded here. */
  firstSeen: number;
  /** When the message was first sent, where known. */
  sentAt: number | null;
  stripeEvent: { id: string; type: string } | null;
  replay: ReplayVerdict;
};

/** The view of a stored row (its body is the redacted view, as JSON). */
export function deadLetterRow(row: typeof table.$inferSelect, now: number): DeadLetterRow {
  const view = JSON.parse(row.body) as RedactedDeadLetter;
  return {
    id: row.id,
    queue: row.queue,
    kind: view.kind,
    account: view.userId ? accountHash(view.userId) : null,
    reason: view.reason,
    error: view.error,
    attempts: row.attempts,
    firstSeen: row.createdAt,
    sentAt: view.sentAt,
    stripeEvent: view.stripeEvent ?? null,
    replay: replayVerdict({ kind: view.kind, reason: view.reason, sentAt: view.sentAt, createdAt: row.createdAt, hasOriginal: row.original !== null }, now),
  };
}

/** The newest dead letters (at most DEAD_LETTERS.listed) and how many there are in all. */
export async function listDeadLetters(db: Db, now = Date.now()): Promise<{ rows: DeadLetterRow[]; total: number }> {
  const [rows, [counted]] = await db.batch([
    db.select().from(table).orderBy(desc(table.createdAt), desc(table.id)).limit(DEAD_LETTERS.listed),
    db.select({ n: sql<number>`count(*)` }).from(table),
  ]);
  return { rows: rows.map((row) => deadLetterRow(row, now)), total: Number(counted?.n ?? 0) };
}

/** Deletes dead letters older than the keeping time, their sealed originals with them; returns how many. */
export async function sweepDeadLetters(db: Db, now = Date.now()): Promise<number> {
  const result = await db
    .delete(table)
    .where(lt(table.createdAt, now - DEAD_LETTERS.keepMs))
    .run();
  return result.meta.changes;
}
