// Server-side sessions: a short-lived signed access token plus a refresh token that is
// stored only as a hash, rotated on every use and revocable. See docs/decisions/0002-sessions.md.
import { and, eq, isNull, or, sql } from "drizzle-orm";
import { INACTIVITY_LIMIT_MS, SESSION } from "../constants";
import { sha256Hex } from "../crypto";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import type { Keyring } from "../keys";
import { type AccessClaims, signAccessToken, verifyAccessToken } from "./jwt";
import { forgetLiveDesktopSessions, recallLiveDesktopSession, rememberLiveDesktopSession } from "./live-desktop-sessions.server";
import { newRefreshToken, readRefreshToken } from "./refresh-token";
import type { RevocationDeps } from "./revocation.server";
import { endLiveSockets } from "../usage/ledger/api";
import { isTimeZone, UTC } from "../time-zone";
import { isLocale } from "../locale";
import { teamPaidUntilSql } from "../billing/team-entitlement.server";

export type { AccountRef, SessionClient, SessionProfile, SessionUser, ZonedAccount } from "./session-types";
import type { AccountRows, SessionClient, SessionProfile, SessionUser } from "./session-types";

/** The session of a request: `provenAt` is when its owner last showed every factor in it (lib/auth/recent-proof.server.ts). */
/** `teamId`: the team a device key reports and claims under (ADR 0038, 0039), null for a personal one. */
type SessionState = { id: string; client: SessionClient; provenAt: number | null; teamId: string | null };
type SignedInState = { user: SessionUser; session: SessionState };
export type AuthState = SignedInState | { user: null; session: null };

export type IssuedTokens = {
  sessionId: string;
  accessToken: string;
  refreshToken: string;
  accessExpiresAt: number;
  refreshExpiresAt: number;
};

/** A device key's description (device authorization): how the app named the computer. */
export type DeviceFields = { deviceName: string; devicePlatform: "windows" | "macos" | "linux"; appVersion: string; appInstanceId: string };

export async function createSession(
  db: Db,
  keys: Keyring,
  input: {
    userId: string;
    client: SessionClient;
    userAgent?: string | null;
    sessionId?: string;
    device?: DeviceFields;
    provenAt?: number | null;
    /** A device key's team (ADR 0038); null or absent: personal. */
    teamId?: string | null;
  },
  now = Date.now(),
): Promise<IssuedTokens> {
  const sessionId = input.sessionId ?? crypto.randomUUID();
  const refreshToken = await newRefreshToken(keys, sessionId);
  const refreshExpiresAt = now + SESSION.refreshTokenTtlMs;
  await db.insert(schema.sessions).values({
    id: sessionId,
    userId: input.userId,
    client: input.client,
    refreshTokenHash: await sha256Hex(refreshToken),
    expiresAt: refreshExpiresAt,
    userAgent: input.userAgent?.slice(0, 300) ?? null,
    lastSeenAt: now,
    createdAt: now,
    provenAt: input.provenAt ?? null,
    teamId: input.teamId ?? null,
    ...input.device,
  });
  const accessToken = await signAccessToken({ sub: input.userId, sid: sessionId }, keys, SESSION.accessTokenTtlMs, now);
  return { sessionId, accessToken, refreshToken, accessExpiresAt: now + SESSION.accessTokenTtlMs, refreshExpiresAt };
}

/** Auto-logout: an account older than 720 h whose last login is older than 720 h. */
export function isInactive(user: { createdAt: number; lastLoginAt: number | null }, now = Date.now()): boolean {
  const cutoff = now - INACTIVITY_LIMIT_MS;
  return user.createdAt < cutoff && (user.lastLoginAt ?? 0) < cutoff;
}

const sessionUserColumns = {
  sessionId: schema.sessions.id,
  client: schema.sessions.client,
  provenAt: schema.sessions.provenAt,
  // The team a device key reports under (ADR 0038): the usage routes read it here, no statement more.
  teamId: schema.sessions.teamId,
  userId: schema.users.id,
  email: schema.users.email,
  role: schema.users.role,
  createdAt: schema.users.createdAt,
  firstName: schema.userProfiles.firstName,
  lastName: schema.userProfiles.lastName,
  lastLoginAt: schema.userProfiles.lastLoginAt,
  lastActivityAt: schema.userProfiles.lastActivityAt,
  username: schema.userProfiles.username,
  avatarUrl: schema.userProfiles.avatarUrl,
  phoneVerified: schema.userProfiles.phoneVerified,
  paymentMethodLast4: schema.userProfiles.paymentMethodLast4,
  stripeCustomerId: schema.userProfiles.stripeCustomerId,
  earlyAccessStatus: schema.userProfiles.earlyAccessStatus,
  earlyAccessExpiresAt: schema.userProfiles.earlyAccessExpiresAt,
  trialUsed: schema.userProfiles.trialUsed,
  timeZone: schema.userProfiles.timezone,
  timeZoneConfirmedAt: schema.userProfiles.timeZoneConfirmedAt,
  locale: schema.userProfiles.locale,
  // One index lookup (sessions_user_idx) in the query every page already makes.
  signedInBefore: sql<number>`exists (select 1 from sessions as earlier where earlier.user_id = ${schema.sessions.userId} and earlier.created_at < ${schema.sessions.createdAt})`,
};

