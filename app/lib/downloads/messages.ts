// The download texts of the spec, and the few this platform adds around signed links.
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
