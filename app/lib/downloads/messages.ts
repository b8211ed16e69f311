// The download texts of the spec, and the few this platform adds around signed links.
import { DOWNLOAD } from "../constants";
import { formatDuration } from "../format";

export const DOWNLOAD_MESSAGES = {
  signInRequired: "Please sign in to download",
  authRequired: "Authentication required. Please sign in again.",
  subscriptionRequired: "Active subscription required to download. Please subscribe to access downloads.",
  selectVersion: "Select a version to download",
  preparing: "Preparing Download...",
  failed: "Download failed",
  invalidResponse: "Invalid download response",
  failedContactSupport: "Failed to download. Please try again or contact support.",
  // Not in the spec: a platform or architecture the site does not offer, or one not yet published.
  unknownOption: "Please choose one of the listed versions.",
  notPublished: "This version is not available yet. Please choose another one or try again later.",
  linkInvalid: "This download link is not valid. Open Downloads in your dashboard to get a new one.",
  linkExpired: "This download link has expired. Open Downloads in your dashboard to get a new one.",
  linkOtherUser: "This download link belongs to another account. Sign in as that account, or open Downloads in your dashboard.",
} as const;

export type DownloadErrorCode = keyof typeof DOWNLOAD_MESSAGES;

/**
 * The Downloads tab's ?error=<code> (a download that failed without JavaScript comes back with
 * one): the words come from here, never from the URL; an unknown code gets the generic text.
 */
export function downloadErrorMessage(code: string | null): string | null {
  if (!code) return null;
  return Object.hasOwn(DOWNLOAD_MESSAGES, code) && typeof DOWNLOAD_MESSAGES[code as DownloadErrorCode] === "string"
    ? DOWNLOAD_MESSAGES[code as DownloadErrorCode]
    : DOWNLOAD_MESSAGES.failedContactSupport;
}

/** "E-mail me the link" on a phone or tablet (issue 46). Not in the spec. */
export const EMAIL_LINK_MESSAGES = {
  sent: (to: string) => `We sent a link to ${to}. Open it on your computer to download Modelify.`,
  tooMany: `You asked for the link several times already. Check your inbox, or try again in ${formatDuration(DOWNLOAD.emailLinkPerUser.windowMs, "hour", { article: true })}.`,
  unconfirmed: "Confirm your e-mail address first: we send links only to a confirmed address.",
  invalid: "This request could not be read. Please use the button on the Downloads page.",
} as const;
