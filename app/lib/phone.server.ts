// Phone verification codes: 6 digits, kept hashed in KV for the spec's 900 s countdown.
import { and, eq } from "drizzle-orm";
import { sha256Hex } from "./crypto";
import type { Db } from "./db.server";
import { schema } from "./db.server";

export const PHONE_CODE_TTL_S = 900;

function codeKey(userId: string, phone: string) {
  return `phone-code:${userId}:${phone}`;
}

/** Creates a code for the user's phone and returns it for the SMS sender. */
export async function issuePhoneCode(kv: KVNamespace, userId: string, phone: string): Promise<string> {
  const n = crypto.getRandomValues(new Uint32Array(1))[0]! % 1_000_000;
  const code = String(n).padStart(6, "0");
  await kv.put(codeKey(userId, phone), await sha256Hex(`${userId}:${phone}:${code}`), { expirationTtl: PHONE_CODE_TTL_S });
  return code;
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
