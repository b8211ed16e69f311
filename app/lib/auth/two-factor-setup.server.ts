// Turning two-factor sign-in on and off from the profile (issue 29). On: "Set up" (a POST) makes
// a secret that waits, encrypted, until the user types its first code; the page's GET only reads
// it. Then ten recovery codes are made, shown once and kept only as hashes. Each of these adds or
// removes a way in, so each takes a recent proof (lib/auth/recent-proof.server.ts): a session alone
// (left open, or stolen) can neither drop the second factor nor take codes that stand in for it.
// Each change is e-mailed.
import { generateTOTP } from "@epic-web/totp";
import { and, eq, gt, isNull, lte } from "drizzle-orm";
import { TWO_FACTOR } from "../constants";
import { type Db, schema } from "../db.server";
import { twoFactorKeys } from "../keys";
import { enqueueMail } from "../mail/mail.server";
import { recoveryCodesReplacedMail, twoFactorDisabledMail, twoFactorEnabledMail } from "../mail/templates";
import { beginAttempt, failAttempt, isRefusal, succeedAttempt } from "./lockout";
import { assertProofOf, type RecentProof } from "./recent-proof.server";
import { decryptSecret, encryptSecret, hashRecoveryCode, newRecoveryCode } from "./two-factor-secret";
import { acceptTotp, setupPicture, TOTP_OPTIONS, type TwoFactorDeps } from "./two-factor.server";
import { z } from "../zod";
import { log } from "../log/log.server";

const t = schema.twoFactor;
const codes = schema.twoFactorRecoveryCodes;

type Account = { id: string; email: string };

export type PendingSetup = { secret: string; uri: string; qrSvg: string; qrDataUri: string };

/** The setup waiting for its first code, read only: null when none was started, it outlived its time, or two-factor is on. */
export async function pendingSetup(deps: Pick<TwoFactorDeps, "db" | "env">, user: Account, now = Date.now()): Promise<PendingSetup | null> {
  const row = await deps.db.query.twoFactor.findFirst({
    where: and(eq(t.userId, user.id), isNull(t.enabledAt), gt(t.createdAt, now - TWO_FACTOR.setupTtlMs)),
  });
  if (!row) return null;
  const secret = await decryptSecret(twoFactorKeys(deps.env), row.secretEnc);
  return { secret, ...setupPicture(secret, user.email) };
}

/**
 * Starts a setup: a new secret, unless one is waiting still (its QR code may be open in another
 * tab, and replacing it would make that tab's codes fail) or two-factor is on. One statement, so
 * two starts at once keep one secret. Returns the setup; null when two-factor is on.
 */
export async function startSetup(deps: Pick<TwoFactorDeps, "db" | "env">, user: Account, proof: RecentProof, now = Date.now()): Promise<PendingSetup | null> {
  assertProofOf(proof, user.id);
  const secret = (await generateTOTP(TOTP_OPTIONS)).secret;
  const values = { secretEnc: await encryptSecret(twoFactorKeys(deps.env), secret), enabledAt: null, lastStep: null, createdAt: now };
  await deps.db
    .insert(t)
    .values({ userId: user.id, ...values })
    .onConflictDoUpdate({ target: t.userId, set: values, setWhere: and(isNull(t.enabledAt), lte(t.createdAt, now - TWO_FACTOR.setupTtlMs)) });
  return pendingSetup(deps, user, now);
}

/** Ten new recovery codes (the only time they exist in clear), and the statements that put their hashes in place of the old ones. */
async function freshRecoveryCodes(db: Db, userId: string, now: number) {
  const recoveryCodes = Array.from({ length: TWO_FACTOR.recoveryCodes }, newRecoveryCode);
  const hashes = await Promise.all(recoveryCodes.map(hashRecoveryCode));
  const statements = [
    db.delete(codes).where(eq(codes.userId, userId)),
    db.insert(codes).values(hashes.map((codeHash) => ({ userId, codeHash, createdAt: now }))),
  ] as const;
  return { recoveryCodes, statements };
}

export type SetupOutcome =
  | { ok: true; recoveryCodes: string[] }
  | { ok: false; reason: "invalid" | "expired" }
  | { ok: false; reason: "locked"; retryAfterSeconds: number };

