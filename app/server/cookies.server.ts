// The site's cookies, on React Router's createCookie: HttpOnly and SameSite=Lax unless said
// otherwise, Secure whenever the request came over https (plain-http localhost cannot set Secure).
import { createCookie, type Cookie } from "react-router";
import { EARLY_ACCESS, ONE_TIME_TOKEN, TWO_FACTOR } from "~/lib/constants";

const defaults = { httpOnly: true, sameSite: "lax" as const, path: "/" };

export const accessCookie = createCookie("mfy_access", defaults);
export const refreshCookie = createCookie("mfy_refresh", defaults);
// A recovery token moves from the e-mail link into this cookie, so it never sits in history or a
// Referer header on the reset page.
export const recoveryCookie = createCookie("mfy_recovery", { ...defaults, path: "/auth", maxAge: ONE_TIME_TOKEN.recoveryTtlMs / 1000 });
// The nonce of the browser that proved a pending sign-up's password (lib/auth/signup-proof.server.ts).
export const signUpProofCookie = createCookie("mfy_signup_proof", { ...defaults, path: "/auth", maxAge: ONE_TIME_TOKEN.signupTtlMs / 1000 });

// A sign-in whose password was right, waiting for its two-factor code on /auth/two-factor (signed:
// lib/auth/two-factor-secret.ts). No session exists until the code is right.
export const pendingTwoFactorCookie = createCookie("mfy_2fa_pending", { ...defaults, path: "/auth", maxAge: TWO_FACTOR.pendingSignInMs / 1000 });

// An activation key opened from its e-mail link waits here (never in the URL or a Referer) until
// its owner has signed in or up and redeems it on /activate or the dashboard.
export const pendingKeyCookie = createCookie("mfy_pending_key", { ...defaults, maxAge: EARLY_ACCESS.pendingKeyMs / 1000 });

const MAX_VALUE_LENGTH = 4096;

/** A string value of the cookie, or null when absent, malformed or not ours. */
export async function readCookie(cookie: Cookie, request: Request): Promise<string | null> {
  const value: unknown = await cookie.parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 && value.length <= MAX_VALUE_LENGTH ? value : null;
}

export function setCookie(cookie: Cookie, url: URL, value: string, maxAgeSeconds?: number): Promise<string> {
  return cookie.serialize(value, {
    secure: url.protocol === "https:",
    ...(maxAgeSeconds === undefined ? {} : { maxAge: Math.max(0, Math.floor(maxAgeSeconds)) }),
  });
}

export function clearCookie(cookie: Cookie, url: URL): Promise<string> {
  return cookie.serialize("", { secure: url.protocol === "https:", maxAge: 0 });
}

export function headersWithCookies(cookies: string[]): Headers {
  const headers = new Headers();
  for (const c of cookies) headers.append("Set-Cookie", c);
  return headers;
}

/** The access and refresh cookies of a session (a refresh of null keeps the browser's one). */
export async function sessionCookies(
  url: URL,
  tokens: { accessToken: string; accessExpiresAt: number; refreshToken: string | null; refreshExpiresAt: number },
  now = Date.now(),
): Promise<string[]> {
  const cookies = [await setCookie(accessCookie, url, tokens.accessToken, (tokens.accessExpiresAt - now) / 1000)];
  if (tokens.refreshToken) cookies.push(await setCookie(refreshCookie, url, tokens.refreshToken, (tokens.refreshExpiresAt - now) / 1000));
  return cookies;
}

export async function clearSessionCookies(url: URL): Promise<string[]> {
  return [await clearCookie(accessCookie, url), await clearCookie(refreshCookie, url)];
}