type SessionUserRow = Pick<SessionUser, "email" | "role" | "createdAt" | "firstName" | "lastName" | "lastLoginAt" | "lastActivityAt"> & {
  sessionId: string;
  client: SessionClient;
  provenAt: number | null;
  teamId: string | null;
  userId: string;
  signedInBefore: number;
} & { [K in Exclude<keyof SessionProfile, "locale">]: SessionProfile[K] | null } & { locale: string | null } & Partial<AccountRows>;

function toAuthState(row: SessionUserRow): SignedInState {
  const accountRows =
    row.subscription !== undefined && row.budget !== undefined
      ? {
          subscription: row.subscription,
          budget: row.budget,
          capCount: Number(row.capCount ?? 0),
          teams: JSON.parse(String(row.teams ?? "[]")),
          teamPaidUntil: row.teamPaidUntil ?? null,
        }
      : undefined;
  return {
    session: { id: row.sessionId, client: row.client, provenAt: row.provenAt, teamId: row.teamId },
    user: {
      id: row.userId,
      email: row.email,
      role: row.role,
      createdAt: row.createdAt,
      firstName: row.firstName,
      lastName: row.lastName,
      lastLoginAt: row.lastLoginAt,
      lastActivityAt: row.lastActivityAt,
      signedInBefore: Boolean(row.signedInBefore),
      profile: {
        username: row.username,
        avatarUrl: row.avatarUrl,
        phoneVerified: row.phoneVerified ?? false,
        paymentMethodLast4: row.paymentMethodLast4,
        stripeCustomerId: row.stripeCustomerId,
        earlyAccessStatus: row.earlyAccessStatus,
        earlyAccessExpiresAt: row.earlyAccessExpiresAt,
        trialUsed: row.trialUsed,
        // A name the runtime no longer knows (zone data changes) counts as UTC rather than failing every page.
        timeZone: row.timeZone !== null && isTimeZone(row.timeZone) ? row.timeZone : UTC,
        timeZoneConfirmedAt: row.timeZoneConfirmedAt,
        locale: row.locale !== null && isLocale(row.locale) ? row.locale : null, // one no longer offered: the browser's
      },
      ...(accountRows && { accountRows }),
    },
  };
}

/**
 * A live session (not revoked, not expired) with its user, or undefined. With `accountRows`, the
 * same statement also reads the account's subscription and budget (one row each at most).
 */
async function loadLiveSession(db: Db, sessionId: string, now: number, accountRows = false): Promise<SessionUserRow | undefined> {
  const reads = sessionReadsOf(db);
  const rows = await (accountRows ? reads.withAccountRows : reads.plain).all({ sessionId, now });
  return rows[0];
}

// Every signed-in request and API call makes this read: its SQL is built once per database handle
// (one per D1 binding and isolate), not per request. Each run still goes through the request's
// own D1 session (server/db.ts defers the statement's session to its run).
const sessionReads = new WeakMap<Db, ReturnType<typeof prepareSessionReads>>();

function sessionReadsOf(db: Db) {
  let reads = sessionReads.get(db);
  if (!reads) {
    reads = prepareSessionReads(db);
    sessionReads.set(db, reads);
  }
  return reads;
}

