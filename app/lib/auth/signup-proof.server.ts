// The sign-up proof: a random nonce in an HttpOnly cookie of the browser that proved the pending
// password (it submitted the sign-up form, or signed in to the unconfirmed account). The
// confirmation link stores the nonce's hash, so that browser confirms with one click and any other
// browser must type the password.
import { ONE_TIME_TOKEN } from "../constants";
import { randomToken, sha256Hex } from "../crypto";
import { parseCookies } from "./cookies";

export const SIGNUP_PROOF_COOKIE = "mfy_signup_proof";
const MAX_AGE_S = Math.round(ONE_TIME_TOKEN.signupTtlMs / 1000);

export async function newSignUpProof(): Promise<{ nonce: string; hash: string }> {
  const nonce = randomToken();
  return { nonce, hash: await sha256Hex(nonce) };
}

export function signUpProofCookie(url: URL, nonce: string): string {
  const parts = [`${SIGNUP_PROOF_COOKIE}=${encodeURIComponent(nonce)}`, "Path=/auth", "HttpOnly", "SameSite=Lax", `Max-Age=${MAX_AGE_S}`];
  if (url.protocol === "https:") parts.push("Secure");
  return parts.join("; ");
}

export async function readSignUpProofHash(request: Request): Promise<string | null> {
  const nonce = parseCookies(request.headers.get("Cookie")).get(SIGNUP_PROOF_COOKIE);
  return nonce && nonce.length <= 128 ? sha256Hex(nonce) : null;
}
