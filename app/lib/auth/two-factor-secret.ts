// The pieces of two-factor sign-in that hold no rule: the TOTP secret's encryption at rest (it
// must be read back to check codes, so it cannot be hashed), recovery codes and their hashes, and
// the signed "password proven, code pending" value of the web sign-in's second step.
import { TWO_FACTOR } from "../constants";
import { fromBase64Url, randomBytes, sha256Hex, timingSafeEqual, toBase64Url } from "../crypto";
import { type Keyring, keysOf } from "../keys";
import { openText, sealText } from "../sealed";

const encoder = new TextEncoder();
const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";
const SECRET_PURPOSE = "modelify:two-factor:secret";

async function hmacKey(secret: string, purpose: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);
  const params = { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: encoder.encode(purpose) };
  return crypto.subtle.deriveKey(params, base, { name: "HMAC", hash: "SHA-256", length: 256 }, false, ["sign", "verify"]);
}

/** `<key id>.<iv>.<ciphertext>`, under the ring's current key (TWO_FACTOR_KEY). */
export function encryptSecret(keys: Keyring, secret: string): Promise<string> {
  return sealText(keys, SECRET_PURPOSE, secret);
}

/**
 * The stored secret in clear (lib/sealed.ts). A value from before values named their key,
 * encrypted under JWT_SECRET, opens once that is set as TWO_FACTOR_KEY_PREVIOUS (ADR 0026).
 * Throws when no key of the ring opens it.
 */
export async function decryptSecret(keys: Keyring, stored: string): Promise<string> {
  const clear = await openText(keys, SECRET_PURPOSE, stored);
  if (clear === null) throw new Error("The two-factor secret is under a key this Worker no longer holds (TWO_FACTOR_KEY, TWO_FACTOR_KEY_PREVIOUS)");
  return clear;
}

/** A recovery code as shown once: 16 base32 letters in four groups (80 random bits). */
export function newRecoveryCode(): string {
  const bytes = randomBytes(TWO_FACTOR.recoveryCodeBytes);
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out.match(/.{1,4}/g)!.join("-");
}

/** Spaces, dashes and case do not matter in a typed recovery code. */
export function normaliseRecoveryCode(input: string): string {
  return input.toLowerCase().replace(/[^a-z0-9]/g, "");
}

export function hashRecoveryCode(code: string): Promise<string> {
  return sha256Hex(`recovery:${normaliseRecoveryCode(code)}`);
}

/** A six-digit code from an authenticator app, spaces allowed ("123 456"); null when it is not one. */
export function asTotpCode(input: string): string | null {
  const digits = input.replace(/\s/g, "");
  return new RegExp(`^\\d{${TWO_FACTOR.digits}}$`).test(digits) ? digits : null;
}

/** "userId.expiresAt.signature": the user proved the password; the code is still to come. Signed with the session keys' current one. */
export async function signPendingSignIn(keys: Keyring, userId: string, now = Date.now()): Promise<string> {
  const payload = `${userId}.${now + TWO_FACTOR.pendingSignInMs}`;
  return `${payload}.${toBase64Url(await pendingMac(keys.current, payload))}`;
}

async function pendingMac(secret: string, payload: string): Promise<Uint8Array> {
  const key = await hmacKey(secret, "modelify:two-factor:pending");
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(payload)));
}

/** The user id of a live pending sign-in signed with the current or previous session key; null otherwise. */
export async function readPendingSignIn(keys: Keyring, value: string | null, now = Date.now()): Promise<string | null> {
  const [userId = "", expiresAt = "", signature = ""] = (value ?? "").split(".");
  if (!userId || !/^\d+$/.test(expiresAt) || Number(expiresAt) <= now) return null;
  let given: Uint8Array;
  try {
    given = fromBase64Url(signature);
  } catch {
    return null;
  }
  for (const secret of keysOf(keys)) {
    if (timingSafeEqual(await pendingMac(secret, `${userId}.${expiresAt}`), given)) return userId;
  }
  return null;
}
