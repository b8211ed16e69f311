// Proving it is really the account's owner before something that cannot be undone (deleting the
// account): the password under the sign-in's own lockout, then a code from the authenticator app
// (or a recovery code) when the account has two-factor on, under the two-factor lockout.
import { provePassword } from "../auth/accounts.server";
import { type TwoFactorDeps, twoFactorEnabled, verifySecondFactor } from "../auth/two-factor.server";
import type { Db } from "../db.server";

/** Whether the account must give a code (or recovery code) as well as its password. */
export const secondFactorRequired = (db: Db, userId: string): Promise<boolean> => twoFactorEnabled(db, userId);

export type ReProof =
  | { ok: true }
  | { ok: false; field: "password" | "code"; reason: "wrong" | "missing" }
  /** Either lock, with the time left in it (the 429's Retry-After). */
  | { ok: false; field: "password" | "code"; reason: "locked"; retryAfterSeconds: number };

/** The password, then the code when the account has two-factor on. */
export async function reProve(
  deps: TwoFactorDeps,
  user: { id: string; email: string; passwordHash: string },
  input: { password: string; code?: string | undefined },
): Promise<ReProof> {
  const proof = await provePassword(deps.db, user, input.password, deps.ip);
  if (!proof.ok) {
    if (proof.reason === "wrong") return { ok: false, field: "password", reason: "wrong" };
    return { ok: false, field: "password", reason: "locked", retryAfterSeconds: proof.retryAfterSeconds };
  }
  if (!(await secondFactorRequired(deps.db, user.id))) return { ok: true };
  if (!input.code) return { ok: false, field: "code", reason: "missing" };
  const outcome = await verifySecondFactor(deps, user.id, input.code);
  if (outcome.ok) return { ok: true };
  if (outcome.reason === "locked") return { ok: false, field: "code", reason: "locked", retryAfterSeconds: outcome.retryAfterSeconds };
  return { ok: false, field: "code", reason: "wrong" };
}
