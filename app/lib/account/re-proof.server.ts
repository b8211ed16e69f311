// Proving it is really the account's owner before something that cannot be undone (deleting the
// account): the password under the sign-in's own lockout, then a second factor when the account
// has one.
//
// PLACEHOLDER until merge: two-factor sign-in (app/lib/auth/two-factor.server.ts) is built on
// another branch. The lead wires it at merge: secondFactorRequired asks whether the account has
// two-factor on, and checkSecondFactor calls verifySecondFactor(deps, userId, code), which answers
// "ok" | "invalid" | "locked". Until then no account has a second factor.
import { provePassword } from "../auth/accounts.server";
import type { Db } from "../db.server";

type SecondFactorOutcome = "ok" | "invalid" | "locked";

/** Whether the account must give a code (or recovery code) as well as its password. */
export async function secondFactorRequired(_db: Db, _userId: string): Promise<boolean> {
  return false;
}

/** Checks a code of the account's second factor (wired to verifySecondFactor at merge). */
async function checkSecondFactor(_deps: { db: Db; kv: KVNamespace }, _userId: string, _code: string): Promise<SecondFactorOutcome> {
  return "ok";
}

export type ReProof = { ok: true } | { ok: false; field: "password" | "code"; reason: "wrong" | "locked" | "missing"; retryAfterSeconds?: number };

/** The password, then the code when the account has two-factor on. */
export async function reProve(
  deps: { db: Db; kv: KVNamespace; ip: string | null },
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
  const outcome = await checkSecondFactor(deps, user.id, input.code);
  if (outcome === "ok") return { ok: true };
  return { ok: false, field: "code", reason: outcome === "locked" ? "locked" : "wrong" };
}
