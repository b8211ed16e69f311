// Passkeys (WebAuthn, issue 29): the rules in one place. A signed-in user registers discoverable
// credentials from the profile, names them, sees when each was last used and removes them; anyone
// may ask for a sign-in challenge, and a passkey's answer to it signs that passkey's owner in.
//
// - The relying party (origin and RP ID) comes from the configured site URL (APP_URL; locally the
//   request's own origin, as e-mail links do).
// - Challenges are single use and short-lived. A registration challenge is stored in D1 with its
//   expiry and consumed by the one DELETE … RETURNING that reads them. A sign-in challenge is
//   signed instead (its expiry and a MAC under the session keys), so asking for one writes nothing:
//   the sign-in page asks on every view for the e-mail field's autofill (issue 46), and that must
//   spend neither storage nor a limit. Its answer is what is counted (per IP) and what spends it:
//   one INSERT that only the first answer wins. Of two answers to one challenge only one verifies.
// - User verification is required (PIN or biometrics), which is why a passkey sign-in satisfies
//   two-factor. The sign count must grow (when the authenticator keeps one), raised by a
//   conditional UPDATE so a cloned credential's stale count is refused even under a race.
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  type VerifiedRegistrationResponse,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import { and, asc, count, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { PASSKEY } from "../constants";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { fromBase64Url, randomBytes, timingSafeEqual } from "../crypto";
import { type Keyring, keysOf, labelledMac } from "../keys";
import { overCap } from "../limits/counters.server";
import { z } from "../zod";
import { ipSubject } from "./lockout";
import { PASSKEY_MESSAGES as M } from "./passkey-messages";
import { log } from "../log/log.server";
import { enqueueMail } from "../mail/mail.server";
import { passkeyAddedMail, passkeyRemovedMail } from "../mail/templates";
import { assertProofOf, type RecentProof } from "./recent-proof.server";
import { deviceLabel } from "./user-agent";

/** What adding or removing a passkey needs besides the database: the owner's mail, and where it came from. */
export type PasskeyMailDeps = { db: Db; queue: Queue; origin: string; userAgent: string | null };

/** The browser and system that made the change, in our own words (never text the client chose). */
const deviceOf = (userAgent: string | null) => deviceLabel(userAgent);

const passkeys = schema.passkeys;
const challenges = schema.passkeyChallenges;

export type RelyingParty = { origin: string; rpID: string };

/** The relying party of a site URL: its origin, and its host name as the RP ID. */
export function relyingParty(siteUrl: string): RelyingParty {
  const url = new URL(siteUrl);
  return { origin: url.origin, rpID: url.hostname };
}

export type PasskeyFailure = { ok: false; status: 400 | 401 | 404 | 409 | 429; error: string; retryAfterSeconds?: number };
const failure = (status: PasskeyFailure["status"], error: string, retryAfterSeconds?: number): PasskeyFailure => ({
  ok: false,
  status,
  error,
  retryAfterSeconds,
});

// The WebAuthn library's refusals as fixed codes, by the start of its message (its own words). The
// rest of a message quotes what the client sent (its origin, challenge or type: an attacker's
// text), so no message is logged, only its code.
const REFUSALS: Array<[RegExp, string]> = [
  [/^Unexpected (registration|authentication) response origin /, "origin_mismatch"],
  [/^(Unexpected top origin|Unexpected cross-origin|Detected cross-origin)/, "top_origin_mismatch"],
  [/^Unexpected RP ID hash/, "rp_id_mismatch"],
  [/^Unexpected (registration|authentication) response challenge |^Custom challenge verifier/, "challenge_mismatch"],
  [/^Unexpected (registration|authentication) response type/, "type_mismatch"],
  [/^User (verification|presence|not present)/, "user_not_verified"],
  [/^Response counter value/, "counter_too_low"],
];

/** Why a passkey answer was refused, as a code of ours for the log; "invalid_response" for anything else. */
function refusalReason(error: unknown): string {
  const message = error instanceof Error ? error.message : "";
  return REFUSALS.find(([pattern]) => pattern.test(message))?.[1] ?? "invalid_response";
}

// ------------------------------------------------------------------------------ input shapes

const b64 = z
  .string()
  .min(1)
  .max(4096)
  .regex(/^[A-Za-z0-9_-]+={0,2}$/);
const credentialShape = {
  id: b64.max(1400),
  rawId: b64.max(1400),
  type: z.literal("public-key"),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
};

/** navigator.credentials.create()'s answer as @simplewebauthn/browser encodes it. */
export const registrationResponseSchema = z.object({
  ...credentialShape,
  response: z.object({
    clientDataJSON: b64,
    attestationObject: b64,
    transports: z.array(z.string().max(20)).max(10).optional(),
  }),
});

/** navigator.credentials.get()'s answer as @simplewebauthn/browser encodes it. */
export const authenticationResponseSchema = z.object({
  ...credentialShape,
  response: z.object({ clientDataJSON: b64, authenticatorData: b64, signature: b64, userHandle: b64.optional() }),
});

export const passkeyNameSchema = z.string().trim().min(1, M.nameRequired).max(PASSKEY.nameMaxLength, M.nameTooLong);

// ------------------------------------------------------------------------------ challenges

type Purpose = "register" | "authenticate";

async function storeChallenge(db: Db, challenge: string, purpose: Purpose, userId: string | null, now: number) {
  await db.insert(challenges).values({ challenge, purpose, userId, expiresAt: now + PASSKEY.challengeTtlMs });
}

/** Spends a challenge: true for exactly one caller, and only while it lives. */
async function consumeChallenge(db: Db, challenge: string, purpose: Purpose, userId: string | null, now = Date.now()): Promise<boolean> {
  const rows = await db
    .delete(challenges)
    .where(
      and(
        eq(challenges.challenge, challenge),
        eq(challenges.purpose, purpose),
        userId === null ? isNull(challenges.userId) : eq(challenges.userId, userId),
        gt(challenges.expiresAt, now),
      ),
    )
    .returning({ challenge: challenges.challenge });
  return rows.length === 1;
}

/** The hourly cron drops challenges nobody answered. */
export async function sweepExpiredChallenges(db: Db, now = Date.now()): Promise<number> {
  const result = await db.delete(challenges).where(lt(challenges.expiresAt, now)).run();
  return result.meta.changes;
}

/** The challenge an answer claims to sign (from its clientDataJSON), or null when unreadable. */
function claimedChallenge(clientDataJSON: string): string | null {
  try {
    const parsed = z.object({ challenge: b64 }).safeParse(JSON.parse(isoBase64URL.toUTF8String(clientDataJSON)));
    return parsed.success ? parsed.data.challenge : null;
  } catch {
    return null;
  }
}

// ------------------------------------------------------------------------------ registration

export type PasskeyOwner = { id: string; email: string };

async function passkeyCount(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return row?.n ?? 0;
}

/** Options for navigator.credentials.create(): a discoverable credential that verifies its user. */
export async function registrationOptions(
  db: Db,
  rp: RelyingParty,
  user: PasskeyOwner,
  proof: RecentProof,
  now = Date.now(),
): Promise<{ ok: true; options: PublicKeyCredentialCreationOptionsJSON } | PasskeyFailure> {
  assertProofOf(proof, user.id);
  const wait = await overCap(db, `passkey:register:user:${user.id}`, PASSKEY.registerOptionsPerUser, now);
  if (wait !== null) return failure(429, M.tooManyRequests(wait), wait);
  const existing = await db.select({ id: passkeys.id, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, user.id));
  if (existing.length >= PASSKEY.maxPerUser) return failure(409, M.tooMany);
  const options = await generateRegistrationOptions({
    rpName: PASSKEY.rpName,
    rpID: rp.rpID,
    userName: user.email,
    userDisplayName: user.email,
    userID: new TextEncoder().encode(user.id),
    attestationType: "none",
    timeout: PASSKEY.challengeTtlMs,
    excludeCredentials: existing.map((row) => ({ id: row.id, transports: row.transports })),
    authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" },
  });
  await storeChallenge(db, options.challenge, "register", user.id, now);
  return { ok: true, options };
}

/**
 * Checks a new credential against the user's own live challenge and stores it under `name`; the
 * owner is mailed (a way in was added).
 */
export async function registerPasskey(
  deps: PasskeyMailDeps,
  rp: RelyingParty,
  user: PasskeyOwner,
  input: { response: RegistrationResponseJSON; name: string },
  proof: RecentProof,
  now = Date.now(),
): Promise<{ ok: true; id: string } | PasskeyFailure> {
  assertProofOf(proof, user.id);
  const { db } = deps;
  const challenge = claimedChallenge(input.response.response.clientDataJSON);
  if (!challenge || !(await consumeChallenge(db, challenge, "register", user.id, now))) return failure(400, M.challengeExpired);
  let info: NonNullable<VerifiedRegistrationResponse["registrationInfo"]>;
  try {
    const verification = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: true,
    });
    if (!verification.verified) return failure(400, M.notVerified);
    info = verification.registrationInfo;
  } catch (error) {
    log.warn("passkey_register_refused", { userId: user.id, reason: refusalReason(error) });
    return failure(400, M.notVerified);
  }
  if ((await passkeyCount(db, user.id)) >= PASSKEY.maxPerUser) return failure(409, M.tooMany);
  const inserted = await db
    .insert(passkeys)
    .values({
      id: info.credential.id,
      userId: user.id,
      name: input.name,
      publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
      counter: info.credential.counter,
      transports: info.credential.transports ?? [],
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      createdAt: now,
    })
    .onConflictDoNothing({ target: passkeys.id })
    .returning({ id: passkeys.id });
  if (inserted.length === 0) return failure(409, M.alreadyRegistered);
  log.info("passkey_registered", { userId: user.id });
  await enqueueMail(deps.queue, passkeyAddedMail(user.email, deviceOf(deps.userAgent), new URL("/dashboard/profile#passkeys-title", deps.origin).toString()));
  return { ok: true, id: info.credential.id };
}

