// Session cookies: HttpOnly, SameSite=Lax, Secure except on plain-http localhost.
export const ACCESS_COOKIE = "mfy_access";
export const REFRESH_COOKIE = "mfy_refresh";
// Not a secret: only remembers that this browser has signed in before ("Back to Dashboard").
export const RETURNING_COOKIE = "mfy_returning";

export function parseCookies(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index < 0) continue;
    const name = part.slice(0, index).trim();
    const value = part.slice(index + 1).trim();
    if (!name || cookies.has(name)) continue;
    try {
      cookies.set(name, decodeURIComponent(value));
    } catch {
      // A malformed cookie is ignored, never fatal.
    }
  }
  return cookies;
}

function isSecure(requestUrl: URL): boolean {
  return requestUrl.protocol === "https:";
}

export function serializeCookie(
  requestUrl: URL,
  name: string,
  value: string,
  options: { maxAgeSeconds: number; httpOnly?: boolean },
): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, "Path=/", "SameSite=Lax", `Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`];
  if (options.httpOnly !== false) parts.push("HttpOnly");
  if (isSecure(requestUrl)) parts.push("Secure");
  return parts.join("; ");
}

export function clearCookie(requestUrl: URL, name: string): string {
  return serializeCookie(requestUrl, name, "", { maxAgeSeconds: 0 });
}
