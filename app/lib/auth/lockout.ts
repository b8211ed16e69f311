// Failed-attempt counters and locks in KV, keyed per account and per client IP.
// KV is eventually consistent (a write can take up to 60 s to reach other locations), so a
// burst spread over several data centres may get a few extra tries; within one location the
// lock holds at once. See docs/decisions/0003-lockouts-in-kv.md.
import { LOCKOUT } from "../constants";
import { sha256Hex } from "../crypto";

export type LockoutScope = keyof typeof LOCKOUT; // "signIn" | "signUp"

type Counter = { failures: number; lockedUntil: number | null };

const KV_MIN_TTL_S = 60;

export async function lockoutKeys(scope: LockoutScope, ids: { email?: string; ip?: string | null }): Promise<string[]> {
  const keys: string[] = [];
  if (ids.email) keys.push(`lockout:${scope}:account:${await sha256Hex(ids.email.toLowerCase())}`);
  if (ids.ip) keys.push(`lockout:${scope}:ip:${ids.ip}`);
  return keys;
}

async function read(kv: KVNamespace, key: string): Promise<Counter> {
  const value = await kv.get<Counter>(key, "json");
  return value ?? { failures: 0, lockedUntil: null };
}

/** Seconds left on the longest active lock among the keys, or 0 when none is locked. */
export async function lockedForSeconds(kv: KVNamespace, keys: string[], now = Date.now()): Promise<number> {
  let longest = 0;
  for (const counter of await Promise.all(keys.map((k) => read(kv, k)))) {
    if (counter.lockedUntil && counter.lockedUntil > now) {
      longest = Math.max(longest, Math.ceil((counter.lockedUntil - now) / 1000));
    }
  }
  return longest;
}

/** Counts one failure on every key; returns the keys this failure locked (empty: none). */
export async function recordFailure(kv: KVNamespace, scope: LockoutScope, keys: string[], now = Date.now()): Promise<string[]> {
  const { maxFailures, lockMs } = LOCKOUT[scope];
  const locked: string[] = [];
  await Promise.all(
    keys.map(async (key) => {
      const counter = await read(kv, key);
      const failures = counter.failures + 1;
      const lockedUntil = failures > maxFailures ? now + lockMs : counter.lockedUntil;
      if (failures > maxFailures) locked.push(key);
      // The counter forgets old failures once a lock period has passed without another one.
      const ttl = Math.max(KV_MIN_TTL_S, Math.ceil(lockMs / 1000));
      await kv.put(key, JSON.stringify({ failures, lockedUntil } satisfies Counter), { expirationTtl: ttl });
    }),
  );
  return locked;
}

export async function clearFailures(kv: KVNamespace, keys: string[]): Promise<void> {
  await Promise.all(keys.map((k) => kv.delete(k)));
}
