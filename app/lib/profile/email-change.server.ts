// Changing the account's e-mail address: a link goes to the new address and nothing changes
// until it is opened there (users.email is the sign-in name and where resets are sent, so only
// an inbox that proved itself may become it). Links are single-use, hashed, expiring one-time
// tokens like the sign-up and reset links; their proof_hash holds the SHA-256 of the address
// they were sent to, so a link can only ever confirm that address.
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { findUserByEmail, findUserById } from "../auth/users.server";
import { expireUnusedTokens, prepareOneTimeToken } from "../auth/one-time-tokens.server";
import { EMAIL_CHANGE } from "../constants";
import { sha256Hex } from "../crypto";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { countEvent } from "../limits/counters.server";
import { enqueueMail } from "../mail/mail.server";
import { emailChangedNotice, emailChangeMail, emailInUseMail } from "../mail/templates";
import { z } from "../zod";
import { EMAIL_CHANGE_MESSAGES, PROFILE_MESSAGES } from "./messages";

export type EmailChangeDeps = { db: Db; queue: Queue; origin: string };
export type EmailChangeFailure = { ok: false; status: 400 | 409 | 429; error: string };

const tokens = schema.oneTimeTokens;
const profiles = schema.userProfiles;

// The sign-up form's rule, so every address an account may have is one it could have signed up with.
const addressSchema = z
  .string()
  .max(254)
  .regex(/^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u);
// randomToken(): 32 bytes in base64url. Anything else cannot be a link of ours.
const tokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

function confirmLink(origin: string, token: string) {
  const url = new URL("/profile/confirm-email", origin);
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
 * Saving the profile again with the same pending address (auto-save does, every few seconds)
 * changes nothing and sends nothing while its link is alive. When the address already belongs
 * to another account the answer and the stored state are the same as for a free address, but the
 * link's token is thrown away and the address gets a short note instead: the answer tells
 * nobody which addresses have accounts, and nobody can take another account's address.
 */
export async function requestEmailChange(
  deps: EmailChangeDeps,
  input: { userId: string; currentEmail: string; newEmail: string; now?: number },
): Promise<{ ok: true; pendingEmail: string | null } | EmailChangeFailure> {
  const { db } = deps;
  const now = input.now ?? Date.now();
  const parsed = addressSchema.safeParse(input.newEmail.trim().toLowerCase());
  if (!parsed.success) return { ok: false, status: 400, error: PROFILE_MESSAGES.invalidEmail };
  const address = parsed.data;

  if (address === input.currentEmail.toLowerCase()) {
    await cancelEmailChange(db, input.userId, now);
    return { ok: true, pendingEmail: null };
  }
  const profile = await db.query.userProfiles.findFirst({ where: eq(profiles.userId, input.userId), columns: { pendingEmail: true } });
  if (!profile) return { ok: false, status: 409, error: PROFILE_MESSAGES.notCreated };
  if (profile.pendingEmail === address && (await liveLinkFor(db, input.userId, address, now))) return { ok: true, pendingEmail: address };

  const { count } = await countEvent(db, `email-change:user:${input.userId}`, EMAIL_CHANGE.requestsPerUser.windowMs, now);
  if (count > EMAIL_CHANGE.requestsPerUser.limit) return { ok: false, status: 429, error: PROFILE_MESSAGES.tooManyEmailChanges };

  const owner = await findUserByEmail(db, address);
  const taken = owner !== undefined && owner.id !== input.userId;
  const { token, insert } = await prepareOneTimeToken(db, input.userId, "email_change", EMAIL_CHANGE.linkTtlMs, {
    proofHash: await sha256Hex(address),
    now,
  });
  // One batch: the pending address, the end of every earlier link and the new link change
  // together, so of two requests racing, the later batch's address and link are the ones left.
  await db.batch([
    db.update(profiles).set({ pendingEmail: address, updatedAt: now }).where(eq(profiles.userId, input.userId)),
    expireUnusedTokens(db, input.userId, "email_change", now),
    insert,
  ]);
  await enqueueMail(deps.queue, taken ? emailInUseMail(address) : emailChangeMail(address, confirmLink(deps.origin, token)));
  return { ok: true, pendingEmail: address };
}

/** Drops a pending change: the address is forgotten and every link sent for it stops working. */
export async function cancelEmailChange(db: Db, userId: string, now = Date.now()): Promise<void> {
  await db.batch([
    db
      .update(profiles)
      .set({ pendingEmail: null, updatedAt: now })
      .where(and(eq(profiles.userId, userId), sql`${profiles.pendingEmail} IS NOT NULL`)),
    expireUnusedTokens(db, userId, "email_change", now),
  ]);
}

type PendingChange = { tokenId: string; userId: string; newEmail: string };

/** The change a link would make, if it is a live link for the address still pending. */
async function pendingChangeOf(db: Db, token: unknown, now: number): Promise<PendingChange | null> {
  const parsed = tokenSchema.safeParse(token);
  if (!parsed.success) return null;
  const rows = await db
    .select({ tokenId: tokens.id, userId: tokens.userId, proofHash: tokens.proofHash, pendingEmail: profiles.pendingEmail })
    .from(tokens)
    .innerJoin(profiles, eq(profiles.userId, tokens.userId))
    .where(and(eq(tokens.tokenHash, await sha256Hex(parsed.data)), eq(tokens.type, "email_change"), isNull(tokens.usedAt), gt(tokens.expiresAt, now)))
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
