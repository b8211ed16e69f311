// Texts of the early-access programme (ours: the spec gives no texts for keys and the waitlist).
import { EARLY_ACCESS } from "../constants";
import { formatDuration } from "../format";

export const EARLY_ACCESS_MESSAGES = {
  invalidKey: `Please enter a ${EARLY_ACCESS.keyLength}-character activation key (letters and numbers).`,
  unknownKey: "This activation key is not valid. Check it and try again.",
  usedKey: "This activation key has already been used.",
  expiredKey: "This activation key has expired. Please ask for a new one.",
  revokedKey: "This activation key has been withdrawn. Please ask for a new one.",
  alreadyActive: "Your account already has early access.",
  tooManyAttempts: (minutes: number) => `Too many attempts. Please wait ${minutes} ${minutes === 1 ? "minute" : "minutes"} before trying again.`,
  redeemed: "Early access activated! Your account is ready.",
  signInToRedeem: "Please sign in to redeem your activation key.",
  unexpected: "Something went wrong. Please try again in a moment.",
} as const;

export const WAITLIST_MESSAGES = {
  emailRequired: "Email is required",
  emailInvalid: "Please enter a valid email address",
  firstNameRequired: "First name is required",
  lastNameRequired: "Last name is required",
  tooLong: (max: number) => `Please keep this under ${max} characters`,
  invalidCharacters: "This field contains characters that are not allowed",
  joined: "You're on the list! We've sent a confirmation to your inbox.",
  alreadyJoined: "Good news: you're already on the list. We'll e-mail you as soon as your place comes up.",
  tooManyJoins: `Too many sign-ups from your network. Please try again in ${formatDuration(EARLY_ACCESS.waitlistJoinsPerIp.windowMs, "hour", { article: true })}.`,
  unexpected: "We couldn't add you just now. Please try again in a moment.",
} as const;
