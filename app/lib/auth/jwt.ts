import { jwtVerify, SignJWT } from "jose";
import { BoundedMap } from "../bounded-map";

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

export async function signAccessToken(claims: AccessClaims, secret: string, ttlMs: number, now = Date.now()) {
  return new SignJWT({ sid: claims.sid })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
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
const verified = new BoundedMap<string, AccessClaims>(10_000);

/** Returns the claims of a valid, unexpired token, or null for anything else. */
export async function verifyAccessToken(token: string, secret: string, now = Date.now()): Promise<AccessClaims | null> {
  const memoKey = `${secret.length}:${secret}:${token}`;
  const known = verified.get(memoKey, now);
  if (known) return known;
  try {
    const { payload } = await jwtVerify(token, await verifyKey(secret), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ["HS256"],
      currentDate: new Date(now),
    });
    if (typeof payload.sub !== "string" || typeof payload.sid !== "string" || typeof payload.exp !== "number") return null;
    const claims = { sub: payload.sub, sid: payload.sid };
    verified.set(memoKey, claims, payload.exp * 1000);
    return claims;
  } catch {
    return null;
  }
}
