// The one rule for a person's first or last name, wherever one is typed: sign-up, the profile
// and the waitlist. A name one of them takes, another takes too (save for the profile's
// 2-character minimum, which is the spec's), and a name that is too long is told so in the same
// words on every form.
import { PERSON_NAME } from "./constants";
import { z } from "./zod";

// Control characters are never part of a name (bidi overrides are Cf, not Cc, and stay allowed):
// a lone NUL must not pass "required".
const CONTROL = /\p{Cc}/u;

type NameField = "First name" | "Last name";

export const PERSON_NAME_MESSAGES = {
  tooLong: (field: NameField) => `${field} must be ${PERSON_NAME.maxLength} characters or less`,
} as const;

/**
 * A required first or last name, trimmed. `required` and `invalidCharacters` are the form's own
 * words; `min` is a shortest length with its message, where the form has one.
 */
export function personName(field: NameField, messages: { required: string; invalidCharacters: string; min?: { length: number; message: string } }) {
  let text = z.string({ error: messages.required }).trim().min(1, { error: messages.required });
  if (messages.min) text = text.min(messages.min.length, { error: messages.min.message });
  return text.max(PERSON_NAME.maxLength, { error: PERSON_NAME_MESSAGES.tooLong(field) }).refine((v) => !CONTROL.test(v), { error: messages.invalidCharacters });
}