// ------------------------------------------------------------------------------ sign-in

/** Options for navigator.credentials.get(): no credential list (discoverable), verification required. */
export async function authenticationOptions(
  keys: Keyring,
  rp: RelyingParty,
  now = Date.now(),
): Promise<{ ok: true; options: PublicKeyCredentialRequestOptionsJSON }> {
  const options = await generateAuthenticationOptions({
    rpID: rp.rpID,
    userVerification: "required",
    timeout: PASSKEY.challengeTtlMs,
    challenge: await signChallenge(keys, now + PASSKEY.challengeTtlMs),
  });
  return { ok: true, options };
}

// A sign-in challenge: 16 random bytes, its expiry (8 bytes, ms) and 16 bytes of a MAC of both.
const CHALLENGE_LABEL = "modelify passkey sign-in challenge v1";
const NONCE_BYTES = 16;
const MAC_BYTES = 16;

async function challengeMac(secret: string, body: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return (await labelledMac(secret, CHALLENGE_LABEL, body)).slice(0, MAC_BYTES);
}

async function signChallenge(keys: Keyring, expiresAt: number): Promise<Uint8Array<ArrayBuffer>> {
  const body = new Uint8Array(NONCE_BYTES + 8);
  body.set(randomBytes(NONCE_BYTES));
  new DataView(body.buffer).setBigUint64(NONCE_BYTES, BigInt(expiresAt));
  const challenge = new Uint8Array(body.length + MAC_BYTES);
  challenge.set(body);
  challenge.set(await challengeMac(keys.current, body), body.length);
  return challenge;
}