/** The first code of the app: turns two-factor on and returns the recovery codes (the only time they exist in clear). */
export async function confirmSetup(deps: TwoFactorDeps, user: Account, code: string, proof: RecentProof, now = Date.now()): Promise<SetupOutcome> {
  assertProofOf(proof, user.id);
  const row = await deps.db.query.twoFactor.findFirst({ where: and(eq(t.userId, user.id), isNull(t.enabledAt)) });
  if (!row || row.createdAt <= now - TWO_FACTOR.setupTtlMs) return { ok: false, reason: "expired" };
  const attempt = await beginAttempt(deps.db, "twoFactor", { email: user.id, ip: deps.ip }, now);
  if (isRefusal(attempt)) return { ok: false, reason: "locked", retryAfterSeconds: attempt.retryAfterSeconds };
  const secret = await decryptSecret(twoFactorKeys(deps.env), row.secretEnc);
  if (!(await acceptTotp(deps.db, user.id, secret, code.replace(/\s/g, "").slice(0, 12), false))) {
    const failure = await failAttempt(deps.db, attempt, now);
    // Logged, not mailed: the account has no second factor yet, and whoever typed these codes has its secret on screen.
    if (failure.locked && failure.trip)
      log.info("two_factor_lock_tripped", { userId: user.id, trips: failure.trip.count, lockMs: failure.trip.lockMs, setup: true });
    return failure.locked ? { ok: false, reason: "locked", retryAfterSeconds: failure.retryAfterSeconds } : { ok: false, reason: "invalid" };
  }
  await succeedAttempt(deps.db, attempt);
  const { recoveryCodes, statements } = await freshRecoveryCodes(deps.db, user.id, now);
  await deps.db.batch([deps.db.update(t).set({ enabledAt: now }).where(eq(t.userId, user.id)), ...statements]);
  await enqueueMail(deps.queue, twoFactorEnabledMail(user.email));
  log.info("two_factor_enabled", { userId: user.id });
  return { ok: true, recoveryCodes };
}

/** Turning it off: the secret and every recovery code go. */
export async function disableTwoFactor(deps: TwoFactorDeps, user: Account, proof: RecentProof): Promise<void> {
  assertProofOf(proof, user.id);
  await deps.db.batch([deps.db.delete(codes).where(eq(codes.userId, user.id)), deps.db.delete(t).where(eq(t.userId, user.id))]);
  await enqueueMail(deps.queue, twoFactorDisabledMail(user.email));
  log.info("two_factor_disabled", { userId: user.id });
}

/** New recovery codes in place of all the old ones (used or not), returned to be shown once. */
export async function regenerateRecoveryCodes(deps: TwoFactorDeps, user: Account, proof: RecentProof, now = Date.now()): Promise<string[]> {
  assertProofOf(proof, user.id);
  const { recoveryCodes, statements } = await freshRecoveryCodes(deps.db, user.id, now);
  await deps.db.batch(statements);
  await enqueueMail(deps.queue, recoveryCodesReplacedMail(user.email));
  log.info("two_factor_recovery_codes_replaced", { userId: user.id });
  return recoveryCodes;
}

// Asked only while the session has no recent proof (the helper says which are missing).
const proofFields = {
  password: z.string().max(200).optional(),
  code: z.string().trim().max(TWO_FACTOR.codeMaxLength).optional(),
};

const HALF = Math.floor(TWO_FACTOR.digits / 2);
const CONFIRM_CODE = new RegExp(`^\\d{${HALF}} ?\\d{${TWO_FACTOR.digits - HALF}}$`);

/** The two-factor page's forms, as the server checks them. */
export const twoFactorFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("start") }),
  z.object({
    intent: z.literal("confirm"),
    code: z
      .string()
      .trim()
      // As apps show it, with or without the space between its halves ("123 456").
      .regex(CONFIRM_CODE, `Enter the ${TWO_FACTOR.digits}-digit code your app shows.`),
  }),
  z.object({ intent: z.literal("disable"), ...proofFields }),
  z.object({ intent: z.literal("regenerate"), ...proofFields }),
]);
