// The choices the profile offers: ten security questions and every time zone, the spec's nine first.
import { SECURITY_QUESTIONS } from "../auth/security-questions";
import { timeZoneNames } from "../time-zone";

// The five of sign-up first, so a question chosen at sign-up is one of the profile's ten.
export const PROFILE_SECURITY_QUESTIONS = [
  ...SECURITY_QUESTIONS,
  { value: "birth_city", label: "In what city were you born?" },
  { value: "elementary_school", label: "What was the name of your elementary school?" },
  { value: "childhood_friend", label: "What is the name of your childhood best friend?" },
  { value: "favorite_teacher", label: "What was the name of your favorite teacher?" },
  { value: "first_job", label: "Where did you have your first job?" },
] as const;

const SPEC_TIMEZONES = [
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

/** The spec's nine with their names, then every other IANA zone the runtime knows (ADR 0030). */
export const TIMEZONES: ReadonlyArray<{ value: string; label: string }> = [
  ...SPEC_TIMEZONES,
  ...timeZoneNames()
    .filter((zone) => !SPEC_TIMEZONES.some((t) => t.value === zone))
    .map((zone) => ({ value: zone, label: zone.replaceAll("_", " ") })),
];

export function timezoneLabel(value: string): string {
  return TIMEZONES.find((t) => t.value === value)?.label ?? value;
}
