import { parseCookies } from "./cookies";

export const RECOVERY_COOKIE = "mfy_recovery";
const RECOVERY_COOKIE_MAX_AGE_S = 3600;

export function recoveryCookie(url: URL, token: string): string {
  const parts = [`${RECOVERY_COOKIE}=${encodeURIComponent(token)}`, "Path=/auth", "HttpOnly", "SameSite=Lax", `Max-Age=${RECOVERY_COOKIE_MAX_AGE_S}`];
  if (url.protocol === "https:") parts.push("Secure");
  return parts.join("; ");
}

export function clearRecoveryCookie(url: URL): string {
  return recoveryCookie(url, "").replace(`Max-Age=${RECOVERY_COOKIE_MAX_AGE_S}`, "Max-Age=0");
}

export function readRecoveryToken(request: Request): string | null {
  const token = parseCookies(request.headers.get("Cookie")).get(RECOVERY_COOKIE);
  return token && token.length <= 128 ? token : null;
}
