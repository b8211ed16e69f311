// The pieces of two-factor sign-in that hold no rule: the TOTP secret's encryption at rest (it
// must be read back to check codes, so it cannot be hashed), recovery codes and their hashes, and
// the signed "password proven, code pending" value of the web sign-in's second step.
import { TWO_FACTOR } from "../constants";
import { fromBase64Url, randomBytes, sha256Hex, timingSafeEqual, toBase64Url } from "../crypto";

const encoder = new TextEncoder();
const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

async function derivedKey(jwtSecret: string, purpose: string, usage: "AES-GCM" | "HMAC"): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey("raw", encoder.encode(jwtSecret), "HKDF", false, ["deriveKey"]);
  const params = { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: encoder.encode(purpose) };
  return usage === "AES-GCM"
    ? crypto.subtle.deriveKey(params, base, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"])
    : crypto.subtle.deriveKey(params, base, { name: "HMAC", hash: "SHA-256", length: 256 }, false, ["sign", "verify"]);
}

export async function encryptSecret(jwtSecret: string, secret: string): Promise<string> {
  const iv = randomBytes(12);
  const key = await derivedKey(jwtSecret, "modelify:two-factor:secret", "AES-GCM");
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, encoder.encode(secret)));
  return `${toBase64Url(iv)}.${toBase64Url(sealed)}`;
}

export async function decryptSecret(jwtSecret: string, stored: string): Promise<string> {
  const [iv = "", sealed = ""] = stored.split(".");
  const key = await derivedKey(jwtSecret, "modelify:two-factor:secret", "AES-GCM");
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64Url(iv) }, key, fromBase64Url(sealed));
  return new TextDecoder().decode(plain);
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

/** "userId.expiresAt.signature": the user proved the password; the code is still to come. */
export async function signPendingSignIn(jwtSecret: string, userId: string, now = Date.now()): Promise<string> {
  const payload = `${userId}.${now + TWO_FACTOR.pendingSignInMs}`;
  const key = await derivedKey(jwtSecret, "modelify:two-factor:pending", "HMAC");
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(payload)));
  return `${payload}.${toBase64Url(signature)}`;
}

/** The user id of a live, well-signed pending sign-in; null otherwise. */
export async function readPendingSignIn(jwtSecret: string, value: string | null, now = Date.now()): Promise<string | null> {
  const [userId = "", expiresAt = "", signature = ""] = (value ?? "").split(".");
  if (!userId || !/^\d+$/.test(expiresAt) || Number(expiresAt) <= now) return null;
  const key = await derivedKey(jwtSecret, "modelify:two-factor:pending", "HMAC");
  const expected = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(`${userId}.${expiresAt}`)));
  let given: Uint8Array;
  try {
    given = fromBase64Url(signature);
  } catch {
    return null;
  }
  return timingSafeEqual(expected, given) ? userId : null;
}
