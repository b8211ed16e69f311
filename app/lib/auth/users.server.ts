// Accounts and their profiles: creation at sign-up, confirmation, the profile created at the first sign-in.
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { insertProfileFromSignUp } from "../profile/from-sign-up.server";

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

/**
 * Runs at every sign-in: creates the profile from the sign-up data when it is missing (an insert
 * that loses a race reads the winner's row), records last_login_at and tells whether the user had
 * signed in before.
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
  const inserted = await insertProfileFromSignUp(db, user, { now, signedIn: true });
  if (inserted) return { profile: inserted, returning: false };
  return recordSignIn(db, user, now);
}
