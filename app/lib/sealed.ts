// Secrets the site must read back (so cannot hash), kept encrypted at rest: AES-GCM under a key
// derived from a Worker secret's keyring and a purpose label, the value prefixed with the id of
// the key it was sealed under, so a rotation (ADR 0026) opens old values with the previous key.
import { fromBase64Url, randomBytes, toBase64Url } from "./crypto";
import { type Keyring, keyId, keysOf, keyWithId } from "./keys";

const encoder = new TextEncoder();

async function aesKey(secret: string, purpose: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);
  const params = { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: encoder.encode(purpose) };
  return crypto.subtle.deriveKey(params, base, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
}

/** `<key id>.<iv>.<ciphertext>`, under the ring's current key. */
export async function sealText(keys: Keyring, purpose: string, text: string): Promise<string> {
  const iv = randomBytes(12);
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await aesKey(keys.current, purpose), encoder.encode(text)));
  return `${await keyId(keys.current)}.${toBase64Url(iv)}.${toBase64Url(sealed)}`;
}

/**
 * The sealed text in clear, or null when no key of the ring opens it. Its key id picks the key; a
 * value from before values named their key (`<iv>.<ciphertext>`) is tried under each of the
 * ring's keys. AES-GCM refuses a wrong key, so nothing is read wrongly.
 */
export async function openText(keys: Keyring, purpose: string, stored: string): Promise<string | null> {
  const parts = stored.split(".");
  const [iv = "", sealed = ""] = parts.slice(-2);
  const candidates = parts.length === 3 ? [await keyWithId(keys, parts[0]!)].filter((k) => k !== null) : keysOf(keys);
  for (const secret of candidates) {
    try {
      const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64Url(iv) }, await aesKey(secret, purpose), fromBase64Url(sealed));
      return new TextDecoder().decode(plain);
    } catch {
      // The next key of the ring, if any.
    }
  }
  return null;
}
