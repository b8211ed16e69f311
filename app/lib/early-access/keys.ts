// Activation keys (ADR 0012): 16 characters of A-Z and 0-9 from crypto.getRandomValues, shown
// grouped 4-4-4-4. Only a hash and the last four characters are stored; a key is typed or pasted
// with or without dashes and in any case.
import { EARLY_ACCESS } from "../constants";
import { sha256Hex } from "../crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"; // 36 symbols
// The largest multiple of 36 below 256: bytes at or above it are drawn again, so every symbol is
// equally likely (a plain modulo would favour the first 4 symbols).
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

export function generateActivationKey(): string {
  let key = "";
  while (key.length < EARLY_ACCESS.keyLength) {
    for (const byte of crypto.getRandomValues(new Uint8Array(EARLY_ACCESS.keyLength * 2))) {
      if (byte < UNBIASED_LIMIT && key.length < EARLY_ACCESS.keyLength) key += ALPHABET[byte % ALPHABET.length];
    }
  }
  return key;
}

/** "ABCD1234EFGH5678" → "ABCD-1234-EFGH-5678". */
export function formatActivationKey(key: string): string {
  return key.match(/.{1,4}/g)?.join("-") ?? key;
}

const WHOLE_KEY = new RegExp(`^[A-Z0-9]{${EARLY_ACCESS.keyLength}}$`);

/** What a user typed or pasted, as the whole key, or null when it cannot be one. */
export function normaliseActivationKey(input: string): string | null {
  const compact = input.replace(/[\s-]/g, "").toUpperCase();
  return WHOLE_KEY.test(compact) ? compact : null;
}

/** How a key is found without being stored: 16 random symbols (82 bits) need no slow hash. */
export function activationKeyHash(key: string): Promise<string> {
  return sha256Hex(`activation-key:${key}`);
}

/** The non-secret part shown in lists: "••••-••••-••••-5678". */
export function maskedActivationKey(last4: string): string {
  return `••••-••••-••••-${last4}`;
}

export const KEY_STATES = ["unused", "used", "expired", "revoked"] as const;
export type KeyState = (typeof KEY_STATES)[number];

/** A stored key's state: withdrawn first, then spent, then past its expiry. */
export function keyState(row: { isUsed: boolean; revokedAt: number | null; expiresAt: number }, now: number): KeyState {
  if (row.revokedAt !== null) return "revoked";
  if (row.isUsed) return "used";
  return row.expiresAt <= now ? "expired" : "unused";
}
