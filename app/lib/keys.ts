// Secrets that rotate without signing anyone out (issue 30). Each has a current value, which signs
// and encrypts everything new, and optionally the value before it (`<NAME>_PREVIOUS`), which is
// still accepted for what it signed before the rotation. A value older than the previous one is
// not accepted at all. The rotation sequence for each is in docs/runbook.md.
import { toBase64Url } from "./crypto";

export type Keyring = { current: string; previous?: string | undefined };

/** The values to try, current first. */
export function keysOf(ring: Keyring): string[] {
  return ring.previous && ring.previous !== ring.current ? [ring.current, ring.previous] : [ring.current];
}

// The Workers' settings each ring is made of (app/server/env.ts parses and checks them).
type Settings = {
  JWT_SECRET: string;
  JWT_SECRET_PREVIOUS?: string | undefined;
  DOWNLOAD_LINK_SECRET: string;
  DOWNLOAD_LINK_SECRET_PREVIOUS?: string | undefined;
  PHONE_CODE_SECRET: string;
  PHONE_CODE_SECRET_PREVIOUS?: string | undefined;
  TWO_FACTOR_KEY: string;
  TWO_FACTOR_KEY_PREVIOUS?: string | undefined;
};
export type KeySettings<K extends keyof Settings> = Pick<Settings, K>;

/** Access tokens, refresh-token MACs and the pending two-factor sign-in. */
export const sessionKeys = (env: KeySettings<"JWT_SECRET" | "JWT_SECRET_PREVIOUS">): Keyring => ({
  current: env.JWT_SECRET,
  previous: env.JWT_SECRET_PREVIOUS,
});
/** Signed download links (app/lib/downloads/link.ts). */
export const downloadLinkKeys = (env: KeySettings<"DOWNLOAD_LINK_SECRET" | "DOWNLOAD_LINK_SECRET_PREVIOUS">): Keyring => ({
  current: env.DOWNLOAD_LINK_SECRET,
  previous: env.DOWNLOAD_LINK_SECRET_PREVIOUS,
});
/** The HMACs of phone codes kept in KV (app/lib/phone/codes.server.ts). */
export const phoneCodeKeys = (env: KeySettings<"PHONE_CODE_SECRET" | "PHONE_CODE_SECRET_PREVIOUS">): Keyring => ({
  current: env.PHONE_CODE_SECRET,
  previous: env.PHONE_CODE_SECRET_PREVIOUS,
});
/** The encryption of alert webhooks' signing secrets at rest (app/lib/alerts/webhook-secret.ts); null when WEBHOOK_KEY is not set. */
export const webhookKeys = (env: { WEBHOOK_KEY?: string | undefined; WEBHOOK_KEY_PREVIOUS?: string | undefined }): Keyring | null =>
  env.WEBHOOK_KEY ? { current: env.WEBHOOK_KEY, previous: env.WEBHOOK_KEY_PREVIOUS } : null;
/** The encryption of authenticator secrets at rest (app/lib/auth/two-factor-secret.ts). */
export const twoFactorKeys = (env: KeySettings<"TWO_FACTOR_KEY" | "TWO_FACTOR_KEY_PREVIOUS">): Keyring => ({
  current: env.TWO_FACTOR_KEY,
  previous: env.TWO_FACTOR_KEY_PREVIOUS,
});

const encoder = new TextEncoder();
const KEY_ID_LABEL = "modelify key id v1";
const keyIds = new Map<string, Promise<string>>();

/**
 * A key's public name (the `kid` of a token, the prefix of an encrypted value): 64 bits of an HMAC
 * of a fixed label under the key, so it tells which key was used and nothing about the key.
 * Computed once per key and isolate.
 */
export function keyId(secret: string): Promise<string> {
  let id = keyIds.get(secret);
  if (!id) {
    id = crypto.subtle
      .importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
      .then((key) => crypto.subtle.sign("HMAC", key, encoder.encode(KEY_ID_LABEL)))
      .then((mac) => toBase64Url(new Uint8Array(mac, 0, 8)));
    keyIds.set(secret, id);
    id.catch(() => keyIds.delete(secret));
  }
  return id;
}

/** The ring's value whose key id is `id`, or null: a value signed with a key older than the previous one. */
export async function keyWithId(ring: Keyring, id: string): Promise<string | null> {
  for (const secret of keysOf(ring)) if ((await keyId(secret)) === id) return secret;
  return null;
}

// Keys of one purpose each, derived from a Worker secret with a label, so a MAC made for one
// purpose means nothing for another even if an operator gave two purposes the same value.
// Derived once per secret, label and isolate.
const purposeKeys = new Map<string, Promise<CryptoKey>>();

/** HMAC-SHA-256 of `data` under the key `secret` derives for `label`. */
export async function labelledMac(secret: string, label: string, data: string | Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const cacheKey = `${label}\u0000${secret}`;
  let key = purposeKeys.get(cacheKey);
  if (!key) {
    key = crypto.subtle
      .importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
      .then((base) => crypto.subtle.sign("HMAC", base, encoder.encode(label)))
      .then((derived) => crypto.subtle.importKey("raw", derived, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]));
    purposeKeys.set(cacheKey, key);
    key.catch(() => purposeKeys.delete(cacheKey));
  }
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  return new Uint8Array(await crypto.subtle.sign("HMAC", await key, bytes));
}
