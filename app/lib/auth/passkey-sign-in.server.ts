// A passkey sign-in: the answer to a sign-in challenge opens a web session for the passkey's
// owner at once. A passkey verifies its user (PIN or biometrics) on a device they hold, so it
// satisfies two-factor: no second step follows. It is not a recent proof, though: changing a way
// in afterwards still asks for the password (lib/auth/recent-proof.server.ts).
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { type AuthDeps, completeSignIn } from "./accounts.server";
import { PASSKEY_MESSAGES as M } from "./passkey-messages";
import { relyingParty, verifyPasskeySignIn, type PasskeyFailure } from "./passkeys.server";
import type { IssuedTokens } from "./session.server";
import { findUserById } from "./users.server";
import { sessionKeys } from "../keys";
import { log } from "../log/log.server";

export async function signInWithPasskey(
  deps: AuthDeps,
  response: AuthenticationResponseJSON,
): Promise<{ ok: true; userId: string; tokens: IssuedTokens; returning: boolean } | PasskeyFailure> {
  const verified = await verifyPasskeySignIn({ db: deps.db, keys: sessionKeys(deps.env), ip: deps.ip }, relyingParty(deps.origin), response);
  if (!verified.ok) return verified;
  const user = await findUserById(deps.db, verified.userId);
  if (!user || user.emailConfirmedAt === null) return { ok: false, status: 401, error: M.unknownPasskey };
  const { tokens, returning } = await completeSignIn(deps, user, "web", { shown: "passkey" });
  log.info("passkey_signin", { userId: user.id });
  return { ok: true, userId: user.id, tokens, returning };
}
