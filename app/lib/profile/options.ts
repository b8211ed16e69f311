// The choices the profile offers: ten security questions, and the names of the spec's nine time
// zones, which come first in the list of every zone (time-zone-options.server.ts: the server's
// list, handed to the form by the loader, so the browser's own list never decides what the page shows).
import { SECURITY_QUESTIONS } from "../auth/security-questions";

// The five of sign-up first, so a question chosen at sign-up is one of the profile's ten.
export const PROFILE_SECURITY_QUESTIONS = [
  ...SECURITY_QUESTIONS,
  { value: "birth_city", label: "In what city were you born?" },
  { value: "elementary_school", label: "What was the name of your elementary school?" },
  { value: "childhood_friend", label: "What is the name of your childhood best friend?" },
  { value: "favorite_teacher", label: "What was the name of your favorite teacher?" },
  { value: "first_job", label: "Where did you have your first job?" },
] as const;

export const SPEC_TIMEZONES = [
  { value: "UTC", label: "UTC" },
  { value: "America/New_York", label: "Eastern Time (US & Canada)" },
  { value: "America/Chicago", label: "Central Time (US & Canada)" },
  { value: "America/Denver", label: "Mountain Time (US & Canada)" },
  { value: "America/Los_Angeles", label: "Pacific Time (US & Canada)" },
  { value: "Europe/London", label: "London" },
  { value: "Europe/Paris", label: "Paris" },
  { value: "Asia/Tokyo", label: "Tokyo" },
  { value: "Asia/Shanghai", label: "Shanghai" },
] as const;

/** A zone as the profile names it: the spec's names for its nine, else the IANA name with spaces ("America/St Johns"). */
export function timezoneLabel(value: string): string {
  return SPEC_TIMEZONES.find((t) => t.value === value)?.label ?? value.replaceAll("_", " ");
}
