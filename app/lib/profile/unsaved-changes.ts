// What the Edit Profile dialog counts as unsaved (ADR 0011: any change sets an unsaved-changes
// flag, which starts a 10 s auto-save countdown), compared with the saved profile.
import type { ProfileFormField, ProfileFormValues } from "./form-fields";
import { PROFILE_FORM_FIELDS } from "./form-fields";
import type { ProfileView } from "./view";

/** The form's values as the server has them saved (the answer is never sent back). */
export function savedValues(profile: ProfileView): ProfileFormValues {
  return {
    firstName: profile.firstName,
    lastName: profile.lastName,
    initial: profile.initial,
    username: profile.username ?? "",
    // A pending change shows the address waiting for confirmation; saving it again sends nothing.
    email: profile.pendingEmail ?? profile.email,
    phoneNumber: profile.phoneNumber ?? "",
    bio: profile.bio,
    company: profile.company,
    location: profile.location,
    website: profile.website,
    timezone: profile.timezone,
    locale: profile.locale,
    securityQuestion: profile.securityQuestion ?? "",
    securityAnswer: "",
  };
}

// The username (which needs its confirmation dialog) and the e-mail (a change sends a
// confirmation link, so it must not go out half-typed) are saved only by the Save button.
export const EXPLICIT_ONLY: readonly ProfileFormField[] = ["username", "email"];

export type UnsavedChanges = {
  /** A field the auto-save countdown saves has changed. */
  autoSaved: boolean;
  /** A field only the Save button saves has changed. */
  explicitOnly: boolean;
  username: boolean;
  email: boolean;
  any: boolean;
};

export function unsavedChanges(values: ProfileFormValues, saved: ProfileFormValues): UnsavedChanges {
  // An emptied username keeps the saved one (a username can be changed but not removed).
  const changed = PROFILE_FORM_FIELDS.filter((f) => values[f] !== saved[f] && !(f === "username" && values[f] === ""));
  return {
    autoSaved: changed.some((f) => !EXPLICIT_ONLY.includes(f)),
    explicitOnly: changed.some((f) => EXPLICIT_ONLY.includes(f)),
    username: changed.includes("username"),
    email: changed.includes("email"),
    any: changed.length > 0,
  };
}
