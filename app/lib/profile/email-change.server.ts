// Changing the account's e-mail address: a link goes to the new address and nothing changes
// until it is opened there (users.email is the sign-in name and where resets are sent, so only
// an inbox that proved itself may become it). Links are single-use, hashed, expiring one-time
// tokens like the sign-up and reset links; their proof_hash holds the SHA-256 of the address
// they were sent to, so a link can only ever confirm that address.
//
// Whoever holds a session alone must not be able to move the account to their own inbox: asking
// for a change takes the current password (and a two-factor code where two-factor is on, unless
// the session proved it within minutes: lib/auth/recent-proof.server.ts), the current address is
// told at once with a link that cancels it, and every "revoke all" path (revocation.server.ts)
// drops a pending change.
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { AUTH_MESSAGES } from "../auth/messages";
import { assertProofOf, type ProofResult } from "../auth/recent-proof.server";
import { type RevocationDeps, revokeAccountAccess } from "../auth/revocation.server";
import { findUserByEmail, findUserById } from "../auth/users.server";
import { expireUnusedTokens, prepareOneTimeToken } from "../auth/one-time-tokens.server";
import { EMAIL_CHANGE } from "../constants";
import { sha256Hex } from "../crypto";
import { emailAddress } from "../email-address";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { countEvent, secondsUntil } from "../limits/counters.server";
import { enqueueMail, enqueueMails } from "../mail/mail.server";
import { emailChangedNotice, emailChangeMail, emailChangeRequestedNotice, emailInUseMail } from "../mail/templates";
import { z } from "../zod";
import { EMAIL_CHANGE_MESSAGES, PROFILE_MESSAGES } from "./messages";

export type EmailChangeDeps = { db: Db; queue: Queue; origin: string };
export type EmailChangeFailure = {
  ok: false;
  status: 400 | 401 | 409 | 429;
  error: string;
  /** The form field the error belongs to (the new address unless it is about the password or the code). */
  field?: "email" | "currentPassword" | "currentCode";
  retryAfterSeconds?: number;
};

const tokens = schema.oneTimeTokens;
const profiles = schema.userProfiles;

// The sign-up form's rule, so every address an account may have is one it could have signed up with.
const addressSchema = emailAddress();
// randomToken(): 32 bytes in base64url. Anything else cannot be a link of ours.
const tokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

function linkTo(origin: string, path: string, token: string) {
  const url = new URL(path, origin);
  url.searchParams.set("token", token);
  return url.toString();
}

/** An unused, unexpired link of the user for exactly this address. */
async function liveLinkFor(db: Db, userId: string, address: string, now: number): Promise<boolean> {
  const row = await db.query.oneTimeTokens.findFirst({
    where: and(
      eq(tokens.userId, userId),
      eq(tokens.type, "email_change"),
      eq(tokens.proofHash, await sha256Hex(address)),
      isNull(tokens.usedAt),
      gt(tokens.expiresAt, now),
    ),
    columns: { id: true },
  });
  return row !== undefined;
}

/**
 * Asks for the account's address to become `newEmail`. Returns the pending address (null when
 * the new address is the current one, which also drops any pending change).
 *
 * Saving the profile again with the same pending address changes nothing and sends nothing while
 * its link is alive. A new address needs the current password, checked under the sign-in's
 * lockout. When the address already belongs to another account the answer and the stored state
 * are the same as for a free address, but the link's token is thrown away and the address gets a
 * short note instead: the answer tells nobody which addresses have accounts, and nobody can take
 * another account's address. Either way the current address is told, with a cancel link.
 */
