// The profile: reading it for the page (creating it when missing) and saving the Edit Profile form.
import { and, eq, isNull, lte, ne, or, sql } from "drizzle-orm";
import { hashSecret, normaliseSecurityAnswer } from "../auth/password";
import type { ProfileRow } from "../auth/users.server";
import { normalisePhone } from "../auth/validation";
import { USERNAME } from "../constants";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { insertProfileFromSignUp } from "./from-sign-up.server";
import { PROFILE_MESSAGES as M } from "./messages";
import { phoneCodeExpiresAt, phoneStatus } from "../phone/status";
import { daysUntilUsernameChange } from "./username";
import type { ProfileForm } from "./validation";
import type { ProfileView } from "./view";

export type ProfileOwner = { id: string; email: string; createdAt: number };

/**
 * The user's profile row. Profiles are created at first sign-in; one that is missing anyway (an
 * account from before profiles, a failed insert) is created here from the sign-up metadata, as
 * the spec's "default profile after 10 s" did.
 */
export async function ensureProfile(db: Db, owner: ProfileOwner, now = Date.now()): Promise<ProfileRow> {
  const existing = await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, owner.id) });
  if (existing) return existing;
  const user = await db.query.users.findFirst({ where: eq(schema.users.id, owner.id) });
  const created = await insertProfileFromSignUp(db, { id: owner.id, email: owner.email, metadata: user?.metadata ?? {} }, { now, signedIn: false });
  if (created) return created;
  // Another request made it first.
  const raced = await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, owner.id) });
  if (!raced) throw new Error("The profile could not be created");
  return raced;
}

export function profileView(row: ProfileRow, owner: ProfileOwner, proof: { emailChangeNeedsCode: boolean }, now = Date.now()): ProfileView {
  const phoneState = phoneStatus(row, now);
  return {
    userId: owner.id,
    email: owner.email,
    pendingEmail: row.pendingEmail,
    username: row.username,
    usernameChangeableInDays: daysUntilUsernameChange(row, now),
    firstName: row.firstName ?? "",
    lastName: row.lastName ?? "",
    initial: row.initial ?? "",
    bio: row.bio ?? "",
    company: row.company ?? "",
    website: row.website ?? "",
    location: row.location ?? "",
    timezone: row.timezone,
    locale: row.locale ?? "",
    phoneNumber: row.phoneNumber,
    phoneStatus: row.phoneNumber ? phoneState : "unverified",
    phoneCodeExpiresAt: row.phoneNumber && phoneState === "pending" ? phoneCodeExpiresAt(row.phoneCodeSentAt) : null,
    avatarUrl: row.avatarUrl,
    coverPhotoUrl: row.coverPhotoUrl,
    securityQuestion: row.securityQuestion,
    hasSecurityAnswer: row.securityAnswerHash !== null,
    joinedAt: owner.createdAt,
    emailChangeNeedsCode: proof.emailChangeNeedsCode,
  };
}

export type SaveResult =
  | { ok: true; usernameChanged: boolean }
  | { ok: false; status: 400 | 409 | 429; error: string; field?: "username" | "securityAnswer" | "email" };

function isUniqueViolation(error: unknown): boolean {
  return /UNIQUE constraint failed/i.test(String(error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : error));
}

/**
 * Saves the Edit Profile form. The username rules are decided by the UPDATE itself (its WHERE
 * holds the 14-day rule, the unique index the case-insensitive uniqueness), so two tabs or two
 * users racing can never both win, and a refused username writes nothing at all.
 */
export async function saveProfile(db: Db, owner: ProfileOwner, form: ProfileForm, now = Date.now()): Promise<SaveResult> {
  const current = await ensureProfile(db, owner, now);
  const t = schema.userProfiles;

  const wantedUsername = form.username === "" ? current.username : form.username;
  const usernameChanged = wantedUsername !== current.username;
  if (usernameChanged && wantedUsername) {
    const days = daysUntilUsernameChange(current, now);
    if (days > 0) return { ok: false, status: 409, error: M.usernameChangeIn(days), field: "username" };
    const taken = await db
      .select({ id: t.id })
      .from(t)
      .where(and(sql`lower(${t.username}) = lower(${wantedUsername})`, ne(t.userId, owner.id)))
      .limit(1);
    if (taken.length) return { ok: false, status: 409, error: M.usernameTaken, field: "username" };
  }

  const questionChanged = form.securityQuestion !== "" && form.securityQuestion !== current.securityQuestion;
  if (questionChanged && form.securityAnswer === "") {
    return { ok: false, status: 400, error: M.securityAnswerTooShort, field: "securityAnswer" };
  }
  const answerHash = form.securityAnswer ? await hashSecret(normaliseSecurityAnswer(form.securityAnswer)) : undefined;

  const phone = form.phoneNumber ? normalisePhone(form.phoneNumber) : null;
  const phoneChanged = phone !== current.phoneNumber;

  const changes: Partial<typeof t.$inferInsert> = {
    firstName: form.firstName,
    lastName: form.lastName,
    initial: form.initial || null,
    bio: form.bio || null,
    company: form.company || null,
    location: form.location || null,
    website: form.website || null,
    timezone: form.timezone,
    locale: form.locale || null,
    updatedAt: now,
  };
  // A zone chosen here answers the dashboard's question of which zone to count in (issue 48).
  if (form.timezone !== current.timezone) changes.timeZoneConfirmedAt = now;
  if (form.securityQuestion !== "") changes.securityQuestion = form.securityQuestion;
  if (answerHash) changes.securityAnswerHash = answerHash;
  if (phoneChanged) Object.assign(changes, { phoneNumber: phone, phoneVerified: false, phoneCodeSentAt: null });
  if (usernameChanged) Object.assign(changes, { username: wantedUsername, usernameLastChanged: now });

  const conditions = [eq(t.userId, owner.id)];
  if (usernameChanged) {
    // The rule as the row is now, not as it was read: a change made meanwhile counts.
    conditions.push(or(isNull(t.username), isNull(t.usernameLastChanged), lte(t.usernameLastChanged, now - USERNAME.changeIntervalMs))!);
  }
  try {
    const result = await db
      .update(t)
      .set(changes)
      .where(and(...conditions))
      .run();
    if (result.meta.changes === 0) {
      const fresh = await db.query.userProfiles.findFirst({ where: eq(t.userId, owner.id) });
      const days = fresh ? daysUntilUsernameChange(fresh, now) : 0;
      return { ok: false, status: 409, error: days > 0 ? M.usernameChangeIn(days) : M.usernameFailed, field: "username" };
    }
  } catch (error) {
    if (usernameChanged && isUniqueViolation(error)) return { ok: false, status: 409, error: M.usernameTaken, field: "username" };
    throw error;
  }
  return { ok: true, usernameChanged };
}
