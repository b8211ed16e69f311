// Phone verification by SMS code. A code is 6 random digits, sent to the profile's number and kept
// in KV for PHONE_CODE.ttlSeconds under the user, as an HMAC bound to the code's own id, the user
// and the number. KV has no atomic operations, so everything that must hold under parallel
// requests goes through D1: the send gate (a compare-and-set on user_profiles.phone_code_sent_at),
// the send limits and the wrong-attempt budget (attempt counters), and single use (a counter
// that only its first increment passes).
import { and, eq, isNull } from "drizzle-orm";
import { normalisePhone } from "../auth/validation";
import { PHONE_CODE } from "../constants";
import { timingSafeEqual, toHex } from "../crypto";
import { type Keyring, keysOf } from "../keys";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { countEvent, reserveAttempt, secondsUntil } from "../limits/counters.server";
import { z } from "../zod";
import { E164_PATTERN, generatePhoneCode, isE164, phoneCodeSms } from "./code";
import type { PhoneFailed, PhoneFailure } from "./outcome";
import { enqueueSms } from "./sms.server";
import { PHONE_CODE_TTL_MS } from "./status";
import { log } from "../log/log.server";

export type PhoneDeps = {
  db: Db;
  kv: KVNamespace;
  queue: Queue;
  /** PHONE_CODE_SECRET (and its previous value): codes are stored as HMACs under a key derived from it. */
  keys: Keyring;
  /** Where the SMS link points (APP_URL or the request's origin). */
  origin: string;
};

export type PhoneCodeSent =
  | { ok: true; state: "verifying"; phone: string; expiresAt: number /** false when a live code was kept */; sent: boolean }
  | { ok: true; state: "verified"; phone: string };

export type PhoneCodeChecked = { ok: true; state: "verified"; phone: string };

