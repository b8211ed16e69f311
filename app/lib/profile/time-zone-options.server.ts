// The profile's list of time zones: the spec's nine first, then every other zone the server's
// runtime knows (ADR 0030). Made here and handed to the form by the loader: browsers list zones
// differently (Intl.supportedValuesOf), and the page must be the same after hydration as before.
import { timeZoneNames } from "../time-zone";
import { SPEC_TIMEZONES } from "./options";

let choices: readonly string[] | null = null;

export function timeZoneChoices(): readonly string[] {
  choices ??= [...SPEC_TIMEZONES.map((t) => t.value), ...timeZoneNames().filter((zone) => !SPEC_TIMEZONES.some((t) => t.value === zone))];
  return choices;
}
