// Two-factor sign-in with an authenticator app (issue 29): the one owner of its rules. A code is
// a six-digit RFC 6238 code (SHA-1, 30 s) or one of ten recovery codes. Every code checked is an
// attempt on the account's two-factor counter, reserved before the check (the sign-in lockout's
// rules: locked 15 minutes after more than 4 wrong codes), so a parallel burst gets no more
// checks than the rule allows. Each lock lasts twice the one before, up to a day, and mails the
// owner: whoever trips it has the password (or a session). A TOTP code is accepted once: the
// accepted time step is written only when it is later than the last one (one statement, so two
// requests with one code cannot both pass), and a recovery code is used up in one statement too.
import { getTOTPAuthUri, verifyTOTP } from "@epic-web/totp";
import { and, count, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import { renderSVG } from "uqr";
import { TWO_FACTOR } from "../constants";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { type KeySettings, twoFactorKeys } from "../keys";
import { enqueueMail } from "../mail/mail.server";
import { codeLockTrippedMail, recoveryCodeUsedMail } from "../mail/templates";
import { beginAttempt, failAttempt, isRefusal, type LockTrip, succeedAttempt } from "./lockout";
import { asTotpCode, decryptSecret, hashRecoveryCode, normaliseRecoveryCode } from "./two-factor-secret";
import { findUserById } from "./users.server";
import { log } from "../log/log.server";

export type TwoFactorDeps = {
  db: Db;
  queue: Queue;
  env: KeySettings<"TWO_FACTOR_KEY" | "TWO_FACTOR_KEY_PREVIOUS">;
  ip: string | null;
  /** Origin for the link in the mail a tripped lock sends: APP_URL when configured, else the request's own. */
  origin: string;
};

/** "locked" carries the time left in the lock, for the 429's Retry-After. */
export type SecondFactorResult = { ok: true } | { ok: false; reason: "invalid" } | { ok: false; reason: "locked"; retryAfterSeconds: number };

const t = schema.twoFactor;
const codes = schema.twoFactorRecoveryCodes;

export const TOTP_OPTIONS = { algorithm: TWO_FACTOR.algorithm, digits: TWO_FACTOR.digits, period: TWO_FACTOR.periodSeconds } as const;

/** Whether the account has two-factor sign-in turned on (a confirmed setup). */
export async function twoFactorEnabled(db: Db, userId: string): Promise<boolean> {
  const row = await db.query.twoFactor.findFirst({ where: and(eq(t.userId, userId), isNotNull(t.enabledAt)), columns: { userId: true } });
  return row !== undefined;
}

export type TwoFactorStatus = { enabled: false } | { enabled: true; enabledAt: number; recoveryCodesLeft: number };

/** What the profile's card shows. */
export async function twoFactorStatus(db: Db, userId: string): Promise<TwoFactorStatus> {
  const row = await db.query.twoFactor.findFirst({ where: eq(t.userId, userId) });
  if (!row?.enabledAt) return { enabled: false };
  const [left] = await db
    .select({ n: count() })
    .from(codes)
    .where(and(eq(codes.userId, userId), isNull(codes.usedAt)));
  return { enabled: true, enabledAt: row.enabledAt, recoveryCodesLeft: left?.n ?? 0 };
}

/** The current 30 s time step, as RFC 6238 counts it. */
function currentStep(now = Date.now()): number {
  return Math.floor(now / 1000 / TWO_FACTOR.periodSeconds);
}

/**
 * Checks a TOTP code against a secret and takes its time step for the user: true only when the
 * code is right and its step is later than the last accepted one (a replay is refused).
 */
export async function acceptTotp(db: Db, userId: string, secret: string, otp: string, requireEnabled: boolean): Promise<boolean> {
  const match = await verifyTOTP({ otp, secret, ...TOTP_OPTIONS, window: TWO_FACTOR.window });
  if (!match) return false;
  const step = currentStep() + match.delta;
  const taken = await db
    .update(t)
    .set({ lastStep: step })
    .where(and(eq(t.userId, userId), or(isNull(t.lastStep), lt(t.lastStep, step)), requireEnabled ? isNotNull(t.enabledAt) : isNull(t.enabledAt)))
    .returning({ userId: t.userId });
  return taken.length === 1;
}

/** Uses up a recovery code: true for exactly one of any number of parallel uses. */
async function spendRecoveryCode(deps: TwoFactorDeps, userId: string, input: string, now: number): Promise<boolean> {
  if (normaliseRecoveryCode(input).length === 0) return false;
  const used = await deps.db
    .update(codes)
    .set({ usedAt: now })
    .where(and(eq(codes.userId, userId), eq(codes.codeHash, await hashRecoveryCode(input)), isNull(codes.usedAt)))
    .returning({ userId: codes.userId });
  if (used.length !== 1) return false;
  const [user, status] = await Promise.all([findUserById(deps.db, userId), twoFactorStatus(deps.db, userId)]);
  if (user) await enqueueMail(deps.queue, recoveryCodeUsedMail(user.email, status.enabled ? status.recoveryCodesLeft : 0));
  log.info("two_factor_recovery_code_used", { userId });
  return true;
}

/**
 * The second factor of an account with two-factor on: a code from the authenticator app or a
 * recovery code. Counts the attempt (refused while the account's two-factor lock lasts) and
 * refuses a replayed TOTP code. The deletion re-proof and every sign-in path call this.
 */
export async function verifySecondFactor(deps: TwoFactorDeps, userId: string, code: string, now = Date.now()): Promise<SecondFactorResult> {
  const attempt = await beginAttempt(deps.db, "twoFactor", { email: userId, ip: deps.ip }, now);
  if (isRefusal(attempt)) return { ok: false, reason: "locked", retryAfterSeconds: attempt.retryAfterSeconds };
  const row = await deps.db.query.twoFactor.findFirst({ where: and(eq(t.userId, userId), isNotNull(t.enabledAt)) });
  const input = code.trim().slice(0, 64);
  const otp = asTotpCode(input);
  let ok = false;
  if (row && otp) ok = await acceptTotp(deps.db, userId, await decryptSecret(twoFactorKeys(deps.env), row.secretEnc), otp, true);
  else if (row) ok = await spendRecoveryCode(deps, userId, input, now);
  if (ok) {
    await succeedAttempt(deps.db, attempt);
    return { ok: true };
  }
  const failure = await failAttempt(deps.db, attempt, now);
  log.info("two_factor_code_refused", { userId, locked: failure.locked });
  if (failure.locked && failure.trip) await lockTripped(deps, userId, failure.trip);
  return failure.locked ? { ok: false, reason: "locked", retryAfterSeconds: failure.retryAfterSeconds } : { ok: false, reason: "invalid" };
}

/**
 * The wrong code that locked the account: its owner hears of it, once per lock (one failure of a
 * burst is the tripping one, however many arrive together), with a way to change the password.
 */
async function lockTripped(deps: TwoFactorDeps, userId: string, trip: LockTrip): Promise<void> {
  log.info("two_factor_lock_tripped", { userId, trips: trip.count, lockMs: trip.lockMs });
  const user = await findUserById(deps.db, userId);
  // No signed-in page changes the password yet: the reset link is the way, and it signs out every other session.
  if (user) await enqueueMail(deps.queue, codeLockTrippedMail(user.email, new URL("/auth?mode=forgot-password", deps.origin).toString()));
}

/** The otpauth:// URI an authenticator app reads, and its QR code as an SVG drawn on the server. */
export function setupPicture(secret: string, accountName: string): { uri: string; qrSvg: string; qrDataUri: string } {
  const uri = getTOTPAuthUri({ secret, accountName, issuer: TWO_FACTOR.issuer, ...TOTP_OPTIONS });
  const qrSvg = renderSVG(uri, { border: 2 });
  // An <img> of the SVG (data: images are allowed by the CSP): nothing of it is parsed as the page's markup.
  return { uri, qrSvg, qrDataUri: `data:image/svg+xml;base64,${btoa(qrSvg)}` };
}
