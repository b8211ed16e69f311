// The one rule for an e-mail address, wherever one is typed or read: sign-up, sign-in, forgot
// password, the profile's e-mail change, the waitlist, Contact Support, the admin tools, the
// desktop app's sign-in, the queue's messages and the configuration. An address one of them
// takes is then one every other takes too: an account can always sign in, save its profile and
// be mailed with the address it signed up with.
import { EMAIL_ADDRESS } from "./constants";
import { z } from "./zod";

// name@domain.tld without spaces, a second @ or control characters: the spec's "simple address
// pattern" of the profile, which holds sign-up's "contains @" too, and keeps out what no mail can
// reach (an address without a dot in its domain would be dead-lettered by the mail consumer).
// Unicode's control characters (Cc) are written as ranges, not \p{Cc}: the desktop API's sign-in
// puts this pattern in the OpenAPI document, where JSON Schema tools outside JavaScript (Python's
// re, for one) cannot read \p{…}.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it refuses
const ADDRESS = /^[^\s@\x00-\x1F\x7F-\x9F]+@[^\s@\x00-\x1F\x7F-\x9F]+\.[^\s@\x00-\x1F\x7F-\x9F]+$/;

/**
 * An e-mail address, trimmed and lower-cased. `invalid` is what the form says of an address that
 * breaks the rule; `required`, where the form has its own words for an empty field, what it says then.
 */
export function emailAddress(messages: { invalid?: string; required?: string } = {}) {
  const invalid = messages.invalid === undefined ? undefined : { error: messages.invalid };
  let text = z.string(messages.required === undefined ? invalid : { error: messages.required }).trim();
  if (messages.required !== undefined) text = text.min(1, { error: messages.required, abort: true });
  return text
    .max(EMAIL_ADDRESS.maxLength, invalid)
    .regex(ADDRESS, invalid)
    .transform((v) => v.toLowerCase());
}