function prepareSessionReads(db: Db) {
  const live = and(
    eq(schema.sessions.id, sql.placeholder("sessionId")),
    isNull(schema.sessions.revokedAt),
    sql`${schema.sessions.expiresAt} > ${sql.placeholder("now")}`,
  );
  const plain = db
    .select(sessionUserColumns)
    .from(schema.sessions)
    .innerJoin(schema.users, eq(schema.users.id, schema.sessions.userId))
    .leftJoin(schema.userProfiles, eq(schema.userProfiles.userId, schema.users.id))
    .where(live)
    .limit(1)
    .prepare();
  const capCount = sql<number>`(select count(*) from budget_caps where budget_caps.user_id = ${schema.users.id})`;
  const withAccountRows = db
    .select({
      ...sessionUserColumns,
      subscription: schema.subscriptions,
      budget: schema.budgets,
      capCount,
      teamPaidUntil: teamPaidUntilSql(schema.users.id),
      teams: sql<string>`(select json_group_array(json_object('slug', slug, 'name', name, 'role', role)) from (select teams.slug, teams.name, team_members.role
        from team_members join teams on teams.id = team_members.team_id where team_members.user_id = ${schema.users.id} order by teams.name))`,
    })
    .from(schema.sessions)
    .innerJoin(schema.users, eq(schema.users.id, schema.sessions.userId))
    .leftJoin(schema.userProfiles, eq(schema.userProfiles.userId, schema.users.id))
    .leftJoin(schema.subscriptions, eq(schema.subscriptions.userId, schema.users.id))
    .leftJoin(schema.budgets, eq(schema.budgets.userId, schema.users.id))
    .where(live)
    .limit(1)
    .prepare();
  return { plain, withAccountRows };
}

/** Resolves a bearer or cookie access token to its user; a revoked session fails at once. */
export async function authenticateAccessToken(db: Db, keys: Keyring, token: string, options: SessionReadOptions = {}): Promise<AuthState | null> {
  const auth = await authenticateBearerToken(db, keys, token, options);
  return auth && "ended" in auth ? null : auth;
}

/** When the read happens (a controlled clock in tests), and whether it also reads the account's rows (SessionUser.accountRows). */
type SessionReadOptions = { now?: number; accountRows?: boolean };

/** The API's check of a bearer token: its user, `{ ended: true }` (see liveSessionOfClaims), or null for a token that is not ours. */
export async function authenticateBearerToken(
  db: Db,
  keys: Keyring,
  token: string,
  { now = Date.now(), accountRows = false }: SessionReadOptions = {},
): Promise<SignedInState | { ended: true } | null> {
  const claims = await verifyAccessToken(token, keys);
  if (!claims) return null;
  const row = await liveSessionOfClaims(db, claims, now, accountRows);
  return row && !("ended" in row) ? toAuthState(row) : row;
}

/**
 * Both bearer checks' core, after the signature: the live session the token names. A well-signed
 * token whose session is gone was revoked in the dashboard, signed out, reset or replaced:
 * `{ ended: true }`, so the app says so and signs in again rather than retry. A session of
 * another user: not ours, null.
 */
async function liveSessionOfClaims(db: Db, claims: AccessClaims, now: number, accountRows = false): Promise<SessionUserRow | { ended: true } | null> {
  const row = await loadLiveSession(db, claims.sid, now, accountRows);
  if (!row) return { ended: true };
  return row.userId === claims.sub ? row : null;
}

/**
 * The usage routes' check: who sends this report. The same as authenticateAccessToken, except
 * that a desktop session found live is not read again for a few seconds (see
 * live-desktop-sessions.server.ts); a web session's token is checked against its row every time.
 */
export async function authenticateUsageToken(db: Db, keys: Keyring, token: string, now = Date.now()): Promise<UsageAuth> {
  const claims = await verifyAccessToken(token, keys);
  if (!claims) return null;
  const remembered = recallLiveDesktopSession(claims.sid, now);
  if (remembered) return remembered.userId === claims.sub ? { id: claims.sub, deviceId: claims.sid, teamId: remembered.teamId } : null;
  const row = await liveSessionOfClaims(db, claims, now);
  if (!row || "ended" in row) return row;
  if (row.client !== "desktop") return { id: row.userId, deviceId: null, teamId: null };
  rememberLiveDesktopSession(row.sessionId, row.userId, row.teamId, now);
  return { id: row.userId, deviceId: row.sessionId, teamId: row.teamId };
}

/**
 * Who reports: the user, the device key (a desktop session) and the team the key reports under
 * (ADR 0038; null: personal), a session that ended, or nothing valid.
 */
export type UsageAuth = { id: string; deviceId: string | null; teamId: string | null } | { ended: true } | null;

export type RefreshResult =
  | { ok: true; auth: AuthState & { user: SessionUser }; accessToken: string; accessExpiresAt: number; refreshToken: string | null; refreshExpiresAt: number }
  | { ok: false; reason: "unknown" | "revoked" | "expired" | "inactive" | "reused" };

/**
 * Exchanges a refresh token for a new access token and a new refresh token. A token that was
 * just rotated (another tab won the race) still gets an access token but no new refresh token.
 * Any other token of the session, of whatever generation, was kept by someone after it was
 * rotated: the session is treated as stolen and ends (ADR 0002).
 */
