// "Revoke everything": the one place that decides what ending an account's access means. A
// password reset, "sign out all other sessions", an admin's action and the cancel link of an
// e-mail change all call it, so none of them can leave a way back in behind: a session, a refresh
// token of any generation (they die with their session), a device key, a device sign-in that was
// approved but not yet collected by its app, a pending e-mail change, an unused e-mail link, or an
// open live-usage socket (closed at once: a socket belongs to its session).
//
// Passkeys and two-factor are not sessions but ways in the owner set up: a reset leaves them, and
// the first page after it lists them to be checked and removed (docs/security.md, "What ends what").
import { and, eq, isNull, ne, notExists, or, sql } from "drizzle-orm";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { endLiveSockets, type LedgerNamespace } from "../usage/ledger/api";
import { forgetLiveDesktopSessions } from "./live-desktop-sessions.server";

/** What ending access touches: the rows, and the ledger that holds the account's live sockets. */
export type RevocationDeps = { db: Db; ledgers: LedgerNamespace };

const s = schema.sessions;
const grants = schema.deviceAuthorizations;

export type RevocationReason = "password_reset" | "password_changed" | "ended_by_user" | "ended_by_admin" | "email_change_cancelled" | "account_deleted";

/**
 * Ends every credential of the user in one D1 transaction, except the session `keepSessionId`
 * (the browser that asked, when it stays signed in). Returns how many sessions ended.
 */
export async function revokeAccountAccess(
  { db, ledgers }: RevocationDeps,
  userId: string,
  reason: RevocationReason,
  options: { keepSessionId?: string | null; now?: number } = {},
): Promise<number> {
  const now = options.now ?? Date.now();
  const sessionConditions = [eq(s.userId, userId), isNull(s.revokedAt)];
  if (options.keepSessionId) sessionConditions.push(ne(s.id, options.keepSessionId));
  const [sessions] = await db.batch([
    db
      .update(s)
      .set({ revokedAt: now, revokedReason: reason })
      .where(and(...sessionConditions))
      .returning({ id: s.id }),
    db
      .update(schema.userProfiles)
      .set({ pendingEmail: null, updatedAt: now })
      .where(and(eq(schema.userProfiles.userId, userId), sql`${schema.userProfiles.pendingEmail} IS NOT NULL`)),
    db
      .update(schema.oneTimeTokens)
      .set({ usedAt: now })
      .where(and(eq(schema.oneTimeTokens.userId, userId), isNull(schema.oneTimeTokens.usedAt))),
    // An approved code whose app has not polled yet would still hand out a key. A code the app
    // claimed a moment ago but whose session is not written yet is denied too: the poll checks
    // its code again after writing the session (pollDeviceAuthorization).
    db
      .update(grants)
      .set({ status: "denied" })
      .where(
        and(
          eq(grants.userId, userId),
          or(eq(grants.status, "approved"), and(eq(grants.status, "used"), notExists(db.select({ id: s.id }).from(s).where(eq(s.id, grants.sessionId))))),
        ),
      ),
  ]);
  forgetLiveDesktopSessions({ userId });
  await endLiveSockets(ledgers, userId, { except: options.keepSessionId ?? null });
  return sessions.length;
}

/** Whether a device code this poll claimed was cancelled by a revocation before its session was written. */
export async function deviceGrantCancelled(db: Db, sessionId: string): Promise<boolean> {
  const row = await db.query.deviceAuthorizations.findFirst({ where: eq(grants.sessionId, sessionId), columns: { status: true } });
  return row?.status !== "used";
}
