// The spec's numbers for accounts: passwords, sessions, lockouts, two-factor, passkeys, device
// sign-in, e-mail links, the profile and the account's own data (part of ./index.ts).
import { SECOND, MINUTE, HOUR, DAY } from "./time.ts";

export const PASSWORD = {
  // Sign-up, sign-in and the reset page. The spec's reset page asks for 6, but a 6- or
  // 7-character password could never sign in again, so the reset page asks for 8 too.
  minLength: 8,
  strengthThreshold: 3, // of 5
  maxLength: 128, // bound on work per hash; not a spec number but an input limit
} as const;

// PBKDF2-SHA256: production Workers refuse more than 100,000 iterations.
export const PBKDF2_ITERATIONS = 100_000;

export const PBKDF2_MAX_ITERATIONS = 100_000;

export const PBKDF2_SALT_BYTES = 16;

// An e-mail address, wherever one is typed or read: the longest path SMTP carries (RFC 5321,
// 4.5.3.1.3: 256 octets with the angle brackets).
export const EMAIL_ADDRESS = { maxLength: 254 } as const;

// A person's first or last name, wherever one is typed (sign-up, the profile, the waitlist). Not in
// the spec, which bounds names only from below (2 characters on the profile). One bound, so a name
// sign-up takes can always be saved on the profile: sign-up allowed 100 and the profile and the
// waitlist 50, so an account with a longer name could never save its profile. 100 is the one that
// refuses no name sign-up took (stored rows keep working) and still keeps a row small; it is more
// than the 35 characters per name the UK's Government Data Standards ask systems to hold.
export const PERSON_NAME = { maxLength: 100 } as const;

export const SIGN_UP = {
  phoneMinLength: 10,
  phoneDefaultPrefix: "+1",
  securityAnswerMinLength: 3,
  middleInitialMaxLength: 10,
} as const;

export const LOCKOUT = {
  signIn: { maxFailures: 4, lockMs: 15 * MINUTE }, // locked after more than 4
  signUp: { maxFailures: 3, lockMs: 30 * MINUTE }, // locked after more than 3
  // Wrong two-factor codes (issue 29: "the sign-in lockout's rules"), counted per account apart
  // from the password's failures, so a right password cannot reset the code's count.
  twoFactor: { maxFailures: 4, lockMs: 15 * MINUTE },
} as const;

// Not in the spec (issue 45, F6): a code lock that trips again lasts `factor` times the one before
// (15 min, 30 min, 1 h … 16 h, then `maxLockMs`), so someone who knows the password gets 5 guesses
// a day instead of 5 every 15 minutes (about 0.5% a year at the cap, not 40%). A correct code
// forgets the trips. Without one they are forgotten `forgetAfterMs` after the latest trip: the
// ladder takes about 32 hours to reach the cap, so anyone who waits `forgetAfterMs` out to climb it
// again from 15 minutes guesses no faster than 5 a day (that holds from about 6.7 days on), and a
// typo months ago does not make a passkey user's next lock a day long.
export const TWO_FACTOR_LOCK_GROWTH = { factor: 2, maxLockMs: 24 * HOUR, forgetAfterMs: 7 * DAY } as const;

// Not in the spec: the per-address guard. Many people share an IP (offices, mobile carriers), so
// it never refuses; after this many failures from one address in the window, each attempt from
// it waits delayMs before it is checked.
export const IP_GUARD = {
  signIn: { failures: 30, windowMs: 15 * MINUTE, delayMs: 2 * SECOND },
  signUp: { failures: 30, windowMs: 30 * MINUTE, delayMs: 2 * SECOND },
  twoFactor: { failures: 30, windowMs: 15 * MINUTE, delayMs: 2 * SECOND },
} as const;