export async function refreshSession(deps: RevocationDeps, keys: Keyring, refreshToken: string, now = Date.now()): Promise<RefreshResult> {
  const { db } = deps;
  const read = await readRefreshToken(keys, refreshToken);
  if (read.kind === "invalid") return { ok: false, reason: "unknown" };
  const hash = await sha256Hex(refreshToken);
  const session = await db.query.sessions.findFirst({
    where:
      read.kind === "named"
        ? eq(schema.sessions.id, read.sessionId)
        : // Tokens from before they named their session, or with a MAC under a key rotated out
          // (refresh-token.ts): only the current and previous are known.
          or(eq(schema.sessions.refreshTokenHash, hash), eq(schema.sessions.previousRefreshTokenHash, hash)),
  });
  if (!session) return { ok: false, reason: "unknown" };
  if (session.revokedAt !== null) return { ok: false, reason: "revoked" };
  if (session.expiresAt <= now) return { ok: false, reason: "expired" };

  const row = await loadLiveSession(db, session.id, now);
  if (!row) return { ok: false, reason: "revoked" };
  if (isInactive(row, now)) {
    await revokeSession(deps, session.id, "inactive", now);
    return { ok: false, reason: "inactive" };
  }

  if (session.refreshTokenHash !== hash) {
    const justRotated = session.previousRefreshTokenHash === hash && session.rotatedAt !== null && now - session.rotatedAt <= SESSION.refreshReuseGraceMs;
    if (!justRotated) {
      await revokeSession(deps, session.id, "refresh_token_reuse", now);
      return { ok: false, reason: "reused" };
    }
    return issueAccessOnly(row, keys, session.expiresAt, now);
  }

  const nextToken = await newRefreshToken(keys, session.id);
  const refreshExpiresAt = now + SESSION.refreshTokenTtlMs;
  const result = await db
    .update(schema.sessions)
    .set({ refreshTokenHash: await sha256Hex(nextToken), previousRefreshTokenHash: hash, rotatedAt: now, expiresAt: refreshExpiresAt, lastSeenAt: now })
    .where(and(eq(schema.sessions.id, session.id), eq(schema.sessions.refreshTokenHash, hash)))
    .run();
  // Someone rotated the same token between our read and write: behave as within the grace window.
  if (result.meta.changes === 0) return issueAccessOnly(row, keys, session.expiresAt, now);
  return refreshed(row, keys, nextToken, refreshExpiresAt, now);
}

/** A new access token for the session; refreshToken null means "keep the one you have". */
async function refreshed(row: SessionUserRow, keys: Keyring, refreshToken: string | null, refreshExpiresAt: number, now: number): Promise<RefreshResult> {
  const accessToken = await signAccessToken({ sub: row.userId, sid: row.sessionId }, keys, SESSION.accessTokenTtlMs, now);
  return {
    ok: true,
    auth: toAuthState(row) as AuthState & { user: SessionUser },
    accessToken,
    accessExpiresAt: now + SESSION.accessTokenTtlMs,
    refreshToken,
    refreshExpiresAt,
  };
}

function issueAccessOnly(row: SessionUserRow, keys: Keyring, refreshExpiresAt: number, now: number): Promise<RefreshResult> {
  return refreshed(row, keys, null, refreshExpiresAt, now);
}

/** Ends one session, and its live-usage sockets with it. */
export async function revokeSession({ db, ledgers }: RevocationDeps, sessionId: string, reason: string, now = Date.now()) {
  const ended = await db
    .update(schema.sessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(schema.sessions.id, sessionId), isNull(schema.sessions.revokedAt)))
    .returning({ userId: schema.sessions.userId });
  forgetLiveDesktopSessions({ sessionId });
  if (ended[0]) await endLiveSockets(ledgers, ended[0].userId, { only: [sessionId] });
}

/**
 * Ends every session of a user, optionally keeping one (e.g. the one that just reset the
 * password), or only those of one desktop installation (its new sign-in replaces them).
 */
export async function revokeUserSessions(
  { db, ledgers }: RevocationDeps,
  userId: string,
  reason: string,
  options: { except?: string; appInstanceId?: string } = {},
  now = Date.now(),
) {
  const conditions = [eq(schema.sessions.userId, userId), isNull(schema.sessions.revokedAt)];
  if (options.except) conditions.push(sql`${schema.sessions.id} <> ${options.except}`);
  if (options.appInstanceId) conditions.push(eq(schema.sessions.appInstanceId, options.appInstanceId));
  const ended = await db
    .update(schema.sessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(...conditions))
    .returning({ id: schema.sessions.id });
  forgetLiveDesktopSessions({ userId });
  await endLiveSockets(ledgers, userId, { only: ended.map((row) => row.id) });
}