/** A challenge this site signed (with the current or previous key) and still alive: its expiry; null otherwise. */
async function signedChallengeExpiry(keys: Keyring, challenge: string, now: number): Promise<number | null> {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = fromBase64Url(challenge);
  } catch {
    return null;
  }
  if (bytes.length !== NONCE_BYTES + 8 + MAC_BYTES) return null;
  const body = bytes.slice(0, NONCE_BYTES + 8);
  const expiresAt = Number(new DataView(body.buffer).getBigUint64(NONCE_BYTES));
  if (expiresAt <= now) return null;
  for (const secret of keysOf(keys)) if (timingSafeEqual(await challengeMac(secret, body), bytes.slice(NONCE_BYTES + 8))) return expiresAt;
  return null;
}

/** Spends a signed sign-in challenge: the first answer's INSERT wins, any other (a replay, a race) finds it taken. */
async function spendSignedChallenge(db: Db, challenge: string, expiresAt: number): Promise<boolean> {
  const rows = await db
    .insert(challenges)
    .values({ challenge, purpose: "authenticate", userId: null, expiresAt })
    .onConflictDoNothing({ target: challenges.challenge })
    .returning({ challenge: challenges.challenge });
  return rows.length === 1;
}

/**
 * An answer to a sign-in challenge: the challenge must be ours and alive; the answer counts on its
 * client address's cap (answers are what sign in, so they are what is limited); the challenge is
 * spent (whatever follows), then the passkey is found by its credential id, its signature
 * checked, and its sign count raised. Returns the passkey's owner.
 */