export async function requestEmailChange(
  deps: EmailChangeDeps,
  input: { userId: string; currentEmail: string; newEmail: string; prove: () => Promise<ProofResult>; now?: number },
): Promise<{ ok: true; pendingEmail: string | null } | EmailChangeFailure> {
  const { db } = deps;
  const now = input.now ?? Date.now();
  const parsed = addressSchema.safeParse(input.newEmail.trim().toLowerCase());
  if (!parsed.success) return { ok: false, status: 400, error: PROFILE_MESSAGES.invalidEmail, field: "email" };
  const address = parsed.data;

  if (address === input.currentEmail.toLowerCase()) {
    await cancelEmailChange(db, input.userId, now);
    return { ok: true, pendingEmail: null };
  }
  const profile = await db.query.userProfiles.findFirst({ where: eq(profiles.userId, input.userId), columns: { pendingEmail: true } });
  if (!profile) return { ok: false, status: 409, error: PROFILE_MESSAGES.notCreated, field: "email" };
  if (profile.pendingEmail === address && (await liveLinkFor(db, input.userId, address, now))) return { ok: true, pendingEmail: address };

  const user = await findUserById(db, input.userId);
  if (!user) return { ok: false, status: 409, error: PROFILE_MESSAGES.notCreated, field: "email" };
  const proven = await input.prove();
  if (!proven.ok) return proofRefused(proven);
  assertProofOf(proven.proof, input.userId);

  const counted = await countEvent(db, `email-change:user:${input.userId}`, EMAIL_CHANGE.requestsPerUser.windowMs, now);
  if (counted.count > EMAIL_CHANGE.requestsPerUser.limit) {
    return { ok: false, status: 429, error: PROFILE_MESSAGES.tooManyEmailChanges, field: "email", retryAfterSeconds: secondsUntil(counted.expiresAt, now) };
  }

  const owner = await findUserByEmail(db, address);
  const taken = owner !== undefined && owner.id !== input.userId;
  const addressHash = await sha256Hex(address);
  const change = await prepareOneTimeToken(db, input.userId, "email_change", EMAIL_CHANGE.linkTtlMs, { proofHash: addressHash, now });
  const cancel = await prepareOneTimeToken(db, input.userId, "email_change_cancel", EMAIL_CHANGE.linkTtlMs, { proofHash: addressHash, now });
  // One batch: the pending address, the end of every earlier link and the new links change
  // together, so of two requests racing, the later batch's address and links are the ones left.
  await db.batch([
    db.update(profiles).set({ pendingEmail: address, updatedAt: now }).where(eq(profiles.userId, input.userId)),
    expireUnusedTokens(db, input.userId, "email_change", now),
    expireUnusedTokens(db, input.userId, "email_change_cancel", now),
    change.insert,
    cancel.insert,
  ]);
  await enqueueMails(deps.queue, [
    taken ? emailInUseMail(address) : emailChangeMail(address, linkTo(deps.origin, "/profile/confirm-email", change.token)),
    emailChangeRequestedNotice(user.email, address, linkTo(deps.origin, "/profile/cancel-email-change", cancel.token)),
  ]);
  return { ok: true, pendingEmail: address };
}

/** A refused proof, on the form's own fields: the current password, or the code. */
function proofRefused(refusal: Exclude<ProofResult, { ok: true }>): EmailChangeFailure {
  switch (refusal.reason) {
    case "required":
    case "missing-password":
      return { ok: false, status: 400, error: PROFILE_MESSAGES.currentPasswordRequired, field: "currentPassword" };
    case "wrong-password":
      return { ok: false, status: 401, error: PROFILE_MESSAGES.currentPasswordWrong, field: "currentPassword" };
    case "missing-code":
      return { ok: false, status: 400, error: AUTH_MESSAGES.proofCodeRequired, field: "currentCode" };
    case "wrong-code":
      return { ok: false, status: 401, error: AUTH_MESSAGES.twoFactorInvalid, field: "currentCode" };
    case "locked":
      return {
        ok: false,
        status: 429,
        error: refusal.factor === "password" ? AUTH_MESSAGES.signInLocked : AUTH_MESSAGES.twoFactorLocked(refusal.retryAfterSeconds),
        field: refusal.factor === "password" ? "currentPassword" : "currentCode",
        retryAfterSeconds: refusal.retryAfterSeconds,
      };
  }
}

/** Drops a pending change: the address is forgotten and every link sent for it stops working. */
export async function cancelEmailChange(db: Db, userId: string, now = Date.now()): Promise<void> {
  await db.batch([
    db
      .update(profiles)
      .set({ pendingEmail: null, updatedAt: now })
      .where(and(eq(profiles.userId, userId), sql`${profiles.pendingEmail} IS NOT NULL`)),
    expireUnusedTokens(db, userId, "email_change", now),
    expireUnusedTokens(db, userId, "email_change_cancel", now),
  ]);
}

type PendingChange = { tokenId: string; userId: string; newEmail: string };

/**
 * The change a link would make (a confirm link, or the cancel link of the notice to the current
 * address), if it is a live link for the address still pending.
 */
async function pendingChangeOf(
  db: Db,
  token: unknown,
  now: number,
  type: "email_change" | "email_change_cancel" = "email_change",
): Promise<PendingChange | null> {
  const parsed = tokenSchema.safeParse(token);
  if (!parsed.success) return null;
  const rows = await db
    .select({ tokenId: tokens.id, userId: tokens.userId, proofHash: tokens.proofHash, pendingEmail: profiles.pendingEmail })
    .from(tokens)
    .innerJoin(profiles, eq(profiles.userId, tokens.userId))
    .where(and(eq(tokens.tokenHash, await sha256Hex(parsed.data)), eq(tokens.type, type), isNull(tokens.usedAt), gt(tokens.expiresAt, now)))
    .limit(1);
  const row = rows[0];
  if (!row?.pendingEmail || row.proofHash !== (await sha256Hex(row.pendingEmail))) return null;
  return { tokenId: row.tokenId, userId: row.userId, newEmail: row.pendingEmail };
}

