// zod schemas for every auth form. The same schema validates in the browser (conform)
// and on the server, so the messages a user sees are the spec's either way.
import { emailAddress } from "../email-address";
import { personName } from "../person-name";
import { z } from "../zod";
import { PASSWORD, SIGN_UP, TWO_FACTOR } from "../constants";
import { isCommonPassword } from "./common-passwords";
import { AUTH_MESSAGES as M } from "./messages";
import { PASSWORD_LENGTH_RULE, passwordStrength } from "./password-rules";
import { SECURITY_QUESTIONS } from "./security-questions";

const securityQuestionValues = SECURITY_QUESTIONS.map((q) => q.value) as [string, ...string[]];

const MAX_PHONE = 32;
const MAX_ANSWER = 200;

// Control characters are never part of what a person types in a one-line field.
const CONTROL = /\p{Cc}/u;

const emailSchema = emailAddress({ invalid: M.invalidEmail });

const passwordSchema = z
  .string({ error: M.passwordTooShort })
  .min(PASSWORD.minLength, { error: M.passwordTooShort })
  .max(PASSWORD.maxLength, { error: M.passwordTooLong });

/**
 * A password someone chooses, at sign-up or on the reset page: one rule for both, so a reset can
 * never set a password that sign-up would refuse. `required` is what an empty field says.
 */
function chosenPassword(required: string) {
  return (
    z
      .string({ error: required })
      // A short password is told only that: "too weak" on top of "too short" says nothing new.
      .refine(PASSWORD_LENGTH_RULE.test, { error: M.passwordTooShort, abort: true })
      .max(PASSWORD.maxLength, { error: M.passwordTooLong })
      .refine((p) => passwordStrength(p) >= PASSWORD.strengthThreshold, { error: M.passwordTooWeak, abort: true })
      .refine((p) => !isCommonPassword(p), { error: M.commonPassword })
  );
}

/** POST /api/v1/auth/token: the desktop app signs in with the account's e-mail and password. */
export const apiTokenRequestSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  two_factor_code: z
    .string()
    .max(TWO_FACTOR.codeMaxLength, "two_factor_code is invalid")
    .optional()
    .meta({ description: `When the account has two-factor sign-in on: the ${TWO_FACTOR.digits}-digit code from the authenticator app, or a recovery code` }),
});

/** POST /api/v1/auth/refresh: a refresh token, each usable once. */
export const apiRefreshRequestSchema = z.object({
  refresh_token: z
    .string({ error: "refresh_token is required" })
    .min(1, "refresh_token is required")
    .max(128, "refresh_token is invalid")
    .meta({ description: "Single use: each refresh returns a new one" }),
});

/**
 * POST /api/v1/auth/token with grant_type=refresh_token (RFC 6749 6): the same token as
 * /api/v1/auth/refresh takes. client_id may be left out (a public client need not name itself
 * here), or sent in the body or by HTTP Basic; when sent it must be the desktop app's.
 */
export const refreshTokenGrantRequestSchema = apiRefreshRequestSchema.extend({
  grant_type: z.literal("refresh_token"),
  client_id: z.string().optional(),
});

export const signInSchema = z.object({
  intent: z.literal("signin"),
  email: emailSchema,
  password: passwordSchema,
});

export const signUpSchema = z
  .object({
    intent: z.literal("signup"),
    firstName: personName("First name", { required: M.firstNameRequired, invalidCharacters: M.invalidCharacters }),
    initial: z
      .string()
      .trim()
      .max(SIGN_UP.middleInitialMaxLength, { error: M.middleInitialTooLong })
      .refine((v) => !CONTROL.test(v), { error: M.invalidCharacters })
      .optional(),
    lastName: personName("Last name", { required: M.lastNameRequired, invalidCharacters: M.invalidCharacters }),
    email: emailSchema,
    phoneNumber: z
      .string({ error: M.invalidPhone })
      .trim()
      .min(SIGN_UP.phoneMinLength, { error: M.invalidPhone })
      .max(MAX_PHONE, { error: M.invalidPhone })
      .regex(/^\+?[0-9 ().-]+$/, { error: M.invalidPhone }),
    securityQuestion: z.enum(securityQuestionValues, { error: M.securityQuestionRequired }),
    securityAnswer: z
      .string({ error: M.securityAnswerTooShort })
      .trim()
      .min(SIGN_UP.securityAnswerMinLength, { error: M.securityAnswerTooShort })
      .max(MAX_ANSWER, { error: M.fieldTooLong })
      .refine((v) => !CONTROL.test(v), { error: M.invalidCharacters }),
    password: chosenPassword(M.passwordTooShort),
    confirmPassword: z.string({ error: M.passwordsDoNotMatch }).max(PASSWORD.maxLength, { error: M.passwordTooLong }),
  })
  .refine((v) => v.password === v.confirmPassword, { error: M.passwordsDoNotMatch, path: ["confirmPassword"] });

export const forgotPasswordSchema = z.object({
  intent: z.literal("forgot-password"),
  email: emailSchema,
});

// The reset page applies sign-up's rule (8 characters, with sign-in's message: the spec's 6 would
// let a user set a password they cannot sign in with; see PASSWORD.minLength). A signed-in user
// resetting another account's password must say so (confirmOtherAccount; the action checks it).
export const resetPasswordSchema = z
  .object({
    password: chosenPassword(M.resetBothRequired),
    confirmPassword: z.string({ error: M.resetBothRequired }).max(PASSWORD.maxLength, { error: M.passwordTooLong }),
    confirmOtherAccount: z.literal("yes").optional(),
  })
  .refine((v) => v.password === v.confirmPassword, { error: M.passwordsDoNotMatch, path: ["confirmPassword"] });

/**
 * Changing the password while signed in (issue 46): the current one (and a two-factor code where
 * the session has no recent proof: the rule's own helper decides), and a new one under sign-up's
 * rules, typed twice, that is not the current one.
 */
export const changePasswordSchema = z
  .object({
    currentPassword: z
      .string({ error: M.currentPasswordRequired })
      .min(1, { error: M.currentPasswordRequired })
      .max(PASSWORD.maxLength, { error: M.passwordTooLong }),
    code: z.string().trim().max(TWO_FACTOR.codeMaxLength, { error: M.fieldTooLong }).optional(),
    password: chosenPassword(M.newPasswordRequired),
    confirmPassword: z.string({ error: M.newPasswordRequired }).max(PASSWORD.maxLength, { error: M.passwordTooLong }),
  })
  .refine((v) => v.password === v.confirmPassword, { error: M.passwordsDoNotMatch, path: ["confirmPassword"] })
  .refine((v) => v.password !== v.currentPassword, { error: M.newPasswordSameAsCurrent, path: ["password"] });

/** A number without + gets the +1 prefix (North American numbers are the default). */
export function normalisePhone(phone: string): string {
  const trimmed = phone.trim();
  const digits = trimmed.replace(/[^0-9]/g, "");
  return trimmed.startsWith("+") ? `+${digits}` : `${SIGN_UP.phoneDefaultPrefix}${digits}`;
}
