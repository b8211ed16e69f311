// The texts of the profile page, its uploads and phone verification.
// Texts marked "ours" are not in the spec: limits and states the spec's app did not have.
import { PROFILE, PROFILE_IMAGES, USERNAME } from "../constants";

/** A size cap in the spec's words: "5MB". */
const megabytes = (bytes: number) => `${bytes / (1024 * 1024)}MB`;

export const PROFILE_MESSAGES = {
  saveFailed: "Failed to save profile. Please try again.",
  notCreated: "Profile not yet created. Please save other information first.",
  usernameFailed: "Failed to update username.",
  saved: "Profile saved successfully!",
  autoSaved: "Changes auto-saved!",
  reset: "All changes reset!",
  restored: "Restored unsaved changes from previous session!",
  firstNameRequired: "First name is required.",
  firstNameTooShort: `First name must be at least ${PROFILE.nameMinLength} characters long.`,
  lastNameRequired: "Last name is required.",
  lastNameTooShort: `Last name must be at least ${PROFILE.nameMinLength} characters long.`,
  invalidEmail: "Please enter a valid email address",
  invalidWebsite: (host: string) => `Please enter a valid website URL (e.g., ${host}).`,
  usernameTooShort: `Username must be at least ${USERNAME.minLength} characters long`,
  usernameTooLong: `Username must be ${USERNAME.maxLength} characters or less`,
  usernameCharacters: "Username can only contain letters, numbers, underscores, and hyphens",
  usernameProfanity: "Username contains inappropriate language",
  usernameReserved: "Username cannot contain reserved terms",
  // ours
  usernameTaken: "This username is already taken.",
  usernameChangeIn: (days: number) => `Can change in ${days} ${days === 1 ? "day" : "days"}`,
  securityAnswerTooShort: `Please provide a security answer (at least ${PROFILE.securityAnswerMinLength} characters)`,
  securityQuestionRequired: "Please select a security question",
  fieldTooLong: "This field is too long.",
  invalidCharacters: "This field contains characters that are not allowed.",
  invalidTimezone: "Please choose a timezone from the list.",
  invalidLocale: "Please choose a number and date format from the list.",
  emailChangePending: (email: string) => `We sent a confirmation link to ${email}. Your e-mail address changes when you open it.`,
  emailTaken: "This e-mail address cannot be used. Please choose another.",
  tooManyEmailChanges: "Too many e-mail changes. Please try again later.",
  savedExceptEmail: "Your other changes were saved; the e-mail address was not changed.",
  currentPasswordRequired: "Enter your current password to change your e-mail address.",
  currentPasswordWrong: "That is not your current password.",
} as const;

export const UPLOAD_MESSAGES = {
  storageNotConfigured: "Image storage is not configured. Please try again later.",
  permissionDenied: "You do not have permission to change this image.",
  avatarTooLarge: `Image size must be less than ${megabytes(PROFILE_IMAGES.avatarMaxBytes)}.`,
  coverTooLarge: `Cover photo size must be less than ${megabytes(PROFILE_IMAGES.coverMaxBytes)}.`,
  notAnImage: "Please select a valid image file.",
  invalidType: "Invalid file type. Please upload a JPG, PNG, GIF or WebP image.",
  network: "Network error. Please check your connection and try again.",
  timedOut: "Upload timed out. Please try again.",
  failed: (reason: string) => `Upload failed: ${reason}`,
  avatarUploaded: "Profile picture uploaded successfully!",
  coverUploaded: "Cover photo uploaded successfully!",
} as const;

export const imageTooLargeMessage = (kind: "avatar" | "cover") => (kind === "avatar" ? UPLOAD_MESSAGES.avatarTooLarge : UPLOAD_MESSAGES.coverTooLarge);
export const imageMaxBytes = (kind: "avatar" | "cover") => (kind === "avatar" ? PROFILE_IMAGES.avatarMaxBytes : PROFILE_IMAGES.coverMaxBytes);

export const PHONE_MESSAGES = {
  timedOut: "Verification request timed out. Please try again.",
  notSetUp: "Phone verification system not set up. Please run the database migration first.",
  sendFailed: "Failed to send verification code",
  invalidCode: "Invalid verification code",
  failed: "Verification failed",
  notAuthenticated: "User not authenticated",
  noPhone: "No phone number found for user",
  resendFailed: "Failed to resend verification",
  verifyFailed: "Failed to verify code",
  tryAgain: "Verification failed. Please try again.",
  errorOccurred: "An error occurred during verification.",
  verified: "Phone number verified successfully!",
  invalidLink: "Invalid verification link. Missing verification code or phone number.",
  // ours
  tooManyAttempts: "Too many wrong codes. Please request a new code.",
  expired: "This code has expired. Please request a new one.",
  tooManySends: (minutes: number) => `Too many codes sent. Please try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`,
  phoneMismatch: "This code was sent to a different phone number. Please request a new code.",
  invalidNumber: "This phone number cannot receive text messages. Please check it in your profile.",
} as const;

// Ours: the profile's list of sessions and devices (issue 10).
export const SESSION_MESSAGES = {
  ended: "Session ended. That device has to sign in again.",
  othersEnded: "Every other session is signed out.",
  notFound: "That session has already ended.",
  current: "This is the session you are using. Use Sign Out to end it.",
  invalid: "Please choose a session from the list.",
  signInRequired: "Please sign in again.",
} as const;

// Ours: confirming a changed e-mail address from the link sent to the new inbox (issue 10).
export const EMAIL_CHANGE_MESSAGES = {
  invalidLink: "This confirmation link is invalid, already used or expired. Change your e-mail address on your profile to get a new one.",
  changed: (email: string) => `Your e-mail address is now ${email}. Use it to sign in from now on.`,
  cancelInvalidLink:
    "This link is invalid, already used or expired. If your e-mail address was changed without your consent, write to support@modelify.dev from this address.",
  cancelled: "The change of your e-mail address was cancelled, and every browser and desktop app was signed out.",
} as const;
