// Texts of the early-access programme (ours: the spec gives no texts for keys and the waitlist).
export const EARLY_ACCESS_MESSAGES = {
  invalidKey: "Please enter a 16-character activation key (letters and numbers).",
  unknownKey: "This activation key is not valid. Check it and try again.",
  usedKey: "This activation key has already been used.",
  expiredKey: "This activation key has expired. Please ask for a new one.",
  revokedKey: "This activation key has been withdrawn. Please ask for a new one.",
  alreadyActive: "Your account already has early access.",
  tooManyAttempts: (minutes: number) => `Too many attempts. Please wait ${minutes} ${minutes === 1 ? "minute" : "minutes"} before trying again.`,
  redeemed: "Early access activated! Your account is ready.",
} as const;
