// The Edit Profile form's schema (ADR 0011). The same schema validates in the browser
// and on the server, so a user sees the spec's messages either way.
import { PASSWORD, PROFILE, SIGN_UP, TWO_FACTOR } from "../constants";
import { emailAddress } from "../email-address";
import { personName } from "../person-name";
import { z } from "../zod";
import { PROFILE_MESSAGES as M } from "./messages";
import { PROFILE_SECURITY_QUESTIONS } from "./options";
import { timeZoneSchema } from "../time-zone-schema";
import { LOCALES, type Locale } from "../locale";
import { usernameProblem } from "./username";
import { isAcceptableWebsite } from "./form-fields";

const CONTROL = /\p{Cc}/u;
const WEBSITE_EXAMPLE = "https://example.com";

/** An optional one-line text: trimmed, bounded, no control characters ("" when left empty). */
function optionalText(max: number) {
  return z
    .string()
    .trim()
    .max(max, { error: M.fieldTooLong })
    .refine((v) => !CONTROL.test(v), { error: M.invalidCharacters })
    .default("");
}

function name(field: "First name" | "Last name", required: string, tooShort: string) {
  return personName(field, { required, invalidCharacters: M.invalidCharacters, min: { length: PROFILE.nameMinLength, message: tooShort } });
}

const questionValues = PROFILE_SECURITY_QUESTIONS.map((q) => q.value) as [string, ...string[]];
const LOCALE_VALUES = LOCALES.map((l) => l.value) as [Locale, ...Locale[]];

export const profileFormSchema = z.object({
  firstName: name("First name", M.firstNameRequired, M.firstNameTooShort),
  lastName: name("Last name", M.lastNameRequired, M.lastNameTooShort),
  initial: optionalText(SIGN_UP.middleInitialMaxLength),
  // Empty keeps the saved username: a username can be changed but not removed.
  username: z
    .string()
    .trim()
    .default("")
    .superRefine((v, ctx) => {
      if (v === "") return;
      const problem = usernameProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  email: emailAddress({ invalid: M.invalidEmail }),
  phoneNumber: z
    .string()
    .trim()
    .max(32, { error: "Please enter a valid phone number" })
    .refine((v) => v === "" || (v.length >= SIGN_UP.phoneMinLength && /^\+?[0-9 ().-]+$/.test(v)), { error: "Please enter a valid phone number" })
    .default(""),
  bio: z
    .string()
    .trim()
    .max(PROFILE.bioMaxLength, { error: `Bio must be ${PROFILE.bioMaxLength} characters or less.` })
    .refine((v) => !/[^\P{Cc}\n\r\t]/u.test(v), { error: M.invalidCharacters })
    .default(""),
  company: optionalText(PROFILE.fieldMaxLength),
  location: optionalText(PROFILE.fieldMaxLength),
  website: optionalText(PROFILE.websiteMaxLength).refine((v) => v === "" || isAcceptableWebsite(v), { error: M.invalidWebsite(WEBSITE_EXAMPLE) }),
  timezone: timeZoneSchema(M.invalidTimezone),
  // "": the browser's locale (Accept-Language).
  locale: z.union([z.literal(""), z.enum(LOCALE_VALUES)], { error: M.invalidLocale }).default(""),
  securityQuestion: z.union([z.literal(""), z.enum(questionValues, { error: M.securityQuestionRequired })]).default(""),
  // Only read when the e-mail address changes: the account's password proves the change.
  currentPassword: z.string().max(PASSWORD.maxLength, { error: M.currentPasswordWrong }).default(""),
  // With two-factor on and no recent proof in the session, a code too (lib/auth/recent-proof.server.ts).
  currentCode: z.string().trim().max(TWO_FACTOR.codeMaxLength, { error: M.fieldTooLong }).default(""),
  // Empty keeps the saved answer (it is stored hashed and never shown again).
  securityAnswer: z
    .string()
    .trim()
    .max(200, { error: M.fieldTooLong })
    .refine((v) => v === "" || v.length >= PROFILE.securityAnswerMinLength, { error: M.securityAnswerTooShort })
    .default(""),
});

export type ProfileForm = z.infer<typeof profileFormSchema>;
