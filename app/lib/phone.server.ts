// Phone verification: a 6-digit code, kept hashed in KV under the user and the number it was sent to.
import { and, eq } from "drizzle-orm";
import { sha256Hex } from "./crypto";
import type { Db } from "./db.server";
import { schema } from "./db.server";

function codeKey(userId: string, phone: string) {
  return `phone-code:${userId}:${phone}`;
}

/** True when the code matches; the code is used up either way only on success. */
export async function verifyPhoneCode(kv: KVNamespace, db: Db, userId: string, phone: string, code: string): Promise<boolean> {
  const stored = await kv.get(codeKey(userId, phone));
  if (!stored || stored !== (await sha256Hex(`${userId}:${phone}:${code}`))) return false;
  await kv.delete(codeKey(userId, phone));
  await db
    .update(schema.userProfiles)
    .set({ phoneNumber: phone, phoneVerified: true, updatedAt: Date.now() })
    .where(and(eq(schema.userProfiles.userId, userId)));
  return true;
}
