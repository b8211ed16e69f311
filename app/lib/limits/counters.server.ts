// Counters that must hold under parallel requests: each change is one D1 statement
// (INSERT … ON CONFLICT DO UPDATE … RETURNING), which D1 runs atomically against its single
// primary, so twenty requests at once are counted twenty times. KV cannot do this: it has no
// atomic increment, and a read-then-write loses counts (docs/decisions/0003-lockouts.md).
import { inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../db.server";
import { schema } from "../db.server";

const table = schema.attemptCounters;

export type Reservation = {
  /** The attempt may go ahead. */
  allowed: boolean;
  /** Attempts counted in this window, this one included (in-flight attempts count too). */
  count: number;
  /** When the window (and any lock) ends, epoch ms. */
  expiresAt: number;
};

/**
 * Reserves one attempt under a "locked after more than `maxFailures`" rule, before the attempt is
 * checked, so parallel attempts cannot all slip through: attempts 1 … maxFailures + 1 are allowed;
 * the one after that (and every later one) is refused until the window ends. Each allowed attempt
 * moves the window's end to now + windowMs; refused ones leave it, so a lock lasts exactly
 * windowMs after the failure that caused it. The caller releases the reservation when the
 * attempt turns out not to be a failure.
 */
export async function reserveAttempt(db: Db, key: string, rule: { maxFailures: number; windowMs: number }, now = Date.now()): Promise<Reservation> {
  const cap = rule.maxFailures + 2;
  const rows = await db
    .insert(table)
    .values({ key, count: 1, expiresAt: now + rule.windowMs })
    .onConflictDoUpdate({
      target: table.key,
      set: {
        count: sql`CASE WHEN ${table.expiresAt} <= ${now} THEN 1 ELSE min(${table.count} + 1, ${cap}) END`,
        expiresAt: sql`CASE WHEN ${table.expiresAt} <= ${now} OR ${table.count} <= ${rule.maxFailures} THEN ${now + rule.windowMs} ELSE ${table.expiresAt} END`,
      },
    })
    .returning({ count: table.count, expiresAt: table.expiresAt });
  const row = rows[0]!;
  return { allowed: row.count <= rule.maxFailures + 1, count: row.count, expiresAt: row.expiresAt };
}

/** Gives back a reservation whose attempt was not a failure (e.g. a valid sign-up form). */
export async function releaseAttempt(db: Db, key: string, maxFailures: number): Promise<void> {
  await db
    .update(table)
    .set({ count: sql`${table.count} - 1` })
    .where(sql`${table.key} = ${key} AND ${table.count} > 0 AND ${table.count} <= ${maxFailures + 1}`);
}

/** Forgets keys (a successful sign-in clears its account's failures). */
export async function clearCounter(db: Db, ...keys: string[]): Promise<void> {
  await db.delete(table).where(inArray(table.key, keys));
}

/**
 * A lock that grows each time it trips again. Counts this trip on `tripsKey` (remembered for
 * `forgetAfterMs` after the latest trip) and makes the lock on `key` last `ladder[trips - 1]`
 * (the ladder's last step once past its end) from `lockedFrom`. One transaction: the lock's
 * length is read from the trip count inside it, so parallel trips cannot both see the same count,
 * and the lock is never counted without being lengthened. A lock is never shortened, and a key
 * that is no longer locked (a right answer cleared it meanwhile) is left alone: `expiresAt` is
 * then null.
 */
export async function lengthenLock(
  db: Db,
  key: string,
  tripsKey: string,
  rule: { maxFailures: number; ladder: readonly number[]; forgetAfterMs: number },
  lockedFrom: number,
  now = Date.now(),
): Promise<{ trips: number; lockMs: number; expiresAt: number | null }> {
  const steps = rule.ladder.slice(0, -1).map((ms, i) => sql` WHEN ${i + 1} THEN ${ms}`);
  const last = rule.ladder[rule.ladder.length - 1]!;
  // The trips row is read under an alias: the unaliased table name in this statement is the lock's row.
  const trips = sql`(SELECT trips."count" FROM ${table} AS trips WHERE trips."key" = ${tripsKey})`;
  const [counted, lengthened] = await db.batch([
    db
      .insert(table)
      .values({ key: tripsKey, count: 1, expiresAt: now + rule.forgetAfterMs })
      .onConflictDoUpdate({
        target: table.key,
        set: {
          count: sql`CASE WHEN ${table.expiresAt} <= ${now} THEN 1 ELSE ${table.count} + 1 END`,
          expiresAt: now + rule.forgetAfterMs,
        },
      })
      .returning({ count: table.count }),
    db
      .update(table)
      .set({ expiresAt: sql`max(${table.expiresAt}, ${lockedFrom} + CASE ${trips}${sql.join(steps)} ELSE ${last} END)` })
      .where(sql`${table.key} = ${key} AND ${table.count} > ${rule.maxFailures}`)
      .returning({ expiresAt: table.expiresAt }),
  ]);
  const count = counted[0]!.count;
  return { trips: count, lockMs: rule.ladder[Math.min(count, rule.ladder.length) - 1]!, expiresAt: lengthened[0]?.expiresAt ?? null };
}

/**
 * Counts one event in a fixed window that starts at the key's first event; returns the count
 * including this one. For caps such as "at most N e-mails per IP per hour".
 */
export async function countEvent(db: Db, key: string, windowMs: number, now = Date.now()): Promise<{ count: number; expiresAt: number }> {
  const rows = await db
    .insert(table)
    .values({ key, count: 1, expiresAt: now + windowMs })
    .onConflictDoUpdate({
      target: table.key,
      set: {
        count: sql`CASE WHEN ${table.expiresAt} <= ${now} THEN 1 ELSE ${table.count} + 1 END`,
        expiresAt: sql`CASE WHEN ${table.expiresAt} <= ${now} THEN ${now + windowMs} ELSE ${table.expiresAt} END`,
      },
    })
    .returning({ count: table.count, expiresAt: table.expiresAt });
  return rows[0]!;
}

/** Seconds until `expiresAt`, for a Retry-After header: at least 1. */
export function secondsUntil(expiresAt: number, now: number): number {
  return Math.max(1, Math.ceil((expiresAt - now) / 1000));
}

/**
 * Counts one event against a cap ("at most `limit` per window"): null while within it, else the
 * seconds until the window ends. The event counts either way, so a burst cannot slip through.
 */
export async function overCap(db: Db, key: string, rule: { limit: number; windowMs: number }, now = Date.now()): Promise<number | null> {
  const { count, expiresAt } = await countEvent(db, key, rule.windowMs, now);
  return count > rule.limit ? secondsUntil(expiresAt, now) : null;
}

/** The current count of a key in its window (0 when absent or expired). */
export async function currentCount(db: Db, key: string, now = Date.now()): Promise<number> {
  const row = await db.query.attemptCounters.findFirst({ where: sql`${table.key} = ${key} AND ${table.expiresAt} > ${now}` });
  return row?.count ?? 0;
}

/** The hourly cron drops counters whose window has ended. */
export async function sweepExpiredCounters(db: Db, now = Date.now()): Promise<number> {
  const result = await db.delete(table).where(lt(table.expiresAt, now)).run();
  return result.meta.changes;
}
