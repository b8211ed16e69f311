// The account's signed-in browsers and desktop apps, as the profile's "Sessions and devices"
// card lists them, and ending them. Ending revokes the row: the session's access token fails at
// its next request and its refresh token at its next renewal (session.server.ts).
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { ACCESS_REVIEW } from "../constants";
import { countryName } from "../country";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import type { SessionView } from "../profile/view";
import { forgetLiveDesktopSessions } from "./live-desktop-sessions.server";
import { type RevocationDeps, type RevocationReason, revokeAccountAccess } from "./revocation.server";
import type { ZonedAccount } from "./session.server";
import { monthKey } from "../usage/dates";
import { endLiveSockets, ledgerFor, type LedgerNamespace } from "../usage/ledger/api";
import { PLATFORM_LABELS } from "./device-codes";
import { deviceLabel } from "./user-agent";

const ENDED_BY_USER = "ended_by_user" satisfies RevocationReason;

/** How a request of the card ended, as /dashboard/profile?sessions=<outcome> tells the card after a plain form post. */
export type SessionsOutcome = "ended" | "others-ended" | "not-found" | "current";

// Not in the spec: every sign-in makes a session, so a script could make thousands; the card
// shows the most recent ones ("Sign out all other sessions" still ends them all).
const MAX_LISTED = 50;

const s = schema.sessions;

const live = (now: number) => and(isNull(s.revokedAt), gt(s.expiresAt, now));

/**
 * Live sessions of the user: the current one first, then the most recently active. A desktop
 * session is that device's key: it comes with the device's description and this month's usage
 * it reported (from the account's usage ledger, which counts each device key's month).
 */
export async function listActiveSessions(
  { db, ledgers }: { db: Db; ledgers: LedgerNamespace },
  account: ZonedAccount,
  currentSessionId: string | null,
  now = Date.now(),
): Promise<SessionView[]> {
  const userId = account.id;
  const zone = account.profile.timeZone;
  const lastActive = sql<number>`max(coalesce(${s.lastSeenAt}, ${s.createdAt}), coalesce(${s.lastUsedAt}, 0))`;
  const [rows, usage] = await Promise.all([
    db
      .select({
        id: s.id,
        client: s.client,
        userAgent: s.userAgent,
        createdAt: s.createdAt,
        lastActiveAt: lastActive,
        deviceName: s.deviceName,
        platform: s.devicePlatform,
        appVersion: s.appVersion,
        lastUsedAt: s.lastUsedAt,
        lastCountry: s.lastCountry,
      })
      .from(s)
      .where(and(eq(s.userId, userId), live(now)))
      .orderBy(sql`${s.id} = ${currentSessionId ?? ""} DESC`, desc(lastActive), desc(s.createdAt))
      .limit(MAX_LISTED),
    ledgerFor(ledgers, userId).read({ now, zone, devicesIn: monthKey(now, zone) }),
  ]);
  const byDevice = new Map((usage.devices ?? []).map((d) => [d.deviceId, d]));
  return rows.map((row) => {
    const current = row.id === currentSessionId;
    return {
      id: row.id,
      client: row.client,
      device: row.deviceName ?? deviceLabel(row.userAgent, row.client),
      createdAt: row.createdAt,
      // The session asking is in use right now; its row only learns that at its next renewal.
      lastActiveAt: current ? Math.max(now, row.lastActiveAt) : row.lastActiveAt,
      current,
      key:
        row.client === "desktop"
          ? {
              platform: row.platform ? PLATFORM_LABELS[row.platform] : null,
              appVersion: row.appVersion,
              lastUsedAt: row.lastUsedAt,
              country: countryName(row.lastCountry),
              monthRequests: byDevice.get(row.id)?.requests ?? 0,
              monthCostUsd: (byDevice.get(row.id)?.costMicros ?? 0) / 1_000_000,
            }
          : null,
    };
  });
}

/** Ends one of the user's own live sessions; false when there is none by that id (or not theirs). */
export async function endSession({ db, ledgers }: RevocationDeps, userId: string, sessionId: string, now = Date.now()): Promise<boolean> {
  const result = await db
    .update(s)
    .set({ revokedAt: now, revokedReason: ENDED_BY_USER })
    .where(and(eq(s.id, sessionId), eq(s.userId, userId), live(now)))
    .run();
  forgetLiveDesktopSessions({ sessionId });
  if (result.meta.changes > 0) await endLiveSockets(ledgers, userId, { only: [sessionId] });
  return result.meta.changes > 0;
}

/**
 * "Sign out all other sessions": every other session and device key ends, and with them whatever
 * else could bring access back (a pending e-mail change, unused e-mail links, approved device
 * codes): see revocation.server.ts. Returns how many sessions ended.
 */
export function endOtherSessions(deps: RevocationDeps, userId: string, currentSessionId: string, now = Date.now()): Promise<number> {
  return revokeAccountAccess(deps, userId, ENDED_BY_USER, { keepSessionId: currentSessionId, now });
}

/** A session or device key a password reset ended: what the access review names (issue 45). */
export type EndedSessionView = { id: string; client: "web" | "desktop"; device: string; createdAt: number; endedAt: number };

/** The sessions and device keys the account's latest password reset ended (within a day), newest first. */
export async function endedByReset(db: Db, userId: string, now = Date.now()): Promise<EndedSessionView[]> {
  const rows = await db
    .select({ id: s.id, client: s.client, userAgent: s.userAgent, deviceName: s.deviceName, createdAt: s.createdAt, endedAt: s.revokedAt })
    .from(s)
    .where(and(eq(s.userId, userId), eq(s.revokedReason, "password_reset"), gt(s.revokedAt, now - ACCESS_REVIEW.endedLookbackMs)))
    .orderBy(desc(s.revokedAt), desc(s.createdAt))
    .limit(MAX_LISTED);
  return rows.map((row) => ({
    id: row.id,
    client: row.client,
    device: row.deviceName ?? deviceLabel(row.userAgent, row.client),
    createdAt: row.createdAt,
    endedAt: row.endedAt ?? now,
  }));
}
