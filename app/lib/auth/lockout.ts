// The spec's lockouts (sign-in: 15 min after more than 4 failures; sign-up: 30 min after more
// than 3), held per account on the server with atomic D1 counters. The attempt is reserved
// before the password or form is checked, so a burst of parallel attempts gets exactly as many
// checks as the rule allows. The two-factor lock alone grows: each time it trips again it lasts
// twice as long, up to a day, until a correct code (TWO_FACTOR_LOCK_GROWTH says why).
//
// Per client IP there is only a guard that slows down, far later: offices and mobile carriers
// put many people behind one address, so one person's typos must never refuse another's correct
// password. After IP_GUARD failures from an address in its window, every attempt from it waits
// before it is checked, and its failures answer with the spec's "Too many sign in attempts" text.
import { IP_GUARD, LOCKOUT, TWO_FACTOR_LOCK_GROWTH } from "../constants";
import { sha256Hex } from "../crypto";
import type { Db } from "../db.server";
import { clearCounter, countEvent, currentCount, lengthenLock, releaseAttempt, reserveAttempt, secondsUntil } from "../limits/counters.server";

export type LockoutScope = keyof typeof LOCKOUT; // "signIn" | "signUp" | "twoFactor"

/** IPv6 clients usually hold a whole /64: count the prefix, not each address. */
export function ipSubject(ip: string): string {
  if (!ip.includes(":")) return ip;
  const [head = ""] = ip.split("::");
  const groups = ip.includes("::") ? head.split(":").filter(Boolean) : ip.split(":");
  return `${groups.slice(0, 4).join(":")}::/64`;
}

/** The account's key: its e-mail address (or, for two-factor codes, its user id). */
export async function accountKey(scope: LockoutScope, email: string): Promise<string> {
  return `lockout:${scope}:account:${await sha256Hex(email.trim().toLowerCase())}`;
}

/** How many times an account's two-factor lock tripped since its last correct code (TWO_FACTOR_LOCK_GROWTH). */
export function tripsKey(accountKey: string): string {
  return accountKey.replace(":account:", ":trips:");
}

/** The two-factor lock's length on each trip, first to last: every later trip gets the last. */
const TWO_FACTOR_LOCK_LADDER: readonly number[] = (() => {
  const { factor, maxLockMs } = TWO_FACTOR_LOCK_GROWTH;
  const ladder = [Math.min(LOCKOUT.twoFactor.lockMs, maxLockMs)];
  while (ladder[ladder.length - 1]! < maxLockMs) ladder.push(Math.min(ladder[ladder.length - 1]! * factor, maxLockMs));
  return ladder;
})();

export function ipGuardKey(scope: LockoutScope, ip: string): string {
  return `guard:${scope}:ip:${ipSubject(ip)}`;
}

export type Attempt = {
  scope: LockoutScope;
  accountKey: string | null;
  ipKey: string | null;
  /** This attempt is the last one the account's rule allows: failing it locks the account. */
  lastAllowed: boolean;
  /** When the account's window ends (epoch ms): a lock this attempt's failure causes lasts until then. */
  windowEndsAt: number | null;
  /** The client's address is over its guard: slow down, and say so on failure. */
  throttled: boolean;
};

export type Refusal = { refused: true; retryAfterSeconds: number };

/** Reserves the attempt; refuses it when the account is locked (or this burst used up its tries). */
export async function beginAttempt(
  db: Db,
  scope: LockoutScope,
  ids: { email?: string | null; ip?: string | null },
  now = Date.now(),
): Promise<Attempt | Refusal> {
  const rule = LOCKOUT[scope];
  const account = ids.email ? await accountKey(scope, ids.email) : null;
  const ipKey = ids.ip ? ipGuardKey(scope, ids.ip) : null;
  const [reservation, ipFailures] = await Promise.all([
    account ? reserveAttempt(db, account, { maxFailures: rule.maxFailures, windowMs: rule.lockMs }, now) : null,
    ipKey ? currentCount(db, ipKey, now) : 0,
  ]);
  if (reservation && !reservation.allowed) {
    return { refused: true, retryAfterSeconds: secondsUntil(reservation.expiresAt, now) };
  }
  const throttled = ipFailures >= IP_GUARD[scope].failures;
  if (throttled) await new Promise((resolve) => setTimeout(resolve, IP_GUARD[scope].delayMs));
  return {
    scope,
    accountKey: account,
    ipKey,
    lastAllowed: reservation?.count === rule.maxFailures + 1,
    windowEndsAt: reservation?.expiresAt ?? null,
    throttled,
  };
}

export function isRefusal(value: Attempt | Refusal): value is Refusal {
  return "refused" in value;
}

/**
 * The attempt failed: its reservation stays counted. Returns whether this failure locked the
 * account, and how long the 429 it gets should say to wait (Retry-After): the lock's end, or for a
 * throttled address the end of its guard window; null when it is no 429.
 */
export type AttemptFailure = { locked: true; retryAfterSeconds: number; trip?: LockTrip } | { locked: false; retryAfterSeconds: number | null };

/** A two-factor lock's trip: the how-many-th since the last correct code, and how long this lock lasts. */
export type LockTrip = { count: number; lockMs: number };

export async function failAttempt(db: Db, attempt: Attempt, now = Date.now()): Promise<AttemptFailure> {
  const guard = attempt.ipKey ? await countEvent(db, attempt.ipKey, IP_GUARD[attempt.scope].windowMs, now) : null;
  if (attempt.lastAllowed) {
    const lockEnds = attempt.windowEndsAt ?? now + LOCKOUT[attempt.scope].lockMs;
    if (attempt.scope !== "twoFactor" || !attempt.accountKey) return { locked: true, retryAfterSeconds: secondsUntil(lockEnds, now) };
    // The lock runs from this attempt's reservation, as the first one does, for as long as the trip's step of the ladder.
    const rule = { maxFailures: LOCKOUT.twoFactor.maxFailures, ladder: TWO_FACTOR_LOCK_LADDER, forgetAfterMs: TWO_FACTOR_LOCK_GROWTH.forgetAfterMs };
    const grown = await lengthenLock(db, attempt.accountKey, tripsKey(attempt.accountKey), rule, lockEnds - LOCKOUT.twoFactor.lockMs, now);
    return { locked: true, retryAfterSeconds: secondsUntil(grown.expiresAt ?? lockEnds, now), trip: { count: grown.trips, lockMs: grown.lockMs } };
  }
  return { locked: false, retryAfterSeconds: attempt.throttled && guard ? secondsUntil(guard.expiresAt, now) : null };
}

/**
 * The attempt was not a failure. A successful sign-in forgets the account's failures, and a
 * correct two-factor code its lock's trips as well; a valid sign-up form only gives its own
 * reservation back.
 */
export async function succeedAttempt(db: Db, attempt: Attempt): Promise<void> {
  if (!attempt.accountKey) return;
  if (attempt.scope === "twoFactor") await clearCounter(db, attempt.accountKey, tripsKey(attempt.accountKey));
  else if (attempt.scope === "signIn") await clearCounter(db, attempt.accountKey);
  else await releaseAttempt(db, attempt.accountKey, LOCKOUT[attempt.scope].maxFailures);
}

/** A password reset proves the address: it lifts the account's sign-in lock. */
export async function clearSignInLock(db: Db, email: string): Promise<void> {
  await clearCounter(db, await accountKey("signIn", email));
}
