// Short-lived signed download links: HMAC-SHA256 over (release, user, expiry), so the Worker can
// serve an installer from R2 without a database write and nobody can mint or alter a link.
import { fromBase64Url, timingSafeEqual, toBase64Url } from "../crypto";
import { type Keyring, keysOf, labelledMac } from "../keys";

const encoder = new TextEncoder();
// Derived from DOWNLOAD_LINK_SECRET with a label, so a link's MAC means nothing anywhere else even
// if an operator gave two purposes the same value.
const KEY_LABEL = "modelify download link v1";

export type DownloadClaim = { releaseId: string; userId: string; expiresAt: number };

// The key is derived once per secret and isolate: every file request (each resumed range) verifies a link.
const mac = (secret: string, payload: string) => labelledMac(secret, KEY_LABEL, payload);

/** `<payload>.<signature>`, both base64url; the payload is `release.user.expiry-seconds`; signed with the ring's current key. */
export async function signDownloadToken(keys: Keyring, claim: DownloadClaim): Promise<string> {
  const payload = toBase64Url(encoder.encode(`${claim.releaseId}.${claim.userId}.${Math.floor(claim.expiresAt / 1000)}`));
  return `${payload}.${toBase64Url(await mac(keys.current, payload))}`;
}

export type VerifiedToken = { ok: true; claim: DownloadClaim } | { ok: false; reason: "invalid" | "expired" };

/**
 * A link signed with the ring's current or previous key. The link carries no key id: it lives 15
 * minutes, so a rotation (which keeps the previous key for longer) needs at most a second MAC,
 * and links already handed out keep their shape.
 */
export async function verifyDownloadToken(keys: Keyring, token: string, now = Date.now()): Promise<VerifiedToken> {
  const match = /^([A-Za-z0-9_-]{10,400})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return { ok: false, reason: "invalid" };
  const [, payload, signature] = match as unknown as [string, string, string];
  // Compared as text, not as decoded bytes: the last of 43 characters carries two unused bits, so
  // four spellings decode to one MAC and a decoded comparison would accept altered links.
  let signed = false;
  for (const secret of keysOf(keys)) {
    const expected = toBase64Url(await mac(secret, payload));
    if (timingSafeEqual(encoder.encode(signature), encoder.encode(expected))) signed = true;
  }
  if (!signed) return { ok: false, reason: "invalid" };
  const parts = new TextDecoder().decode(fromBase64Url(payload)).split(".");
  const [releaseId, userId, expiry] = parts;
  if (parts.length !== 3 || !releaseId || !userId || !/^\d{1,12}$/.test(expiry ?? "")) return { ok: false, reason: "invalid" };
  const expiresAt = Number(expiry) * 1000;
  if (expiresAt <= now) return { ok: false, reason: "expired" };
  return { ok: true, claim: { releaseId, userId, expiresAt } };
}
