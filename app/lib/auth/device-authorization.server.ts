// The desktop app's sign-in through the browser: RFC 8628's device authorization grant
// (docs/decisions/0018-desktop-device-authorization.md). The app asks for a code pair, the
// signed-in user approves the user code on /device, the app polls with the device code and gets
// a desktop session bound to a named device: that session is the device's key.
import { and, eq, gt, lt, ne, or, sql } from "drizzle-orm";
import { DEVICE_AUTH } from "../constants";
import { sha256Hex } from "../crypto";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import type { Keyring } from "../keys";
import { clearCounter, countEvent, releaseAttempt, reserveAttempt, secondsUntil } from "../limits/counters.server";
import { ipSubject } from "./lockout";
import { deviceGrantCancelled } from "./revocation.server";
import { assertProofOf, type RecentProof } from "./recent-proof.server";
import type { RevocationDeps } from "./revocation.server";
import { createSession, revokeSession, revokeUserSessions, type IssuedTokens } from "./session.server";
import { type DEVICE_ERRORS, type DevicePlatform, formatUserCode, newDeviceCode, newUserCode, normalizeUserCode } from "./device-codes";
import { membershipById } from "../teams/teams.server";

const t = schema.deviceAuthorizations;

/** `country`: where the request came from (request.cf), for the approval page; null when unknown. */
export type DeviceRequest = { deviceName: string; platform: DevicePlatform; appVersion: string; appInstanceId: string; country: string | null };

export type DeviceCodeGrant = { deviceCode: string; userCode: string; expiresIn: number; interval: number };

/** Counts a code request from this address; the refusal says when to try again. */
export async function allowCodeRequest(
  db: Db,
  ip: string | null,
  now = Date.now(),
): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> {
  if (!ip) return { allowed: true };
  const { max, windowMs } = DEVICE_AUTH.requestsPerIp;
  const { count, expiresAt } = await countEvent(db, `device:request:ip:${ipSubject(ip)}`, windowMs, now);
  return count <= max ? { allowed: true } : { allowed: false, retryAfterSeconds: secondsUntil(expiresAt, now) };
}

/** A new pending authorization. Both codes are stored as digests only. */
export async function startDeviceAuthorization(db: Db, device: DeviceRequest, now = Date.now()): Promise<DeviceCodeGrant> {
  // A user code equal to one still stored (1 in 10^10 per row) is drawn again.
  for (let attempt = 0; ; attempt++) {
    const deviceCode = newDeviceCode();
    const userCode = newUserCode();
    const inserted = await db
      .insert(t)
      .values({
        id: crypto.randomUUID(),
        deviceCodeHash: await sha256Hex(deviceCode),
        userCodeHash: await userCodeHash(userCode),
        clientId: DEVICE_AUTH.clientId,
        deviceName: device.deviceName,
        platform: device.platform,
        appVersion: device.appVersion,
        appInstanceId: device.appInstanceId,
        requestCountry: device.country,
        intervalSeconds: DEVICE_AUTH.pollIntervalSeconds,
        expiresAt: now + DEVICE_AUTH.codeTtlMs,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: t.id });
    if (inserted.length || attempt >= 3) {
      if (!inserted.length) throw new Error("Could not store a device code");
      return { deviceCode, userCode: formatUserCode(userCode), expiresIn: DEVICE_AUTH.codeTtlMs / 1000, interval: DEVICE_AUTH.pollIntervalSeconds };
    }
  }
}

const userCodeHash = (canonical: string) => sha256Hex(canonical);

export type PollOutcome =
  | {
      ok: true;
      tokens: IssuedTokens;
      userId: string;
      device: { id: string; name: string; platform: DevicePlatform; app_version: string };
      /** The team the key reports under (ADR 0038), or null: personal. */
      team: { slug: string; name: string } | null;
    }
  | { ok: false; error: keyof typeof DEVICE_ERRORS; interval?: number };

/**
 * The app's poll. One statement decides it: it records the poll, raises the interval when the
 * poll came too soon (slow_down), and turns an approved code into a used one while claiming the
 * session id, so of parallel polls exactly one gets the tokens.
 */
export async function pollDeviceAuthorization(deps: RevocationDeps, keys: Keyring, deviceCode: string, now = Date.now()): Promise<PollOutcome> {
  const { db } = deps;
  const sessionId = crypto.randomUUID();
  const tooSoon = sql`${t.status} = 'pending' AND ${t.lastPolledAt} IS NOT NULL AND ${now} - ${t.lastPolledAt} < ${t.intervalSeconds} * 1000`;
  const claimable = sql`${t.status} = 'approved' AND ${t.expiresAt} > ${now}`;
  const rows = await db
    .update(t)
    .set({
      intervalSeconds: sql`CASE WHEN ${tooSoon} THEN ${t.intervalSeconds} + ${DEVICE_AUTH.slowDownSeconds} ELSE ${t.intervalSeconds} END`,
      slowedAt: sql`CASE WHEN ${tooSoon} THEN ${now} ELSE ${t.slowedAt} END`,
      lastPolledAt: now,
      status: sql`CASE WHEN ${claimable} THEN 'used' ELSE ${t.status} END`,
      sessionId: sql`CASE WHEN ${claimable} THEN ${sessionId} ELSE ${t.sessionId} END`,
    })
    .where(eq(t.deviceCodeHash, await sha256Hex(deviceCode)))
    .returning();
  const row = rows[0];
  if (!row) return { ok: false, error: "invalid_grant" };
  if (row.status === "used" && row.sessionId === sessionId && row.userId) {
    const device = { deviceName: row.deviceName, devicePlatform: row.platform, appVersion: row.appVersion, appInstanceId: row.appInstanceId };
    // The team chosen at the approval, if the approver is still a member of it: one removed since
    // gets no key for that team (the app asks again, and the user chooses anew).
    const membership = row.teamId === null ? null : await membershipById(db, row.teamId, row.userId);
    if (row.teamId !== null && membership === null) return { ok: false, error: "access_denied" };
    const team = membership?.team ?? null;
    // The same installation signing in again replaces its earlier key, so the list shows it once.
    await revokeUserSessions(deps, row.userId, "replaced_by_new_sign_in", { appInstanceId: row.appInstanceId }, now);
    const tokens = await createSession(db, keys, { userId: row.userId, client: "desktop", userAgent: null, sessionId, device, teamId: team?.id ?? null }, now);
    // A password reset or "sign out everywhere" between the claim and the session's insert denied
    // this code (revokeAccountAccess): the key it just made must not outlive that.
    if (await deviceGrantCancelled(db, sessionId)) {
      await revokeSession(deps, sessionId, "device_code_cancelled", now);
      return { ok: false, error: "access_denied" };
    }
    return {
      ok: true,
      tokens,
      userId: row.userId,
      device: { id: sessionId, name: row.deviceName, platform: row.platform, app_version: row.appVersion },
      team: team && { slug: team.slug, name: team.name },
    };
  }
  if (row.status === "used") return { ok: false, error: "invalid_grant" };
  if (row.status === "denied") return { ok: false, error: "access_denied" };
  if (row.expiresAt <= now) return { ok: false, error: "expired_token" };
  if (row.slowedAt === now) return { ok: false, error: "slow_down", interval: row.intervalSeconds };
  return { ok: false, error: "authorization_pending" };
}

