// Accounts and their profiles: creation at sign-up, confirmation, the profile created at the first sign-in.
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import type { SignUpMetadata } from "~drizzle/schema";
import { normalisePhone } from "./validation";

export type UserRow = typeof schema.users.$inferSelect;
export type ProfileRow = typeof schema.userProfiles.$inferSelect;

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.query.users.findFirst({ where: eq(schema.users.email, email.toLowerCase()) });
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.query.users.findFirst({ where: eq(schema.users.id, id) });
}

export async function markEmailConfirmed(db: Db, userId: string, now = Date.now()) {
  await db
    .update(schema.users)
    .set({ emailConfirmedAt: now, updatedAt: now })
    .where(and(eq(schema.users.id, userId), isNull(schema.users.emailConfirmedAt)));
}

export async function setPasswordHash(db: Db, userId: string, passwordHash: string, now = Date.now()) {
  await db.update(schema.users).set({ passwordHash, updatedAt: now }).where(eq(schema.users.id, userId));
}

/** Names from metadata (full name split), else the e-mail's local part, default 'User'. */
export function namesFromMetadata(email: string, metadata: SignUpMetadata): { firstName: string; lastName: string | null } {
  const first = metadata.first_name?.trim();
  const last = metadata.last_name?.trim();
  if (first) return { firstName: first, lastName: last || null };
  const full = metadata.full_name?.trim();
  if (full) {
    const [head, ...rest] = full.split(/\s+/);
    return { firstName: head || "User", lastName: rest.join(" ") || null };
  }
  const local = email.split("@")[0]?.trim();
  return { firstName: local || "User", lastName: null };
}

/**
 * Runs at every sign-in: creates the profile when it is missing (an insert that loses a race
 * just reads the winner's row, a unique-key conflict (Postgres' 23505) is not an error), records last_login_at and tells whether
 * the user had signed in before.
 */
export async function recordSignIn(db: Db, user: UserRow, now = Date.now()): Promise<{ profile: ProfileRow; returning: boolean }> {
  const existing = await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, user.id) });
  if (existing) {
    const [profile] = await db
      .update(schema.userProfiles)
      .set({ lastLoginAt: now, lastActivityAt: now, updatedAt: now })
      .where(eq(schema.userProfiles.userId, user.id))
      .returning();
    return { profile: profile ?? existing, returning: existing.lastLoginAt !== null };
  }
  const { firstName, lastName } = namesFromMetadata(user.email, user.metadata);
  const metadata = user.metadata;
  const inserted = await db
    .insert(schema.userProfiles)
    .values({
      id: crypto.randomUUID(),
      userId: user.id,
      email: user.email,
      firstName,
      lastName,
      initial: metadata.initial ?? null,
      // Stored as E.164 (a number without + gets +1), the form phone codes are sent to.
      phoneNumber: metadata.phone_number ? normalisePhone(metadata.phone_number) : null,
      securityQuestion: metadata.security_question ?? null,
      securityAnswerHash: metadata.security_answer_hash ?? null,
      lastLoginAt: now,
      lastActivityAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: schema.userProfiles.userId })
    .returning();
  if (inserted[0]) return { profile: inserted[0], returning: false };
  return recordSignIn(db, user, now);
}
