// The inactivity rule's sweep and the spec's "last activity" stamp: what signs out an account
// nobody used for INACTIVITY_LIMIT_MS, and how often a session's use is written down.
import { and, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { ACTIVITY_UPDATE_INTERVAL_MS, INACTIVITY_LIMIT_MS } from "../constants";
import type { Db } from "../db.server";
import { schema } from "../db.server";

/** The hourly cron: revoke the sessions of every account that the inactivity rule signs out. */
export async function sweepInactiveSessions(db: Db, now = Date.now()): Promise<number> {
  const cutoff = now - INACTIVITY_LIMIT_MS;
  const inactiveUsers = db
    .select({ id: schema.users.id })
    .from(schema.users)
    .leftJoin(schema.userProfiles, eq(schema.userProfiles.userId, schema.users.id))
    .where(and(lt(schema.users.createdAt, cutoff), sql`coalesce(${schema.userProfiles.lastLoginAt}, 0) < ${cutoff}`));
  const result = await db
    .update(schema.sessions)
    .set({ revokedAt: now, revokedReason: "inactive" })
    .where(and(isNull(schema.sessions.revokedAt), inArray(schema.sessions.userId, inactiveUsers)))
    .run();
  return result.meta.changes;
}

/** Spec: last_activity_at is written at most every 30 minutes. */
export function activityUpdateDue(lastActivityAt: number | null, now = Date.now()): boolean {
  return lastActivityAt === null || now - lastActivityAt >= ACTIVITY_UPDATE_INTERVAL_MS;
}

export async function touchActivity(db: Db, userId: string, now = Date.now()) {
  await db
    .update(schema.userProfiles)
    .set({ lastActivityAt: now })
    .where(
      and(
        eq(schema.userProfiles.userId, userId),
        or(isNull(schema.userProfiles.lastActivityAt), lt(schema.userProfiles.lastActivityAt, now - ACTIVITY_UPDATE_INTERVAL_MS)),
      ),
    );
}