// Two-factor sign-in (issue 29): RFC 6238 codes as authenticator apps make them; one step of
// clock drift either way; ten recovery codes; a password-proven sign-in waits this long for its code.
export const TWO_FACTOR = {
  issuer: "Modelify",
  algorithm: "SHA-1",
  digits: 6,
  periodSeconds: 30,
  window: 1,
  recoveryCodes: 10,
  recoveryCodeBytes: 10,
  pendingSignInMs: 10 * MINUTE,
  setupTtlMs: 30 * MINUTE,
  // The longest answer a code field takes: a 6-digit code or a recovery code, with room for spaces.
  codeMaxLength: 64,
} as const;

// Not in the spec: caps on requests that send e-mail (sign-up, password reset), so nobody can use
// us to flood inboxes. Over a cap the answer stays the same generic one; the mail is not sent.
export const MAIL_CAP = {
  perIp: { limit: 20, windowMs: 1 * HOUR },
  confirmationsPerAddress: { limit: 5, windowMs: 1 * HOUR },
} as const;

export const INACTIVITY_LIMIT_MS = 720 * HOUR; // 30 days

export const ACTIVITY_UPDATE_INTERVAL_MS = 30 * MINUTE;

export const SESSION = {
  accessTokenTtlMs: 15 * MINUTE,
  refreshTokenTtlMs: INACTIVITY_LIMIT_MS,
  // A refresh token used again within this window after rotation is a race between tabs, not theft.
  refreshReuseGraceMs: 30 * SECOND,
} as const;

// Not in the spec: "Confirm it's you" (issue 45). Whatever adds or removes a way into an account
// (a passkey, two-factor, recovery codes, the e-mail, the password, a device key) needs the
// password, and a code where two-factor is on, shown in the same session within this window.
export const RECENT_PROOF = { windowMs: 10 * MINUTE } as const;

// Not in the spec: the first page after a password reset (issue 45) names what the reset ended
// within this long.
export const ACCESS_REVIEW = { endedLookbackMs: 1 * DAY } as const;

// The desktop app's sign-in through the browser (RFC 8628 device authorization, ADR 0018).
// Not in the spec: the RFC's suggested lifetimes and polling, and limits against guessing.
export const DEVICE_AUTH = {
  clientId: "modelify-desktop",
  codeTtlMs: 10 * MINUTE,
  pollIntervalSeconds: 5,
  // RFC 8628 3.5: every slow_down adds 5 seconds to the interval for the rest of the code's life.
  slowDownSeconds: 5,
  // 20 consonants, no vowels (no words) and none easily misread; 8 of them: 20^8 ≈ 2.6 × 10^10.
  userCodeAlphabet: "BCDFGHJKLMNPQRSTVWXZ",
  userCodeLength: 8,
  deviceCodeBytes: 32,
  // Code requests per client address (the device isn't signed in yet, so nothing else to count).
  requestsPerIp: { max: 10, windowMs: 15 * MINUTE },
  // Wrong codes a signed-in user may enter before entering codes is refused for the window.
  wrongCodes: { max: 5, windowMs: 15 * MINUTE },
  // Expired and used rows are kept this long (for the approval page's answers), then swept.
  keepRowsMs: 1 * DAY,
} as const;

export const ONE_TIME_TOKEN = {
  signupTtlMs: 24 * HOUR,
  recoveryTtlMs: 1 * HOUR,
  // Re-send a confirmation e-mail at most this often when an unconfirmed user tries to sign in.
  confirmationResendMs: 5 * MINUTE,
  // At most one reset e-mail per account in this window (the answer stays the same).
  recoveryResendMs: 1 * MINUTE,
} as const;

export const REDIRECT_DELAY_MS = {
  signIn: 1 * SECOND,
  signUp: 3 * SECOND,
  resetPassword: 2 * SECOND,
  phone: 3 * SECOND,
  phoneDialogClose: 2 * SECOND,
} as const;

