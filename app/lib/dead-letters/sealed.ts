// The original of a dead letter, sealed with DEAD_LETTER_KEY (AES-256-GCM) so that the database,
// its backups and Time Travel hold no message text, and opened only to replay it (ADR 0024). The
// dead letter's id is the additional data: a sealed body copied onto another row does not open.
import { fromBase64Url, toBase64Url } from "../crypto";

const VERSION = "v1";
const IV_BYTES = 12;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

// The secret is text of any length (at least 32 characters, env schema): its SHA-256 is the
// AES-256 key. One import per secret and isolate.
const keys = new Map<string, Promise<CryptoKey>>();
function keyOf(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle
      .digest("SHA-256", encoder.encode(secret))
      .then((raw) => crypto.subtle.importKey("raw", raw, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]));
    keys.set(secret, key);
  }
  return key;
}

/** `v1.<iv>.<ciphertext>`, both base64url. */
export async function seal(secret: string, plaintext: string, id: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: encoder.encode(id) }, await keyOf(secret), encoder.encode(plaintext));
  return `${VERSION}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
}

/** The plaintext, or null when it does not open with this key and id (another key, a copied or altered row). */
export async function unseal(secret: string, sealed: string, id: string): Promise<string | null> {
  const [version, iv, data] = sealed.split(".");
  if (version !== VERSION || !iv || !data) return null;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromBase64Url(iv), additionalData: encoder.encode(id) },
      await keyOf(secret),
      fromBase64Url(data),
    );
    return decoder.decode(plain);
  } catch {
    return null;
  }
}
