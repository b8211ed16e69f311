// The account's signed-in browsers and desktop apps, as the profile's "Sessions and devices"
// card lists them, and ending them. Ending revokes the row: the session's access token fails at
// its next request and its refresh token at its next renewal (session.server.ts).
import { and, desc, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import type { SessionView } from "../profile/view";
import { forgetLiveDesktopSessions } from "./live-desktop-sessions.server";
import { deviceLabel } from "./user-agent";

const ENDED_BY_USER = "ended_by_user";

/** How a request of the card ended, as /dashboard/profile?sessions=<outcome> tells the card after a plain form post. */
export type SessionsOutcome = "ended" | "others-ended" | "not-found" | "current";

// Not in the spec: every sign-in makes a session, so a script could make thousands; the card
// shows the most recent ones ("Sign out all other sessions" still ends them all).
const MAX_LISTED = 50;

const s = schema.sessions;

const live = (now: number) => and(isNull(s.revokedAt), gt(s.expiresAt, now));

/** Live sessions of the user: the current one first, then the most recently active. */
export async function listActiveSessions(db: Db, userId: string, currentSessionId: string | null, now = Date.now()): Promise<SessionView[]> {
  const lastActive = sql<number>`coalesce(${s.lastSeenAt}, ${s.createdAt})`;
  const rows = await db
    .select({ id: s.id, client: s.client, userAgent: s.userAgent, createdAt: s.createdAt, lastActiveAt: lastActive })
    .from(s)
    .where(and(eq(s.userId, userId), live(now)))
    .orderBy(sql`${s.id} = ${currentSessionId ?? ""} DESC`, desc(lastActive), desc(s.createdAt))
    .limit(MAX_LISTED);
  return rows.map((row) => {
    const current = row.id === currentSessionId;
    return {
      id: row.id,
      client: row.client,
      device: deviceLabel(row.userAgent, row.client),
      createdAt: row.createdAt,
      // The session asking is in use right now; its row only learns that at its next renewal.
      lastActiveAt: current ? Math.max(now, row.lastActiveAt) : row.lastActiveAt,
      current,
    };
  });
}

/** Ends one of the user's own live sessions; false when there is none by that id (or not theirs). */
export async function endSession(db: Db, userId: string, sessionId: string, now = Date.now()): Promise<boolean> {
  const result = await db
    .update(s)
    .set({ revokedAt: now, revokedReason: ENDED_BY_USER })
    .where(and(eq(s.id, sessionId), eq(s.userId, userId), live(now)))
    .run();
  forgetLiveDesktopSessions({ sessionId });
  return result.meta.changes > 0;
}

/** Ends every live session of the user except the one asking; returns how many ended. */
export async function endOtherSessions(db: Db, userId: string, currentSessionId: string, now = Date.now()): Promise<number> {
  const result = await db
    .update(s)
    .set({ revokedAt: now, revokedReason: ENDED_BY_USER })
    .where(and(eq(s.userId, userId), ne(s.id, currentSessionId), live(now)))
    .run();
  forgetLiveDesktopSessions({ userId });
  return result.meta.changes;
}
