// The waitlist form and its priority rule, free of the database so both run anywhere (the form's
// schema validates in the browser through conform and again on the server).
import { EARLY_ACCESS } from "../constants";
import { emailAddress } from "../email-address";
import { personName } from "../person-name";
import { z } from "../zod";
import { WAITLIST_MESSAGES as M } from "./messages";

const MAX_COMPANY = 100;
const CONTROL = /\p{Cc}/u;

function text(max: number) {
  return z
    .string()
    .trim()
    .max(max, { error: M.tooLong(max) })
    .refine((v) => !CONTROL.test(v), { error: M.invalidCharacters });
}

export const waitlistSchema = z.object({
  email: emailAddress({ required: M.emailRequired, invalid: M.emailInvalid }),
  firstName: personName("First name", { required: M.firstNameRequired, invalidCharacters: M.invalidCharacters }),
  lastName: personName("Last name", { required: M.lastNameRequired, invalidCharacters: M.invalidCharacters }),
  company: text(MAX_COMPANY).optional(),
  // Who sent the visitor (?ref=): a member's username or a campaign code. Anything else is dropped.
  ref: z
    .string()
    .trim()
    .max(64)
    .optional()
    .transform((v) => (v && /^[A-Za-z0-9_.-]{1,64}$/.test(v) ? v : undefined)),
});

export type WaitlistForm = z.infer<typeof waitlistSchema>;

/**
 * The priority score (ADR 0012). Only facts the server can check count: a company given, a
 * referral naming an existing member, and a place among the first `earlyPlaces` entries. A
 * self-invented ?ref= code is stored for the record but earns nothing.
 */
export function priorityScore(input: { company?: string | null; referredByMember: boolean; place: number }): number {
  const p = EARLY_ACCESS.priority;
  return (input.company ? p.company : 0) + (input.referredByMember ? p.referral : 0) + (input.place <= p.earlyPlaces ? p.early : 0);
}
