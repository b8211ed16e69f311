// A refresh token names its session and carries our MAC: `<session id>.<secret>.<mac>`.
// Naming the session lets a token of any earlier generation be recognised as that session's
// (reuse of a stolen chain ends it, however many rotations ago it was issued); the MAC keeps
// anyone who only knows a session id from ending it with a made-up token.
import { randomToken, toBase64Url } from "../crypto";
import { type Keyring, keysOf, labelledMac } from "../keys";

const MAC_LABEL = "modelify refresh token v1";
const MAC_BYTES = 16;
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SECRET = /^[A-Za-z0-9_-]{43}$/;
const MAC = /^[A-Za-z0-9_-]{22}$/;

// A key of its own (labelled), so a refresh MAC can never be mistaken for a JWT signature made
// with the same secret.
async function mac(secret: string, sessionId: string, tokenSecret: string): Promise<string> {
  return toBase64Url((await labelledMac(secret, MAC_LABEL, `${sessionId}.${tokenSecret}`)).subarray(0, MAC_BYTES));
}

/** A new refresh token for the session, its MAC under the ring's current key. */
export async function newRefreshToken(keys: Keyring, sessionId: string): Promise<string> {
  const tokenSecret = randomToken();
  return `${sessionId}.${tokenSecret}.${await mac(keys.current, sessionId, tokenSecret)}`;
}

export type ReadRefreshToken = { kind: "named"; sessionId: string } | { kind: "byHash" } | { kind: "invalid" };

/**
 * What a presented refresh token claims to be: one of ours naming its session (its MAC under the
 * ring's current or previous key), one to be found by its hash, or nothing of ours. Found by hash:
 * a token from before tokens named their session (plain 43 characters), and a named one whose MAC
 * is under a key older than the previous one. A refresh token lives for weeks and rotating the
 * key must not sign anyone out; found by hash, only the session's current (or just-rotated) token
 * matches, so a made-up one still ends nothing.
 */
export async function readRefreshToken(keys: Keyring, token: string): Promise<ReadRefreshToken> {
  if (SECRET.test(token)) return { kind: "byHash" };
  const parts = token.split(".");
  if (parts.length !== 3) return { kind: "invalid" };
  const [sessionId, tokenSecret, presented] = parts as [string, string, string];
  if (!SESSION_ID.test(sessionId) || !SECRET.test(tokenSecret) || !MAC.test(presented)) return { kind: "invalid" };
  for (const secret of keysOf(keys)) {
    const expected = await mac(secret, sessionId, tokenSecret);
    let diff = 0;
    for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ presented.charCodeAt(i);
    if (diff === 0) return { kind: "named", sessionId };
  }
  return { kind: "byHash" };
}