export const PROFILE = {
  nameMinLength: 2, // the longest is PERSON_NAME.maxLength, as at sign-up
  // Not in the spec: input bounds, so one row stays small.
  bioMaxLength: 500,
  fieldMaxLength: 100, // company, location
  websiteMaxLength: 200,
  securityAnswerMinLength: 3,
  autoSaveMs: 10 * SECOND,
  backupValidityMs: 24 * HOUR,
  loadTimeoutMs: 10 * SECOND,
  savedMessageMs: 3 * SECOND,
} as const;

export const USERNAME = {
  minLength: 3,
  maxLength: 20,
  changeIntervalDays: 14,
  changeIntervalMs: 14 * DAY,
} as const;

export const PROFILE_IMAGES = {
  avatarMaxBytes: 5 * 1024 * 1024,
  coverMaxBytes: 10 * 1024 * 1024,
  uploadTimeoutMs: 30 * SECOND,
  // Spec: storage cache control 3600 s. The URL carries a version, so a new picture shows at once.
  cacheSeconds: 3600,
} as const;

export const PHONE_CODE = {
  digits: 6,
  ttlSeconds: 900, // the dialog's countdown; resend stays disabled until it ends
  requestTimeoutMs: 10 * SECOND,
  // Not in the spec: five wrong entries end a code (a new one must be sent).
  maxWrongAttempts: 5,
  // Not in the spec: sends per account and per number, so nobody can use us to flood a phone.
  sendsPerUser: { limit: 5, windowMs: 1 * HOUR },
  sendsPerNumber: { limit: 5, windowMs: 1 * HOUR },
} as const;

// Not in the spec: a changed e-mail address must be confirmed from the new inbox within a day.
export const EMAIL_CHANGE = {
  linkTtlMs: 24 * HOUR,
  requestsPerUser: { limit: 5, windowMs: 1 * HOUR },
} as const;

// "Download my data" (issue 29): one export per account per hour (counted atomically, so two
// requests at once make one job); the file's link works for 24 hours, for its owner only, and the
// hourly cron then deletes the file.
export const DATA_EXPORT = {
  perUser: { limit: 1, windowMs: 1 * HOUR },
  linkTtlMs: 24 * HOUR,
  /** Exports listed on the profile (the newest first). */
  listed: 3,
  /**
   * Expired files the hourly sweep deletes per page: one R2 delete (at most 1,000 keys) and one
   * D1 update (at most 100 bound parameters) each; it pages until none is left.
   */
  sweepPage: 90,
  /**
   * The sweep of files without an export row leaves younger files alone (export.server.ts says
   * why): a queue consumer runs at most 15 minutes, so by then the build that wrote a file has
   * checked its row or stopped.
   */
  orphanGraceMs: 15 * MINUTE,
  /** Files per R2 listing of that sweep (R2's most): their ids are looked up sweepPage at a time. */
  orphanListPage: 1000,
  /** How often the profile asks whether an export being prepared (a minute or two) is ready. */
  statusPollMs: 5 * SECOND,
} as const;

// "Delete my account": the first request that proves the owner claims the deletion; any other at
// the same time is refused. The claim ends on its own after claimMs, so a deletion cut off half
// way (the Worker stopped) may be asked for again; a whole one takes seconds.
export const ACCOUNT_DELETION = {
  claimMs: 5 * MINUTE,
} as const;

// Passkeys (WebAuthn, issue 29). Not in the spec: a challenge lives 5 minutes (the browser's
// prompt times out with it), sign-in answers are capped per IP (public; issue 46: the answers, not
// the challenges, which the sign-in page asks for on every view) and registration challenges per
// account, and an account holds at most 20 passkeys with names up to 60 characters.
export const PASSKEY = {
  rpName: "Modelify",
  challengeTtlMs: 5 * MINUTE,
  // A passkey cannot be guessed, so this only bounds work: generous, since an office signs in
  // behind one address.
  signInAnswersPerIp: { limit: 100, windowMs: 15 * MINUTE },
  registerOptionsPerUser: { limit: 20, windowMs: 1 * HOUR },
  maxPerUser: 20,
  nameMaxLength: 60,
} as const;
