// What the account screens say, word for word. Tests import these, so a changed text
// is a deliberate change of the product's contract. Numbers in them are the constants the rules
// enforce, so a text cannot promise a length or a lock the server does not hold.
import { LOCKOUT, MS, PASSWORD, SIGN_UP, TWO_FACTOR } from "../constants";
import { formatDuration } from "../format";

/** What is left of a lock, rounded up: "15 minutes" under an hour, then whole hours ("16 hours"). */
function lockLeft(retryAfterSeconds: number): string {
  const ms = Math.max(1, retryAfterSeconds) * MS.SECOND;
  return ms <= MS.HOUR ? formatDuration(Math.ceil(ms / MS.MINUTE) * MS.MINUTE, "minute") : formatDuration(Math.ceil(ms / MS.HOUR) * MS.HOUR, "hour");
}

export const AUTH_MESSAGES = {
  invalidEmail: "Please enter a valid email address",
  passwordTooShort: `Password must be at least ${PASSWORD.minLength} characters long`,
  passwordTooLong: `Password must be ${PASSWORD.maxLength} characters or less`,
  firstNameRequired: "First name is required",
  lastNameRequired: "Last name is required",
  invalidPhone: "Please enter a valid phone number",
  securityQuestionRequired: "Please select a security question",
  securityAnswerTooShort: `Please provide a security answer (at least ${SIGN_UP.securityAnswerMinLength} characters)`,
  passwordTooWeak: "Password is too weak. Please meet the minimum requirements.",
  passwordsDoNotMatch: "Passwords do not match",
  middleInitialTooLong: `Middle initial must be ${SIGN_UP.middleInitialMaxLength} characters or less`,
  commonPassword: "This password is too common. Please choose a less predictable one.",
  fieldTooLong: "This field is too long",
  invalidCharacters: "This field contains characters that are not allowed",

  invalidCredentials: "Invalid email or password. Please check your credentials and try again.",
  emailNotConfirmed: "Please check your email and click the confirmation link before signing in.",
  tooManySignInRequests: "Too many sign in attempts. Please wait a few minutes and try again.",
  resetEmailFailed: "Failed to send reset email. Please try again.",
  unexpected: "An unexpected error occurred. Please try again or contact support.",
  signInUnexpected: "An unexpected error occurred during sign in.",
  signUpUnexpected: "Account creation failed. Please try again.",
  networkIssue: "Network connection issue. Please check your internet connection and try again.",

  signInLocked: `Too many failed attempts. Account locked for ${formatDuration(LOCKOUT.signIn.lockMs, "minute")}.`,
  twoFactorRequired: `Enter the ${TWO_FACTOR.digits}-digit code from your authenticator app, or a recovery code.`,
  twoFactorInvalid: "That code is not right, or it was used already. Try the newest code from your app.",
  // A repeated lock lasts longer each time (TWO_FACTOR_LOCK_GROWTH), so the sentence names what is left.
  twoFactorLocked: (retryAfterSeconds: number) => `Too many wrong codes. Two-factor sign-in is locked for ${lockLeft(retryAfterSeconds)}.`,
  twoFactorExpired: "This sign-in waited too long for its code. Please sign in again.",
  signUpLocked: `Too many failed signup attempts. Please wait ${formatDuration(LOCKOUT.signUp.lockMs, "minute")} before trying again.`,
  waitSeconds: (seconds: number) => `Too many attempts. Please wait ${seconds} seconds before trying again.`,

  signInSuccess: (destination: string) => `Sign in successful! Redirecting to ${destination}...`,
  signUpSuccess: "Account created successfully! Please check your email and click the confirmation link to activate your account.",
  resetEmailSent: "Password reset email sent! Check your inbox.",

  resetBothRequired: "Please enter and confirm your new password",
  invalidResetLink: "This password reset link is invalid or has expired.",
  authCallbackFailed: "An unexpected error occurred during authentication",
  invalidConfirmationLink: "This confirmation link is invalid or has expired. Sign in to receive a new one.",
  // Not in the spec: a confirmation link opened in a browser other than the one that signed up
  // must prove the password, so nobody can confirm an account they pre-registered for someone else.
  confirmWithPassword: "Enter the password you chose when you signed up to confirm this e-mail address.",
  confirmPasswordMismatch: "That is not the password of the latest sign-up for this address. Use the password you chose, or sign up again.",

  signOutFailed: "Failed to sign out. Please try again.",

  // Ours (F4 of the security review): a recovery link opened while another account is signed in.
  resetOtherAccount: (signedInAs: string, target: string) =>
    `You are signed in as ${signedInAs}, but this link resets the password of ${target}. Tick the box below if you mean to reset that account.`,
  resetOtherAccountRequired: "Please confirm that you mean to reset the password of the account this link belongs to.",

  // Ours (issue 45): "Confirm it's you" before a change to the account's ways in.
  recentProofRequired: "Confirm it's you first: this change asks for your password, and a code from your authenticator app if two-factor is on.",
  proofPasswordRequired: "Enter your password.",
  proofPasswordWrong: "That password is not right.",
  proofCodeRequired: "Enter a code from your authenticator app, or a recovery code.",
  resetTwoFactorNext:
    "Your password was changed and every session was signed out. Enter a code from your authenticator app (or a recovery code) to finish signing in.",

  // Ours (issue 46): changing the password while signed in.
  currentPasswordRequired: "Enter your current password.",
  newPasswordRequired: "Please enter and confirm your new password",
  newPasswordSameAsCurrent: "Choose a password other than your current one.",
  passwordChanged: "Your password is changed. Every other session and device was signed out, and we e-mailed you about it.",
} as const;

/**
 * What /auth/callback may say when a link lands with ?error=<code>: the URL names a code, and the
 * words come from here, never from the URL (a link could otherwise make the site say anything).
 * The codes are the hosted auth service's of the spec; any other code gets the generic text.
 */
const AUTH_CALLBACK_ERRORS: Record<string, string> = {
  access_denied: "Access was denied. Please sign in again.",
  otp_expired: AUTH_MESSAGES.invalidConfirmationLink,
  invalid_request: AUTH_MESSAGES.invalidConfirmationLink,
  server_error: AUTH_MESSAGES.unexpected,
};

export function authCallbackError(code: string): string {
  return Object.hasOwn(AUTH_CALLBACK_ERRORS, code) ? AUTH_CALLBACK_ERRORS[code]! : AUTH_MESSAGES.authCallbackFailed;
}
