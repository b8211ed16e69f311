// "Active now", "Last active 5 minutes ago", "… yesterday" or "… <date>": when a session was last used. Both times
// come from the server (the current session counts as used at the page's load), so the page's
// server and browser renders say the same.
import { formatDate } from "../format";
import { MS } from "../constants";

const ago = (n: number, unit: string) => `Last active ${n} ${unit}${n === 1 ? "" : "s"} ago`;

export function lastActiveLabel(at: number, now: number): string {
  const elapsed = Math.max(0, now - at);
  if (elapsed < MS.MINUTE) return "Active now";
  if (elapsed < MS.HOUR) return ago(Math.floor(elapsed / MS.MINUTE), "minute");
  if (elapsed < MS.DAY) return ago(Math.floor(elapsed / MS.HOUR), "hour");
  // Calendar days in UTC, as formatDate shows them.
  const days = Math.floor(now / MS.DAY) - Math.floor(at / MS.DAY);
  if (days === 1) return "Last active yesterday";
  return `Last active ${formatDate(at)}`;
}