/** For the confirmation page's GET: the address a link would confirm, without using it up. */
export async function peekEmailChange(db: Db, token: unknown, now = Date.now()): Promise<{ newEmail: string } | null> {
  const change = await pendingChangeOf(db, token, now);
  return change ? { newEmail: change.newEmail } : null;
}

// D1 reports it in the message; drizzle may wrap that error as its cause.
const isUniqueViolation = (error: unknown) => /UNIQUE constraint failed/i.test(`${error} ${(error as { cause?: unknown } | null)?.cause}`);

/**
 * Confirms a change from its link. The token alone is enough, without a signed-in browser: it
 * proves the new inbox, and it was minted by a signed-in request of the account it changes (the
 * user often opens the mail on another device). It names its account itself, so whoever is
 * signed in where it is opened plays no part.
 *
 * Using the token up is the deciding step (one conditional UPDATE), so two parallel confirms
 * change the address once. If the address was taken meanwhile, the unique index refuses the
 * change and the batch writes nothing.
 */
export async function confirmEmailChange(
  deps: Omit<EmailChangeDeps, "origin">,
  token: unknown,
  now = Date.now(),
): Promise<{ ok: true; email: string; previousEmail: string } | EmailChangeFailure> {
  const { db } = deps;
  const invalid: EmailChangeFailure = { ok: false, status: 400, error: EMAIL_CHANGE_MESSAGES.invalidLink };
  const change = await pendingChangeOf(db, token, now);
  const user = change ? await findUserById(db, change.userId) : undefined;
  if (!change || !user) return invalid;

  const used = await db
    .update(tokens)
    .set({ usedAt: now })
    .where(and(eq(tokens.id, change.tokenId), isNull(tokens.usedAt), gt(tokens.expiresAt, now)))
    .returning({ id: tokens.id });
  if (used.length === 0) return invalid;

  try {
    await db.batch([
      db.update(schema.users).set({ email: change.newEmail, updatedAt: now }).where(eq(schema.users.id, change.userId)),
      // Once made, the change is no longer pending: its cancel link in the old inbox stops working.
      expireUnusedTokens(db, change.userId, "email_change_cancel", now),
      // A newer request may have set another pending address since the link was read: that one stays.
      db
        .update(profiles)
        .set({
          email: change.newEmail,
          pendingEmail: sql`CASE WHEN ${profiles.pendingEmail} = ${change.newEmail} THEN NULL ELSE ${profiles.pendingEmail} END`,
          updatedAt: now,
        })
        .where(eq(profiles.userId, change.userId)),
    ]);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await db
      .update(profiles)
      .set({ pendingEmail: null, updatedAt: now })
      .where(and(eq(profiles.userId, change.userId), eq(profiles.pendingEmail, change.newEmail)));
    return { ok: false, status: 409, error: PROFILE_MESSAGES.emailTaken };
  }
  await enqueueMail(deps.queue, emailChangedNotice(user.email, change.newEmail));
  return { ok: true, email: change.newEmail, previousEmail: user.email };
}

/** For the cancel page's GET: the pending address a cancel link would drop, without using it. */
export async function peekEmailChangeCancel(db: Db, token: unknown, now = Date.now()): Promise<{ pendingEmail: string } | null> {
  const change = await pendingChangeOf(db, token, now, "email_change_cancel");
  return change ? { pendingEmail: change.newEmail } : null;
}

/**
 * The cancel link of the notice to the current address: whoever asked for the change had the
 * session and the password, so besides dropping the change, every credential of the account ends
 * (the owner signs in again and is told to reset the password). Using the link up is the
 * deciding step, so a second click does nothing.
 */
export async function cancelEmailChangeFromLink(deps: RevocationDeps, token: unknown, now = Date.now()): Promise<{ ok: true } | EmailChangeFailure> {
  const { db } = deps;
  const invalid: EmailChangeFailure = { ok: false, status: 400, error: EMAIL_CHANGE_MESSAGES.cancelInvalidLink };
  const change = await pendingChangeOf(db, token, now, "email_change_cancel");
  if (!change) return invalid;
  const used = await db
    .update(tokens)
    .set({ usedAt: now })
    .where(and(eq(tokens.id, change.tokenId), isNull(tokens.usedAt), gt(tokens.expiresAt, now)))
    .returning({ id: tokens.id });
  if (used.length === 0) return invalid;
  await revokeAccountAccess(deps, change.userId, "email_change_cancelled", { now });
  return { ok: true };
}
