// Device keys by the names people know them by: a report's device is the desktop session (device
// key) that sent it, named as the profile's "Sessions and devices" card names it (the name the app
// gave, else what its user agent says). Only the account's own sessions are looked up, ended ones
// too (their reports stay), in one statement and only when there are keys to name.
import { and, eq, inArray } from "drizzle-orm";
import { deviceLabel } from "../auth/user-agent";
import type { Db } from "../db.server";
import { schema } from "../db.server";

/** What a device without a session row is called (a report sent with no device key, or an account's deleted session). */
const NO_DEVICE_NAME = "No device";
const UNKNOWN_DEVICE_NAME = "Removed device";

export async function deviceNames(db: Db, userId: string, ids: Iterable<string>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids)].filter((id) => id !== "");
  const names = new Map<string, string>();
  const s = schema.sessions;
  // D1 binds at most 100 values a statement: one per hundred keys (an account has few devices).
  for (let i = 0; i < wanted.length; i += 99) {
    const rows = await db
      .select({ id: s.id, name: s.deviceName, userAgent: s.userAgent, client: s.client })
      .from(s)
      .where(and(eq(s.userId, userId), inArray(s.id, wanted.slice(i, i + 99))));
    for (const r of rows) names.set(r.id, r.name ?? deviceLabel(r.userAgent, r.client));
  }
  return names;
}

/** A device key's name from `deviceNames`' answer ("" is no device). */
export function deviceName(names: Map<string, string>, id: string): string {
  if (id === "") return NO_DEVICE_NAME;
  return names.get(id) ?? UNKNOWN_DEVICE_NAME;
}
