// "Active now", "Last active 5 minutes ago", "… yesterday" or "… <date>": when a session was last used. Both times
// come from the server (the current session counts as used at the page's load), so the page's
// server and browser renders say the same.
import { MS } from "../constants";
import type { Formats } from "../format";
import { zoneOffset } from "../time-zone";

const ago = (n: number, unit: string) => `Last active ${n} ${unit}${n === 1 ? "" : "s"} ago`;

/** The day number of an instant on the zone's calendar (days since 1970-01-01 there). */
const localDay = (ms: number, zone: string) => Math.floor((ms + zoneOffset(ms, zone)) / MS.DAY);

export function lastActiveLabel(at: number, now: number, f: Pick<Formats, "date" | "timeZone">): string {
  const elapsed = Math.max(0, now - at);
  if (elapsed < MS.MINUTE) return "Active now";
  if (elapsed < MS.HOUR) return ago(Math.floor(elapsed / MS.MINUTE), "minute");
  if (elapsed < MS.DAY) return ago(Math.floor(elapsed / MS.HOUR), "hour");
  // Calendar days in the account's zone, as its dates are shown.
  if (localDay(now, f.timeZone) - localDay(at, f.timeZone) === 1) return "Last active yesterday";
  return `Last active ${f.date(at)}`;
}
