import { decodeProtectedHeader, jwtVerify, SignJWT } from "jose";
import { BoundedMap } from "../bounded-map";
import { type Keyring, keyId, keysOf, keyWithId } from "../keys";

const ISSUER = "modelify";
const AUDIENCE = "modelify";

export type AccessClaims = { sub: string; sid: string };

function key(secret: string) {
  return new TextEncoder().encode(secret);
}

// Importing the HMAC key is a WebCrypto call per token; the secret is fixed for the Worker's
// life, so verification imports it once.
const verifyKeys = new Map<string, Promise<CryptoKey>>();
function verifyKey(secret: string): Promise<CryptoKey> {
  let found = verifyKeys.get(secret);
  if (!found) {
    found = crypto.subtle.importKey("raw", key(secret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
    verifyKeys.set(secret, found);
  }
  return found;
}

/** Signed with the ring's current key, which the header's `kid` names. */
export async function signAccessToken(claims: AccessClaims, keys: Keyring, ttlMs: number, now = Date.now()) {
  const secret = keys.current;
  return new SignJWT({ sid: claims.sid })
    .setProtectedHeader({ alg: "HS256", typ: "JWT", kid: await keyId(secret) })
    .setSubject(claims.sub)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor((now + ttlMs) / 1000))
    .sign(key(secret));
}

// Tokens this isolate has verified, until they expire: the desktop app sends the same access
// token with every report for its whole life, and the signature check and claim parsing were a
// tenth of a report's cost. A token is only its own text, so the same text verifies the same way;
// the expiry is still checked on every use. Keyed by secret too, so a different secret shares none.
const verified = new BoundedMap<string, VerifiedClaims>(10_000);

/** A verified token's claims and when it expires (epoch ms): a live-usage socket ends then. */
export type VerifiedClaims = AccessClaims & { expiresAt: number };

/**
 * The key that may have signed a token: the ring's key its `kid` names (none: a key older than
 * the previous one, so the token is refused), or each of the ring's for a token from before
 * tokens carried a kid.
 */
async function candidateKeys(token: string, keys: Keyring): Promise<string[]> {
  let kid: unknown;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return [];
  }
  if (kid === undefined) return keysOf(keys);
  if (typeof kid !== "string") return [];
  const secret = await keyWithId(keys, kid);
  return secret ? [secret] : [];
}

/** Returns the claims of a valid, unexpired token signed with the ring's current or previous key, or null for anything else. */
export async function verifyAccessToken(token: string, keys: Keyring, now = Date.now()): Promise<VerifiedClaims | null> {
  for (const secret of keysOf(keys)) {
    const known = verified.get(memoKey(secret, token), now);
    if (known) return known;
  }
  for (const secret of await candidateKeys(token, keys)) {
    const claims = await verifyWith(token, secret, now);
    if (claims) return claims;
  }
  return null;
}

const memoKey = (secret: string, token: string) => `${secret.length}:${secret}:${token}`;

async function verifyWith(token: string, secret: string, now: number): Promise<VerifiedClaims | null> {
  try {
    const { payload } = await jwtVerify(token, await verifyKey(secret), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ["HS256"],
      currentDate: new Date(now),
    });
    if (typeof payload.sub !== "string" || typeof payload.sid !== "string" || typeof payload.exp !== "number") return null;
    const claims = { sub: payload.sub, sid: payload.sid, expiresAt: payload.exp * 1000 };
    verified.set(memoKey(secret, token), claims, payload.exp * 1000);
    return claims;
  } catch {
    return null;
  }
}
