// Why a phone code could not be sent or checked, and what the user reads. The reasons travel as
// short codes in the profile's URL (?phone=verify&phoneError=…) when the dialog works without
// JavaScript, so they are parsed back here too.
import { PHONE_CODE } from "../constants";
import { PHONE_MESSAGES } from "../profile/messages";

export const PHONE_FAILURES = [
  "not-authenticated",
  "no-phone",
  "invalid-number",
  "too-many-sends",
  "send-failed",
  "invalid-code",
  "expired",
  "mismatch",
  // The wrong code that used up the last check: the code is gone.
  "code-ended",
  // Refused before checking: the code's checks are used up.
  "too-many-attempts",
  "bad-request",
  "error",
] as const;

export type PhoneFailure = (typeof PHONE_FAILURES)[number];

export type PhoneFailed = {
  ok: false;
  reason: PhoneFailure;
  /** too-many-sends: whole minutes to wait, for the message */
  minutes?: number;
  /** A 429's wait in seconds, until the limit that refused lifts */
  retryAfterSeconds?: number;
};

/** The HTTP status a page or route answers with (never a 5xx for anything the user sent). */
export const PHONE_FAILURE_STATUS: Record<PhoneFailure, 400 | 401 | 429 | 503> = {
  "not-authenticated": 401,
  "no-phone": 400,
  "invalid-number": 400,
  "too-many-sends": 429,
  "send-failed": 503,
  "invalid-code": 400,
  expired: 400,
  mismatch: 400,
  "code-ended": 400,
  "too-many-attempts": 429,
  "bad-request": 400,
  error: 503,
};

export function phoneFailureMessage(reason: PhoneFailure, minutes = 1): string {
  switch (reason) {
    case "not-authenticated":
      return PHONE_MESSAGES.notAuthenticated;
    case "no-phone":
      return PHONE_MESSAGES.noPhone;
    case "invalid-number":
      return PHONE_MESSAGES.invalidNumber;
    case "too-many-sends":
      return PHONE_MESSAGES.tooManySends(minutes);
    case "send-failed":
      return PHONE_MESSAGES.sendFailed;
    case "invalid-code":
      return PHONE_MESSAGES.invalidCode;
    case "expired":
      return PHONE_MESSAGES.expired;
    case "mismatch":
      return PHONE_MESSAGES.phoneMismatch;
    case "code-ended":
    case "too-many-attempts":
      return PHONE_MESSAGES.tooManyAttempts;
    case "bad-request":
      return PHONE_MESSAGES.tryAgain;
    case "error":
      return PHONE_MESSAGES.errorOccurred;
  }
}

/** After these the code is gone (or never was): the user needs a new one, not another try. */
export function needsNewCode(reason: PhoneFailure): boolean {
  return reason === "expired" || reason === "mismatch" || reason === "code-ended" || reason === "too-many-attempts";
}

export function parsePhoneFailure(value: string | null | undefined): PhoneFailure | null {
  return (PHONE_FAILURES as readonly string[]).includes(value ?? "") ? (value as PhoneFailure) : null;
}

const MAX_WAIT_MINUTES = Math.ceil(Math.max(PHONE_CODE.sendsPerUser.windowMs, PHONE_CODE.sendsPerNumber.windowMs) / 60_000);

/** The wait the URL carries for too-many-sends: whole minutes, at most one send window. */
export function parseWaitMinutes(value: string | null | undefined): number {
  const minutes = Number(value);
  return Number.isInteger(minutes) && minutes >= 1 && minutes <= MAX_WAIT_MINUTES ? minutes : 1;
}
