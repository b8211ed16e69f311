import { PBKDF2_ITERATIONS, PBKDF2_MAX_ITERATIONS, PBKDF2_SALT_BYTES } from "../constants";
import { fromBase64Url, randomBytes, timingSafeEqual, toBase64Url } from "../crypto";

// Stored format: pbkdf2_sha256$<iterations>$<salt b64url>$<hash b64url>
const ALGORITHM = "pbkdf2_sha256";
const HASH_BITS = 256;

async function derive(secret: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  // Production Workers throw above 100,000 iterations while local workerd does not,
  // so the cap is enforced here where tests can see it.
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2_MAX_ITERATIONS) {
    throw new Error(`PBKDF2 iteration count ${iterations} is outside 1..${PBKDF2_MAX_ITERATIONS}`);
  }
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, HASH_BITS);
  return new Uint8Array(bits);
}

export async function hashSecret(secret: string, iterations: number = PBKDF2_ITERATIONS): Promise<string> {
  const salt = randomBytes(PBKDF2_SALT_BYTES);
  const hash = await derive(secret, salt, iterations);
  return `${ALGORITHM}$${iterations}$${toBase64Url(salt)}$${toBase64Url(hash)}`;
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [algorithm, iterationsText, saltText, hashText] = stored.split("$");
  if (algorithm !== ALGORITHM || !iterationsText || !saltText || !hashText) return false;
  const iterations = Number(iterationsText);
  const expected = fromBase64Url(hashText);
  const actual = await derive(secret, fromBase64Url(saltText), iterations);
  return timingSafeEqual(actual, expected);
}

// A real hash of a throwaway secret: verifying against it when an account does not exist
// costs the same time as a real check, so response times do not reveal which e-mails exist.
let dummyHash: Promise<string> | undefined;
export async function verifyAgainstDummy(secret: string): Promise<false> {
  dummyHash ??= hashSecret("modelify-dummy-password");
  await verifySecret(secret, await dummyHash);
  return false;
}

/** Security answers are compared case- and space-insensitively, then hashed like passwords. */
export function normaliseSecurityAnswer(answer: string): string {
  return answer.trim().toLowerCase().replace(/\s+/g, " ");
}
