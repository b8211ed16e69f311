// The sign-up proof: a random nonce kept by the browser that proved the pending password (it
// submitted the sign-up form, or signed in to the unconfirmed account). The confirmation link
// stores the nonce's hash, so that browser confirms with one click and any other browser must
// type the password.
import { randomToken, sha256Hex } from "../crypto";

export async function newSignUpProof(): Promise<{ nonce: string; hash: string }> {
  const nonce = randomToken();
  return { nonce, hash: await sha256Hex(nonce) };
}

export async function proofHashOf(nonce: string | null): Promise<string | null> {
  return nonce ? sha256Hex(nonce) : null;
}
