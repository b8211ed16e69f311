// Turning two-factor sign-in on and off from the profile (issue 29). On: a new secret waits,
// encrypted, until the user types its first code; then ten recovery codes are made, shown once
// and kept only as hashes. Off: the password and a code. Each change is e-mailed.
import { generateTOTP } from "@epic-web/totp";
import { and, eq, isNull } from "drizzle-orm";
import { TWO_FACTOR } from "../constants";
import { schema } from "../db.server";
import { enqueueMail } from "../mail/mail.server";
import { twoFactorDisabledMail, twoFactorEnabledMail } from "../mail/templates";
import { provePassword } from "./accounts.server";
import { beginAttempt, failAttempt, isRefusal, succeedAttempt } from "./lockout";
import { decryptSecret, encryptSecret, hashRecoveryCode, newRecoveryCode } from "./two-factor-secret";
import { acceptTotp, setupPicture, TOTP_OPTIONS, type TwoFactorDeps, verifySecondFactor } from "./two-factor.server";
import { z } from "../zod";
import { findUserById } from "./users.server";

const t = schema.twoFactor;
const codes = schema.twoFactorRecoveryCodes;

type Account = { id: string; email: string };

export type PendingSetup = { secret: string; uri: string; qrSvg: string; qrDataUri: string };

/** The setup in progress (a fresh secret when none is, or it is older than its time): null when two-factor is on already. */
export async function pendingSetup(deps: Pick<TwoFactorDeps, "db" | "env">, user: Account, now = Date.now()): Promise<PendingSetup | null> {
  const row = await deps.db.query.twoFactor.findFirst({ where: eq(t.userId, user.id) });
  if (row?.enabledAt) return null;
  let secret: string;
  if (row && row.createdAt > now - TWO_FACTOR.setupTtlMs) {
    secret = await decryptSecret(deps.env.JWT_SECRET, row.secretEnc);
  } else {
    secret = (await generateTOTP(TOTP_OPTIONS)).secret;
    const values = { secretEnc: await encryptSecret(deps.env.JWT_SECRET, secret), enabledAt: null, lastStep: null, createdAt: now };
    await deps.db
      .insert(t)
      .values({ userId: user.id, ...values })
      .onConflictDoUpdate({ target: t.userId, set: values, where: isNull(t.enabledAt) });
  }
  return { secret, ...setupPicture(secret, user.email) };
}

export type SetupOutcome =
  | { ok: true; recoveryCodes: string[] }
  | { ok: false; reason: "invalid" | "expired" }
  | { ok: false; reason: "locked"; retryAfterSeconds: number };

/** The first code of the app: turns two-factor on and returns the recovery codes (the only time they exist in clear). */
export async function confirmSetup(deps: TwoFactorDeps, user: Account, code: string, now = Date.now()): Promise<SetupOutcome> {
  const row = await deps.db.query.twoFactor.findFirst({ where: and(eq(t.userId, user.id), isNull(t.enabledAt)) });
  if (!row || row.createdAt <= now - TWO_FACTOR.setupTtlMs) return { ok: false, reason: "expired" };
  const attempt = await beginAttempt(deps.db, "twoFactor", { email: user.id, ip: deps.ip }, now);
  if (isRefusal(attempt)) return { ok: false, reason: "locked", retryAfterSeconds: attempt.retryAfterSeconds };
  const secret = await decryptSecret(deps.env.JWT_SECRET, row.secretEnc);
  if (!(await acceptTotp(deps.db, user.id, secret, code.replace(/\s/g, "").slice(0, 12), false))) {
    const failure = await failAttempt(deps.db, attempt, now);
    return failure.locked ? { ok: false, reason: "locked", retryAfterSeconds: failure.retryAfterSeconds } : { ok: false, reason: "invalid" };
  }
  await succeedAttempt(deps.db, attempt);
  const recoveryCodes = Array.from({ length: TWO_FACTOR.recoveryCodes }, newRecoveryCode);
  const hashes = await Promise.all(recoveryCodes.map(hashRecoveryCode));
  await deps.db.batch([
    deps.db.update(t).set({ enabledAt: now }).where(eq(t.userId, user.id)),
    deps.db.delete(codes).where(eq(codes.userId, user.id)),
    deps.db.insert(codes).values(hashes.map((codeHash) => ({ userId: user.id, codeHash, createdAt: now }))),
  ]);
  await enqueueMail(deps.queue, twoFactorEnabledMail(user.email));
  console.log(JSON.stringify({ event: "two_factor_enabled", userId: user.id }));
  return { ok: true, recoveryCodes };
}

export type DisableOutcome =
  | { ok: true }
  | { ok: false; reason: "wrong-password" | "invalid" }
  /** The lock of the factor that was refused, and the time left in it. */
  | { ok: false; reason: "locked"; factor: "password" | "code"; retryAfterSeconds: number };

/** Turning it off takes the password (under the sign-in lockout) and a code (under the two-factor one). */
export async function disableTwoFactor(deps: TwoFactorDeps, userId: string, input: { password: string; code: string }): Promise<DisableOutcome> {
  const user = await findUserById(deps.db, userId);
  if (!user) return { ok: false, reason: "wrong-password" };
  const proven = await provePassword(deps.db, user, input.password, deps.ip);
  if (!proven.ok) {
    if (proven.reason === "wrong") return { ok: false, reason: "wrong-password" };
    return { ok: false, reason: "locked", factor: "password", retryAfterSeconds: proven.retryAfterSeconds };
  }
  const second = await verifySecondFactor(deps, userId, input.code);
  if (!second.ok) return second.reason === "locked" ? { ...second, factor: "code" } : second;
  await deps.db.batch([deps.db.delete(codes).where(eq(codes.userId, userId)), deps.db.delete(t).where(eq(t.userId, userId))]);
  await enqueueMail(deps.queue, twoFactorDisabledMail(user.email));
  console.log(JSON.stringify({ event: "two_factor_disabled", userId }));
  return { ok: true };
}

/** The setup page's two forms, as the server checks them. */
export const twoFactorFormSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("confirm"),
    code: z
      .string()
      .trim()
      .regex(/^\d{3} ?\d{3}$/, "Enter the 6-digit code your app shows."),
  }),
  z.object({
    intent: z.literal("disable"),
    password: z.string().min(1, "Enter your password.").max(200),
    code: z.string().trim().min(1, "Enter a code from your app, or a recovery code.").max(TWO_FACTOR.codeMaxLength),
  }),
]);
