// The device authorization grant's codes and messages (RFC 8628; its requests' schemas are in
// device-requests.ts), free of the database so they can be tested alone. The user code is what a person types; the device code stays in the app.
import { DEVICE_AUTH } from "../constants";
import { randomBytes, toBase64Url } from "../crypto";

export const DEVICE_PLATFORMS = ["windows", "macos", "linux"] as const;
export type DevicePlatform = (typeof DEVICE_PLATFORMS)[number];

export const PLATFORM_LABELS: Record<DevicePlatform, string> = { windows: "Windows", macos: "macOS", linux: "Linux" };

export const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

/** A new user code, canonical form (no dash). Rejection sampling keeps every letter equally likely. */
export function newUserCode(): string {
  const alphabet = DEVICE_AUTH.userCodeAlphabet;
  const limit = 256 - (256 % alphabet.length);
  let code = "";
  while (code.length < DEVICE_AUTH.userCodeLength) {
    for (const byte of randomBytes(DEVICE_AUTH.userCodeLength * 2)) {
      if (byte < limit && code.length < DEVICE_AUTH.userCodeLength) code += alphabet[byte % alphabet.length];
    }
  }
  return code;
}

export function newDeviceCode(): string {
  return toBase64Url(randomBytes(DEVICE_AUTH.deviceCodeBytes));
}

/**
 * A typed user code in canonical form, or null when it cannot be one: case, spaces and dashes
 * don't matter (RFC 8628 6.1), anything outside the alphabet does.
 */
export function normalizeUserCode(input: unknown): string | null {
  if (typeof input !== "string" || input.length > 40) return null;
  const code = input.toUpperCase().replace(/[\s-]/g, "");
  if (code.length !== DEVICE_AUTH.userCodeLength) return null;
  for (const letter of code) if (!DEVICE_AUTH.userCodeAlphabet.includes(letter)) return null;
  return code;
}

/** XXXX-XXXX, as the app and the approval page show it. */
export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** RFC 8628 3.5 and RFC 6749 5.2 error codes, with what the app can show. */
export const DEVICE_ERRORS = {
  authorization_pending: "Waiting for you to approve this device in the browser.",
  slow_down: "Polling too often: wait the interval before asking again.",
  access_denied: "The sign-in was denied in the browser.",
  expired_token: "The code expired. Start the sign-in again from the app.",
  invalid_grant: "This code is not valid or was already used. Start the sign-in again from the app.",
  invalid_client: `Unknown client_id (the desktop app is "${DEVICE_AUTH.clientId}").`,
  unsupported_grant_type: `grant_type must be ${DEVICE_CODE_GRANT} or refresh_token, or leave it out and send email and password (legacy).`,
  rate_limited: "Too many sign-in requests from this network. Try again later.",
} as const;

/** The approval page's words. */
export const DEVICE_MESSAGES = {
  invalidCode: "That code isn't valid. It may have expired or been used already: check the code in the app, or start the sign-in again there.",
  tooManyCodes: (minutes: number) => `Too many wrong codes. Try again in ${minutes === 1 ? "1 minute" : `${minutes} minutes`}.`,
  // A link from anywhere only fills the form in (another site must not spend the user's guesses).
  prefilled: "Check that this is the code the Modelify app shows, then continue.",
  /** When and where the app asked (RFC 8628 5.4: so that someone else's code looks foreign). */
  requested: (ago: string, country: string | null) => `Requested ${ago} from ${country ?? "an unknown country"}`,
  passwordRequired: "You signed in a while ago. Enter your password to approve this device.",
  wrongPassword: "That password is not correct.",
  unknownTeam: "Choose Personal or a team you are a member of.",
  approved: "Device approved. You can go back to the Modelify app: it is signed in.",
  denied: "Request denied. The app was not signed in.",
} as const;