export async function verifyPasskeySignIn(
  deps: { db: Db; keys: Keyring; ip: string | null },
  rp: RelyingParty,
  response: AuthenticationResponseJSON,
  now = Date.now(),
): Promise<{ ok: true; userId: string } | PasskeyFailure> {
  const { db } = deps;
  const challenge = claimedChallenge(response.response.clientDataJSON);
  const expiresAt = challenge ? await signedChallengeExpiry(deps.keys, challenge, now) : null;
  if (!challenge || expiresAt === null) return failure(400, M.challengeExpired);
  if (deps.ip) {
    const wait = await overCap(db, `passkey:signin:ip:${ipSubject(deps.ip)}`, PASSKEY.signInAnswersPerIp, now);
    if (wait !== null) return failure(429, M.tooManyRequests(wait), wait);
  }
  if (!(await spendSignedChallenge(db, challenge, expiresAt))) return failure(400, M.challengeExpired);
  const row = await db.query.passkeys.findFirst({ where: eq(passkeys.id, response.id) });
  if (!row) return failure(401, M.unknownPasskey);
  if (response.response.userHandle && response.response.userHandle !== isoBase64URL.fromUTF8String(row.userId)) return failure(401, M.unknownPasskey);
  let newCounter: number;
  try {
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: true,
      credential: { id: row.id, publicKey: isoBase64URL.toBuffer(row.publicKey), counter: row.counter, transports: row.transports as never },
    });
    if (!verification.verified) return failure(401, M.notVerified);
    newCounter = verification.authenticationInfo.newCounter;
  } catch (error) {
    log.warn("passkey_signin_refused", { userId: row.userId, reason: refusalReason(error) });
    return failure(401, M.notVerified);
  }
  // The count must still be below the new one when written (authenticators without a count send 0).
  const raised = await db
    .update(passkeys)
    .set({ counter: newCounter, lastUsedAt: now })
    .where(and(eq(passkeys.id, row.id), or(sql`${newCounter} = 0 AND ${passkeys.counter} = 0`, lt(passkeys.counter, newCounter))))
    .returning({ id: passkeys.id });
  if (raised.length === 0) {
    log.warn("passkey_counter_refused", { userId: row.userId });
    return failure(401, M.notVerified);
  }
  return { ok: true, userId: row.userId };
}

// ------------------------------------------------------------------------------ the profile's list

export type PasskeyView = { id: string; name: string; createdAt: number; lastUsedAt: number | null; synced: boolean };

export async function listPasskeys(db: Db, userId: string): Promise<PasskeyView[]> {
  const rows = await db
    .select({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt, backedUp: passkeys.backedUp })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt));
  return rows.map(({ backedUp, ...row }) => ({ ...row, synced: backedUp }));
}

/** Renames one of the user's own passkeys; another user's id changes nothing (false). */
export async function renamePasskey(db: Db, userId: string, id: string, name: string): Promise<boolean> {
  const rows = await db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  return rows.length === 1;
}

/** Removes one of the user's own passkeys; another user's id removes nothing (false). The owner is mailed. */
export async function removePasskey(deps: PasskeyMailDeps, user: PasskeyOwner, id: string, proof: RecentProof): Promise<boolean> {
  assertProofOf(proof, user.id);
  const rows = await deps.db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, user.id)))
    .returning({ id: passkeys.id });
  if (rows.length !== 1) return false;
  log.info("passkey_removed", { userId: user.id });
  await enqueueMail(deps.queue, passkeyRemovedMail(user.email, deviceOf(deps.userAgent), new URL("/dashboard/profile#passkeys-title", deps.origin).toString()));
  return true;
}
