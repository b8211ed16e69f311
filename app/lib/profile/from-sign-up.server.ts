// The profile row made from what the account gave at sign-up: one place for the rule, whichever
// path makes the row (the first sign-in, or the profile page for an account that has none).
import type { SignUpMetadata } from "~drizzle/schema";
import { normalisePhone } from "../auth/validation";
import type { Db } from "../db.server";
import { schema } from "../db.server";

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
 * Inserts the account's profile from its sign-up data unless it has one (two requests may race
 * to make it: the loser inserts nothing). Returns the row it inserted, or null when there was one
 * already. `signedIn` stamps the sign-in that made it as the last sign-in and activity.
 */
export async function insertProfileFromSignUp(
  db: Db,
  user: { id: string; email: string; metadata: SignUpMetadata },
  { now, signedIn }: { now: number; signedIn: boolean },
): Promise<typeof schema.userProfiles.$inferSelect | null> {
  const { metadata } = user;
  const [inserted] = await db
    .insert(schema.userProfiles)
    .values({
      id: crypto.randomUUID(),
      userId: user.id,
      email: user.email,
      ...namesFromMetadata(user.email, metadata),
      initial: metadata.initial ?? null,
      // Stored as E.164 (a number without + gets +1), the form phone codes are sent to.
      phoneNumber: metadata.phone_number ? normalisePhone(metadata.phone_number) : null,
      securityQuestion: metadata.security_question ?? null,
      securityAnswerHash: metadata.security_answer_hash ?? null,
      ...(signedIn ? { lastLoginAt: now, lastActivityAt: now } : {}),
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: schema.userProfiles.userId })
    .returning();
  return inserted ?? null;
}
