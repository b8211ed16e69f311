import { jwtVerify, SignJWT } from "jose";

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

/** Returns the claims of a valid, unexpired token, or null for anything else. */
export async function verifyAccessToken(token: string, secret: string): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, await verifyKey(secret), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ["HS256"],
    });
    if (typeof payload.sub !== "string" || typeof payload.sid !== "string") return null;
    return { sub: payload.sub, sid: payload.sid };
  } catch {
    return null;
  }
}