const storedCodeSchema = z.object({
  id: z.uuid(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  phone: z.string().regex(E164_PATTERN),
  sentAt: z.number().int(),
  expiresAt: z.number().int(),
});
type StoredPhoneCode = z.infer<typeof storedCodeSchema>;

/** The KV key of a user's code: one live code per user. */
export const phoneCodeKey = (userId: string) => `phone-code:${userId}`;

const fail = (reason: PhoneFailure, minutes?: number): PhoneFailed => (minutes === undefined ? { ok: false, reason } : { ok: false, reason, minutes });
/** A limit's refusal that lifts at `until`: the wait goes out as Retry-After with the 429. */
const refuse = (reason: PhoneFailure, until: number, now: number, minutes?: number): PhoneFailed => ({
  ...fail(reason, minutes),
  retryAfterSeconds: secondsUntil(until, now),
});

async function readCode(kv: KVNamespace, userId: string): Promise<StoredPhoneCode | null> {
  let raw: unknown;
  try {
    raw = await kv.get(phoneCodeKey(userId), "json");
  } catch {
    return null;
  }
  const parsed = storedCodeSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

// A key of its own, derived from PHONE_CODE_SECRET: a stored code hash is worth nothing elsewhere,
// and a copy of KV alone is not enough to try the million codes offline.
const KEY_LABEL = "modelify phone code v1";
const encoder = new TextEncoder();
const derivedKeys = new Map<string, Promise<CryptoKey>>();

function codeKey(secret: string): Promise<CryptoKey> {
  let key = derivedKeys.get(secret);
  if (!key) {
    key = (async () => {
      const base = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
      const derived = await crypto.subtle.sign("HMAC", base, encoder.encode(KEY_LABEL));
      return crypto.subtle.importKey("raw", derived, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    })();
    derivedKeys.set(secret, key);
    key.catch(() => derivedKeys.delete(secret));
  }
  return key;
}

async function codeMac(secret: string, input: { id: string; userId: string; phone: string; code: string }): Promise<Uint8Array> {
  const payload = `${input.id}:${input.userId}:${input.phone}:${input.code}`;
  return new Uint8Array(await crypto.subtle.sign("HMAC", await codeKey(secret), encoder.encode(payload)));
}

async function profilePhone(db: Db, userId: string) {
  return db.query.userProfiles.findFirst({
    where: eq(schema.userProfiles.userId, userId),
    columns: { phoneNumber: true, phoneVerified: true, phoneCodeSentAt: true },
  });
}

/** The minutes until a counter window ends, at least 1. */
const minutesUntil = (expiresAt: number, now: number) => Math.max(1, Math.ceil((expiresAt - now) / 60_000));

/**
 * Sends a code to the profile's number, unless one is still live for that number: then it
 * answers that code's expiry and sends nothing (resend stays closed until the code expires).
 */
export async function sendPhoneCode(deps: PhoneDeps, userId: string, now = Date.now()): Promise<PhoneCodeSent | PhoneFailed> {
  const { db, kv } = deps;
  const profile = await profilePhone(db, userId);
  if (!profile?.phoneNumber?.trim()) return fail("no-phone");
  const phone = normalisePhone(profile.phoneNumber);
  if (!isE164(phone)) return fail("invalid-number");
  if (profile.phoneVerified) return { ok: true, state: "verified", phone };

  const sentAt = profile.phoneCodeSentAt;
  const recent = sentAt !== null && now - sentAt < PHONE_CODE_TTL_MS;
  const stored = recent ? await readCode(kv, userId) : null;
  if (recent && stored && stored.phone === phone && stored.expiresAt > now) {
    return { ok: true, state: "verifying", phone, expiresAt: stored.expiresAt, sent: false };
  }
  // Sent moments ago and not in KV yet: that send is still on its way.
  if (recent && !stored) return { ok: true, state: "verifying", phone, expiresAt: sentAt + PHONE_CODE_TTL_MS, sent: false };

  // One send per observed state: of parallel requests, only the first moves phone_code_sent_at.
  const claimed = await db
    .update(schema.userProfiles)
    .set({ phoneCodeSentAt: now })
    .where(
      and(
        eq(schema.userProfiles.userId, userId),
        eq(schema.userProfiles.phoneNumber, profile.phoneNumber),
        sentAt === null ? isNull(schema.userProfiles.phoneCodeSentAt) : eq(schema.userProfiles.phoneCodeSentAt, sentAt),
      ),
    )
    .returning({ id: schema.userProfiles.id });
  if (claimed.length === 0) {
    const current = await profilePhone(db, userId);
    if (current?.phoneCodeSentAt == null) return fail("send-failed");
    return { ok: true, state: "verifying", phone, expiresAt: current.phoneCodeSentAt + PHONE_CODE_TTL_MS, sent: false };
  }
  const giveBack = () =>
    db
      .update(schema.userProfiles)
      .set({ phoneCodeSentAt: sentAt })
      .where(and(eq(schema.userProfiles.userId, userId), eq(schema.userProfiles.phoneCodeSentAt, now)));

  const perUser = await countEvent(db, `phone-send:user:${userId}`, PHONE_CODE.sendsPerUser.windowMs, now);
  if (perUser.count > PHONE_CODE.sendsPerUser.limit) {
    await giveBack();
    return refuse("too-many-sends", perUser.expiresAt, now, minutesUntil(perUser.expiresAt, now));
  }
  const perNumber = await countEvent(db, `phone-send:number:${phone}`, PHONE_CODE.sendsPerNumber.windowMs, now);
  if (perNumber.count > PHONE_CODE.sendsPerNumber.limit) {
    await giveBack();
    return refuse("too-many-sends", perNumber.expiresAt, now, minutesUntil(perNumber.expiresAt, now));
  }

  const code = generatePhoneCode();
  const id = crypto.randomUUID();
  const expiresAt = now + PHONE_CODE_TTL_MS;
  const value: StoredPhoneCode = { id, hash: toHex(await codeMac(deps.keys.current, { id, userId, phone, code })), phone, sentAt: now, expiresAt };
  try {
    await kv.put(phoneCodeKey(userId), JSON.stringify(value), { expirationTtl: PHONE_CODE.ttlSeconds });
    await enqueueSms(deps.queue, { to: phone, ...phoneCodeSms(deps.origin, code, phone) });
  } catch (error) {
    log.error("phone_code_send_failed", {}, error);
    await Promise.allSettled([kv.delete(phoneCodeKey(userId)), giveBack()]);
    return fail("send-failed");
  }
  return { ok: true, state: "verifying", phone, expiresAt, sent: true };
}

/** Ends a code: gone from KV, and the profile no longer "pending" on it (so a new one may be sent). */
async function endCode(deps: Pick<PhoneDeps, "db" | "kv">, userId: string, code: StoredPhoneCode) {
  const current = await readCode(deps.kv, userId);
  await Promise.all([
    current?.id === code.id ? deps.kv.delete(phoneCodeKey(userId)) : null,
    deps.db
      .update(schema.userProfiles)
      .set({ phoneCodeSentAt: null })
      .where(and(eq(schema.userProfiles.userId, userId), eq(schema.userProfiles.phoneCodeSentAt, code.sentAt))),
  ]);
}

/**
 * Checks a code against the user's live code. `phone` is the number the verification link
 * carries (the dialog sends none). Each code allows PHONE_CODE.maxWrongAttempts checks, reserved
 * before checking; the last wrong one ends the code. The profile is marked verified only if its
 * number is still the one the code went to.
 */
export async function verifyPhoneCode(
  deps: Pick<PhoneDeps, "db" | "kv" | "keys">,
  userId: string,
  input: { code: string; phone?: string },
  now = Date.now(),
): Promise<PhoneCodeChecked | PhoneFailed> {
  const { db } = deps;
  const stored = await readCode(deps.kv, userId);
  if (!stored) return fail("expired");
  if (stored.expiresAt <= now) {
    await endCode(deps, userId, stored);
    return fail("expired");
  }
  if (input.phone !== undefined && normalisePhone(input.phone) !== stored.phone) return fail("mismatch");
  const profile = await profilePhone(db, userId);
  if (!profile?.phoneNumber || normalisePhone(profile.phoneNumber) !== stored.phone) return fail("mismatch");

  const max = PHONE_CODE.maxWrongAttempts;
  const reservation = await reserveAttempt(db, `phone-check:${stored.id}`, { maxFailures: max - 1, windowMs: PHONE_CODE_TTL_MS }, now);
  if (!reservation.allowed) return refuse("too-many-attempts", reservation.expiresAt, now);
  // A code sent before PHONE_CODE_SECRET rotated was stored under the previous key.
  let right = false;
  for (const secret of keysOf(deps.keys)) {
    const given = toHex(await codeMac(secret, { id: stored.id, userId, phone: stored.phone, code: input.code }));
    if (timingSafeEqual(encoder.encode(given), encoder.encode(stored.hash))) right = true;
  }
  if (!right) {
    if (reservation.count >= max) {
      await endCode(deps, userId, stored);
      return fail("code-ended");
    }
    return fail("invalid-code");
  }

  // Two right answers at once: only the first use of this code id counts.
  const use = await countEvent(db, `phone-used:${stored.id}`, PHONE_CODE_TTL_MS, now);
  if (use.count !== 1) return fail("expired");
  const updated = await db
    .update(schema.userProfiles)
    .set({ phoneVerified: true, phoneCodeSentAt: null, updatedAt: now })
    .where(and(eq(schema.userProfiles.userId, userId), eq(schema.userProfiles.phoneNumber, profile.phoneNumber)))
    .returning({ id: schema.userProfiles.id });
  const current = await readCode(deps.kv, userId);
  if (current?.id === stored.id) await deps.kv.delete(phoneCodeKey(userId));
  // The number changed between the check and the write.
  if (updated.length === 0) return fail("mismatch");
  return { ok: true, state: "verified", phone: stored.phone };
}
