// The optional advertising pixel (Meta's pixel, which takes the same event names; ADR 0013). It is
// loaded only when META_PIXEL_ID is configured and the visitor said yes; the choice is kept in
// this browser's localStorage (no cookie of ours), and "no" is the default until asked.
export const PIXEL_SCRIPT_ORIGIN = "https://connect.facebook.net";
export const PIXEL_SCRIPT_URL = `${PIXEL_SCRIPT_ORIGIN}/en_US/fbevents.js`;
/** Where the pixel sends its beacons (image requests and fetches). */
export const PIXEL_BEACON_ORIGIN = "https://www.facebook.com";

export const PIXEL_ID_PATTERN = /^\d{5,20}$/;
export const CONSENT_STORAGE_KEY = "modelify:ad-measurement";
export type PixelConsent = "granted" | "denied";

export function readConsent(stored: string | null): PixelConsent | null {
  return stored === "granted" || stored === "denied" ? stored : null;
}

/** The one rule: a configured id and an explicit yes. */
export function shouldLoadPixel(pixelId: string | null | undefined, consent: PixelConsent | null): pixelId is string {
  return typeof pixelId === "string" && PIXEL_ID_PATTERN.test(pixelId) && consent === "granted";
}
