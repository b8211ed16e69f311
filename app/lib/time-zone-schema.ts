// The one rule for a time zone in a form or an API body (the profile's timezone, ADR 0030): an
// IANA zone the runtime knows, or UTC. Apart from time-zone.ts so that what only computes with
// zones does not load zod.
import { isTimeZone, UTC } from "./time-zone";
import { z } from "./zod";

export function timeZoneSchema(message: string) {
  return z.string({ error: message }).refine(isTimeZone, { error: message }).default(UTC);
}
