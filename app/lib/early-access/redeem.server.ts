// Redeeming a key from a form: the rate limits around redeemActivationKey and the answer a person
// sees. Each attempt is reserved per user and per client address before the key is looked at, so
// a burst of guesses gets no more checks than the limits allow; a success gives its reservations back.
import { ipSubject } from "../auth/lockout";
import { EARLY_ACCESS, MS } from "../constants";
import type { Db } from "../db.server";
import { releaseAttempt, reserveAttempt, secondsUntil } from "../limits/counters.server";
import { redeemActivationKey, type RedeemFailure } from "./keys.server";
import { normaliseActivationKey } from "./keys";
import { EARLY_ACCESS_MESSAGES as M } from "./messages";

export type RedeemAnswer =
  | { ok: true; message: string; expiresAt: number }
  | { ok: false; status: 400 | 404 | 409 | 410; message: string }
  | { ok: false; status: 429; message: string; retryAfterSeconds: number };

const FAILURE: Record<RedeemFailure, { status: 404 | 409 | 410; message: string }> = {
  unknown: { status: 404, message: M.unknownKey },
  used: { status: 409, message: M.usedKey },
  expired: { status: 410, message: M.expiredKey },
  revoked: { status: 410, message: M.revokedKey },
  alreadyActive: { status: 409, message: M.alreadyActive },
};

function redeemLimitKeys(userId: string, ip: string | null) {
  return { user: `redeem:user:${userId}`, ip: ip ? `redeem:ip:${ipSubject(ip)}` : null };
}

export async function redeemKeyForUser(deps: { db: Db; ip: string | null }, userId: string, input: string, now = Date.now()): Promise<RedeemAnswer> {
  const { db } = deps;
  const rules = EARLY_ACCESS.redeemAttempts;
  const limitKeys = redeemLimitKeys(userId, deps.ip);
  const [byUser, byIp] = await Promise.all([
    reserveAttempt(db, limitKeys.user, rules.perUser, now),
    limitKeys.ip ? reserveAttempt(db, limitKeys.ip, rules.perIp, now) : null,
  ]);
  // Gives back the reservations that were taken: on a refusal by the other limit (that attempt
  // was never checked, so one account cannot lock out its office's address, nor a busy address an
  // account), and whenever the attempt turns out not to be a guess.
  const giveBack = () =>
    Promise.all([
      byUser.allowed ? releaseAttempt(db, limitKeys.user, rules.perUser.maxFailures) : null,
      byIp?.allowed && limitKeys.ip ? releaseAttempt(db, limitKeys.ip, rules.perIp.maxFailures) : null,
    ]);
  const refused = [byUser, byIp].filter((r) => r && !r.allowed);
  if (refused.length > 0) {
    await giveBack();
    const until = Math.max(...refused.map((r) => r!.expiresAt));
    return {
      ok: false,
      status: 429,
      message: M.tooManyAttempts(Math.max(1, Math.ceil((until - now) / MS.MINUTE))),
      retryAfterSeconds: secondsUntil(until, now),
    };
  }

  const key = normaliseActivationKey(input);
  if (!key) {
    // A typo that cannot be a key guesses nothing.
    await giveBack();
    return { ok: false, status: 400, message: M.invalidKey };
  }
  const result = await redeemActivationKey(db, userId, key, now);
  if (result.ok) {
    await giveBack();
    return { ok: true, message: M.redeemed, expiresAt: result.expiresAt };
  }
  // Trying a key while already a member guesses nothing: it does not count against the limits.
  if (result.reason === "alreadyActive") await giveBack();
  return { ok: false, ...FAILURE[result.reason] };
}
