// The profile's phone status, from what user_profiles holds: verified, a code pending (sent less
// than PHONE_CODE.ttlSeconds ago), or neither.
import { PHONE_CODE } from "../constants";
import type { PhoneStatus } from "../profile/view";

export const PHONE_CODE_TTL_MS = PHONE_CODE.ttlSeconds * 1000;

/** When the code sent at `sentAt` expires (epoch ms), or null when none was sent. */
export function phoneCodeExpiresAt(sentAt: number | null): number | null {
  return sentAt === null ? null : sentAt + PHONE_CODE_TTL_MS;
}

export function phoneStatus({ phoneVerified, phoneCodeSentAt }: { phoneVerified: boolean; phoneCodeSentAt: number | null }, now = Date.now()): PhoneStatus {
  if (phoneVerified) return "verified";
  const expiresAt = phoneCodeExpiresAt(phoneCodeSentAt);
  return expiresAt !== null && expiresAt > now ? "pending" : "unverified";
}
