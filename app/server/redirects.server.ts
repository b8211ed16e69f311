// Where a redirect may go: only our own paths, whatever a query parameter or form asks for.
const REDIRECT_BASE = "http://modelify.invalid";

/**
 * Only same-site paths: never an open redirect. Browsers drop tabs and newlines and read a
 * backslash as a slash, so `/<TAB>/evil.example` would leave the site: such characters are
 * refused, and what is left must resolve to our own origin.
 */
export function safeRedirectPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length > 2048 || !value.startsWith("/")) return fallback;
  if (/[\p{Cc}\s\\]/u.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, REDIRECT_BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== REDIRECT_BASE) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
