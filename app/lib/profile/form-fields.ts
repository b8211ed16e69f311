// The Edit Profile form's fields and its website rule, for the browser and the server alike. Apart
// from validation.ts (the schema) because zod schemas built at a module's top level stay in every
// bundle that imports the module: the profile page's code needs these, not zod (issue 31).

/**
 * Spec: a website starts with http:// or https:// or contains a dot. A value with any other
 * scheme (javascript:, data:) is refused even when it contains a dot: it becomes a link.
 */
export function isAcceptableWebsite(value: string): boolean {
  if (/^https?:\/\/\S+$/i.test(value)) return true;
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return false;
  return value.includes(".") && !/\s/.test(value);
}

/** The link a saved website becomes: a bare host gets https://. */
export function websiteHref(value: string): string {
  return /^https?:\/\//i.test(value) ? value : `https://${value}`;
}

/** The fields of the form as strings, the shape the browser edits and backs up. */
export const PROFILE_FORM_FIELDS = [
  "firstName",
  "lastName",
  "initial",
  "username",
  "email",
  "phoneNumber",
  "bio",
  "company",
  "location",
  "website",
  "timezone",
  "locale",
  "securityQuestion",
  "securityAnswer",
] as const;
export type ProfileFormField = (typeof PROFILE_FORM_FIELDS)[number];
export type ProfileFormValues = Record<ProfileFormField, string>;
