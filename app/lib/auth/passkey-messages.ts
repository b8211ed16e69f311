// The words passkeys show (profile card, /auth, their endpoints' errors): one list, read by the
// server's answers and the components alike.
import { PASSKEY } from "../constants";

export const PASSKEY_MESSAGES = {
  nameRequired: "Please give the passkey a name.",
  nameTooLong: `A passkey's name can be at most ${PASSKEY.nameMaxLength} characters.`,
  tooMany: `You can register at most ${PASSKEY.maxPerUser} passkeys. Remove one to add another.`,
  tooManyRequests: (seconds: number) => `Too many passkey requests. Please wait ${seconds} seconds and try again.`,
  challengeExpired: "This passkey request has expired or was already used. Please try again.",
  notVerified: "The passkey could not be verified. Please try again.",
  unknownPasskey: "This passkey is not registered with Modelify. Sign in with your password, then add it from your profile.",
  alreadyRegistered: "This passkey is already registered.",
  alreadyOnDevice: "This device or password manager already holds a passkey for your account.",
  invalid: "The passkey request was not valid. Please try again.",
  notFound: "That passkey was not found.",
  added: "Passkey added. You can now sign in with it.",
  renamed: "Passkey renamed.",
  removed: "Passkey removed. It can no longer sign in to your account.",
  cancelled: "The passkey prompt was closed before it finished.",
  unsupported: "This browser cannot use passkeys.",
  needsJavaScript: "Adding a passkey needs JavaScript turned on in this browser.",
  // Issue 45: a passkey is a way in, so adding one takes a recent proof.
  confirmToAdd: "A passkey is a way into your account: confirm it's you with your password first.",
  signInFailed: "Signing in with a passkey did not work. Please try again or use your password.",
  signInRequired: "Please sign in first.",
} as const;

export type PasskeyOutcome = "added" | "renamed" | "removed" | "not-found" | "invalid";