export type PendingDevice = {
  name: string;
  platform: DevicePlatform;
  appVersion: string;
  requestedAt: number;
  /** The country code the app asked from, or null when unknown. */
  country: string | null;
  expiresAt: number;
  userCode: string;
};

export type CodeLookup = { ok: true; device: PendingDevice } | { ok: false; reason: "invalid" } | { ok: false; reason: "locked"; retryAfterSeconds: number };

const wrongCodeKey = (userId: string) => `device:wrong-code:user:${userId}`;
// "At most `max` wrong codes": reserveAttempt allows maxFailures + 1 attempts before refusing.
const WRONG_CODE_RULE = { maxFailures: DEVICE_AUTH.wrongCodes.max - 1, windowMs: DEVICE_AUTH.wrongCodes.windowMs };

/**
 * A code a signed-in user typed (or followed in a link): the pending device it names. Each
 * lookup is reserved against the user's wrong-code allowance before the code is checked, so
 * parallel guesses cannot exceed it; a code that names a device gives its reservation back.
 */
export async function lookUpUserCode(db: Db, userId: string, input: unknown, now = Date.now()): Promise<CodeLookup> {
  const reservation = await reserveAttempt(db, wrongCodeKey(userId), WRONG_CODE_RULE, now);
  if (!reservation.allowed) return { ok: false, reason: "locked", retryAfterSeconds: secondsUntil(reservation.expiresAt, now) };
  const canonical = normalizeUserCode(input);
  const row = canonical
    ? await db.query.deviceAuthorizations.findFirst({
        where: and(eq(t.userCodeHash, await userCodeHash(canonical)), eq(t.status, "pending"), gt(t.expiresAt, now)),
      })
    : undefined;
  if (!row || !canonical) return { ok: false, reason: "invalid" };
  await releaseAttempt(db, wrongCodeKey(userId), WRONG_CODE_RULE.maxFailures);
  return {
    ok: true,
    device: {
      name: row.deviceName,
      platform: row.platform,
      appVersion: row.appVersion,
      requestedAt: row.createdAt,
      country: row.requestCountry,
      expiresAt: row.expiresAt,
      userCode: formatUserCode(canonical),
    },
  };
}

const members = schema.teamMembers;

/** A key's team is one its approver is a member of: no condition for a personal key. */
function memberOf(teamId: string | null, userId: string) {
  if (teamId === null) return undefined;
  return sql`EXISTS (SELECT 1 FROM ${members} WHERE ${members.teamId} = ${teamId} AND ${members.userId} = ${userId})`;
}

/**
 * Approves or denies a pending code for this user. Only a pending, unexpired code changes (one
 * statement), so a code approved or denied by anyone, or used, is refused. An approval names the
 * key's context (ADR 0038): `teamId` null for personal, else a team the approver is a member of,
 * checked in the same statement (else nothing changes and the answer is false).
 */
export async function decideUserCode(
  db: Db,
  userId: string,
  code: string,
  decision: "denied" | { approved: RecentProof; teamId: string | null },
  now = Date.now(),
): Promise<boolean> {
  const canonical = normalizeUserCode(code);
  if (!canonical) return false;
  if (decision !== "denied") assertProofOf(decision.approved, userId);
  const teamId = decision === "denied" ? null : decision.teamId;
  const rows = await db
    .update(t)
    .set({ status: decision === "denied" ? "denied" : "approved", userId, approvedAt: now, teamId })
    .where(and(eq(t.userCodeHash, await userCodeHash(canonical)), eq(t.status, "pending"), gt(t.expiresAt, now), memberOf(teamId, userId)))
    .returning({ id: t.id });
  if (rows.length) await clearCounter(db, wrongCodeKey(userId));
  return rows.length > 0;
}

/** The hourly cron: authorizations past their life (and a day for the answers about them). */
export async function sweepDeviceAuthorizations(db: Db, now = Date.now()): Promise<number> {
  const result = await db
    .delete(t)
    .where(or(lt(t.expiresAt, now - DEVICE_AUTH.keepRowsMs), and(ne(t.status, "pending"), lt(t.createdAt, now - DEVICE_AUTH.keepRowsMs))))
    .run();
  return result.meta.changes;
}
