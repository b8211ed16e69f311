// An admin's two actions on a dead letter: replay (its original back on the queue) and discard.
// Each takes the row in one D1 batch with its audit entry (delete … RETURNING), so of two admins
// (or two clicks) exactly one replays or discards it, and the other is told it is gone. What a
// replay then does is once-only by each kind's consumer (policy.ts, ADR 0024).
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { log } from "../log/log.server";
import { enqueue, type OutgoingMessage, queueMessageSchema } from "../queue";
import { unseal } from "./sealed";
import { deadLetterRow } from "./store.server";

const table = schema.deadLetters;

export type DeadLetterOutcome = { ok: true; message: string } | { ok: false; status: 409 | 503; message: string };

const GONE: DeadLetterOutcome = { ok: false, status: 409, message: "That dead letter is no longer here: it was replayed, discarded or expired." };

// The audit entry of an action on a dead letter, written only if the row is still there (in the
// same batch as its delete). The account it was about is named when it still exists.
function auditEntry(db: Db, id: string, adminId: string, action: string, now: number) {
  return db.insert(schema.auditLog).select(
    db
      .select({
        id: sql`${crypto.randomUUID()}`.as("id"),
        actorUserId: sql`${adminId}`.as("actor_user_id"),
        targetUserId: sql`(SELECT ${schema.users.id} FROM ${schema.users} WHERE ${schema.users.id} = json_extract(${table.body}, '$.userId'))`.as(
          "target_user_id",
        ),
        action: sql`${action}`.as("action"),
        details:
          sql`json_object('deadLetterId', ${table.id}, 'queue', ${table.queue}, 'kind', json_extract(${table.body}, '$.kind'), 'reason', json_extract(${table.body}, '$.reason'))`.as(
            "details",
          ),
        createdAt: sql`${now}`.as("created_at"),
      })
      .from(table)
      .where(eq(table.id, id)),
  );
}

/** Takes the row (and audits the action) if it is still there: true for the one caller that did. */
async function take(db: Db, id: string, adminId: string, action: string, now: number): Promise<boolean> {
  const [, taken] = await db.batch([auditEntry(db, id, adminId, action, now), db.delete(table).where(eq(table.id, id)).returning({ id: table.id })]);
  return taken.length === 1;
}

/** Puts a dead letter's original back on the queue, once. */
export async function replayDeadLetter(
  deps: { db: Db; queue: Queue; key: string | undefined },
  input: { adminId: string; id: string },
  now = Date.now(),
): Promise<DeadLetterOutcome> {
  const { db } = deps;
  const row = await db.query.deadLetters.findFirst({ where: eq(table.id, input.id) });
  if (!row) return GONE;
  const view = deadLetterRow(row, now);
  if (!view.replay.replayable) return { ok: false, status: 409, message: view.replay.why };
  if (!deps.key) return { ok: false, status: 409, message: "DEAD_LETTER_KEY is not set on the site, so the kept message cannot be opened." };
  const plain = row.original ? await unseal(deps.key, row.original, row.id) : null;
  if (plain === null) return { ok: false, status: 409, message: "The kept message does not open with the current DEAD_LETTER_KEY (was the key changed?)." };
  const body: unknown = JSON.parse(plain);
  // It parsed when it was recorded; the schema may have changed since.
  if (!queueMessageSchema.safeParse(body).success) return { ok: false, status: 409, message: "The kept message no longer matches the message format." };

  if (!(await take(db, row.id, input.adminId, "dead_letter.replay", now))) return GONE;
  try {
    await enqueue(deps.queue, body as OutgoingMessage);
  } catch (error) {
    // Nothing went out: the row comes back to be tried again, and the audit says so.
    await db.batch([
      db.insert(table).values(row).onConflictDoNothing(),
      db.insert(schema.auditLog).values({
        id: crypto.randomUUID(),
        actorUserId: input.adminId,
        action: "dead_letter.replay_failed",
        details: { deadLetterId: row.id, queue: row.queue, kind: view.kind },
        createdAt: now,
      }),
    ]);
    log.error("dead_letter_replay_failed", { deadLetterId: row.id, kind: view.kind, adminId: input.adminId }, error);
    return { ok: false, status: 503, message: "The queue did not take the message. It is still listed: try again in a moment." };
  }
  log.info("dead_letter_replayed", { deadLetterId: row.id, kind: view.kind, adminId: input.adminId });
  return { ok: true, message: `Replayed: the ${view.kind} message is back on the queue.` };
}

/** Deletes a dead letter (and its kept original) for good, once. */
export async function discardDeadLetter(db: Db, input: { adminId: string; id: string }, now = Date.now()): Promise<DeadLetterOutcome> {
  if (!(await take(db, input.id, input.adminId, "dead_letter.discard", now))) return GONE;
  log.info("dead_letter_discarded", { deadLetterId: input.id, adminId: input.adminId });
  return { ok: true, message: "Discarded." };
}
