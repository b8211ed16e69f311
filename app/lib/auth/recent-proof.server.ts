// "Confirm it's you" (issue 45): the one owner of the rule for every change that adds or removes a
// way into an account: a passkey, two-factor on or off, new recovery codes, the e-mail address,
// the password, a device key. A session alone (left open, or stolen) must not be able to make one:
// each asks for the password, and a code where two-factor is on, or accepts such a proof shown in
// the same session within RECENT_PROOF.windowMs. A proof counts only when it covered every factor
// the account has now: one made before two-factor was turned on does not stand in for its code.
//
// The functions that make those changes take a RecentProof, which only this module makes, so a
// caller cannot reach one without passing through here (tests/integration/recent-proof.test.ts
// also checks every route of the route table that calls them).
import { and, eq, isNotNull } from "drizzle-orm";
import { RECENT_PROOF } from "../constants";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { provePassword } from "./accounts.server";
import { AUTH_MESSAGES as M } from "./messages";
import { type TwoFactorDeps, verifySecondFactor } from "./two-factor.server";
import { findUserById } from "./users.server";

declare const proven: unique symbol;

/** Proof, made here only, that the session's owner showed every factor just now or recently. */
export type RecentProof = { readonly userId: string; readonly sessionId: string; readonly [proven]: true };

/** The session asking: its id and when its owner last showed every factor in it (null: never). */
export type ProvingSession = { userId: string; sessionId: string; provenAt: number | null };

/** What a form may carry: the password, and a code from the authenticator app (or a recovery code). */
export type ProofInput = { password?: string | null; code?: string | null };

export type ProofRefusal =
  /** Nothing recent and nothing given: ask (the code too where `code`). */
  | { ok: false; reason: "required"; needs: ProofNeeds }
  | { ok: false; reason: "wrong-password" | "wrong-code" | "missing-password" | "missing-code" }
  /** Either lock, with the time left in it (a 429's Retry-After). */
  | { ok: false; reason: "locked"; factor: "password" | "code"; retryAfterSeconds: number };

export type ProofResult = { ok: true; proof: RecentProof } | ProofRefusal;

/** What a page must ask for before one of these changes: nothing, or the password and perhaps a code. */
export type ProofNeeds = { password: boolean; code: boolean };

type ProofState = { recent: boolean; twoFactorOn: boolean; until: number | null };

const t = schema.twoFactor;

async function stateOf(db: Db, session: ProvingSession, now: number): Promise<ProofState> {
  const row = await db.query.twoFactor.findFirst({ where: and(eq(t.userId, session.userId), isNotNull(t.enabledAt)), columns: { enabledAt: true } });
  const twoFactorOn = row !== undefined;
  const covers = session.provenAt !== null && (row?.enabledAt == null || session.provenAt >= row.enabledAt);
  const until = covers && session.provenAt !== null ? session.provenAt + RECENT_PROOF.windowMs : null;
  return { recent: until !== null && now <= until, twoFactorOn, until: until !== null && now <= until ? until : null };
}

/**
 * What the page should ask for now (the forms show the fields only when needed), whether the
 * account has two-factor on (a form that always asks, asks for its code), and until when the
 * session's proof lasts (null: none).
 */
export async function proofNeeds(db: Db, session: ProvingSession, now = Date.now()): Promise<ProofNeeds & { twoFactorOn: boolean; until: number | null }> {
  const state = await stateOf(db, session, now);
  return { password: !state.recent, code: !state.recent && state.twoFactorOn, twoFactorOn: state.twoFactorOn, until: state.until };
}

const make = (session: ProvingSession) => ({ userId: session.userId, sessionId: session.sessionId }) as RecentProof;

/** A change takes the proof of its own account only: one account's proof never changes another's ways in. */
export function assertProofOf(proof: RecentProof, userId: string): void {
  if (proof.userId !== userId) throw new Error("A recent proof of another account was refused");
}

/**
 * The rule. A password given is always checked (under the sign-in lockout), and a code given is
 * always checked (under the two-factor lockout): what someone typed is never ignored. Without
 * them, a recent proof that covered every factor is enough. `passwordAlways`: the change asks for
 * the current password even then (the e-mail address and the password, DESIGN.md). When every
 * factor was shown in this request, the session's proof starts again from now.
 */
export async function requireRecentProof(
  deps: TwoFactorDeps,
  session: ProvingSession,
  input: ProofInput = {},
  options: { passwordAlways?: boolean; now?: number } = {},
): Promise<ProofResult> {
  const now = options.now ?? Date.now();
  const password = input.password || null;
  const code = input.code?.trim() || null;
  const state = await stateOf(deps.db, session, now);
  if (!password && !code) {
    if (state.recent && !options.passwordAlways) return { ok: true, proof: make(session) };
    if (options.passwordAlways && state.recent) return { ok: false, reason: "missing-password" };
    return { ok: false, reason: "required", needs: { password: true, code: state.twoFactorOn } };
  }
  if (password) {
    const user = await findUserById(deps.db, session.userId);
    if (!user) return { ok: false, reason: "wrong-password" };
    const checked = await provePassword(deps.db, user, password, deps.ip);
    if (!checked.ok && checked.reason === "wrong") return { ok: false, reason: "wrong-password" };
    if (!checked.ok) return { ok: false, reason: "locked", factor: "password", retryAfterSeconds: checked.retryAfterSeconds };
  } else if (!state.recent || options.passwordAlways) {
    return { ok: false, reason: "missing-password" };
  }
  if (state.twoFactorOn) {
    if (code) {
      const second = await verifySecondFactor(deps, session.userId, code, now);
      if (!second.ok && second.reason === "locked") return { ok: false, reason: "locked", factor: "code", retryAfterSeconds: second.retryAfterSeconds };
      if (!second.ok) return { ok: false, reason: "wrong-code" };
    } else if (!state.recent) {
      return { ok: false, reason: "missing-code" };
    }
  }
  if (password && (code || !state.twoFactorOn)) {
    await deps.db.update(schema.sessions).set({ provenAt: now }).where(eq(schema.sessions.id, session.sessionId));
  }
  return { ok: true, proof: make(session) };
}

/**
 * Every factor, now, whatever the session's proof: for what cannot be undone (deleting the
 * account). The password under the sign-in lockout, then the code where two-factor is on.
 */
export async function requireEveryFactor(deps: TwoFactorDeps, session: ProvingSession, input: ProofInput, now = Date.now()): Promise<ProofResult> {
  if (!input.password) return { ok: false, reason: "missing-password" };
  return requireRecentProof(deps, { ...session, provenAt: null }, input, { now });
}

/** Where a refused proof's message goes: beside its field, or above the form. */
export type ProofFieldErrors = { form?: string; password?: string; code?: string };

/** A refused proof as a form's answer: the message, its status, and a lock's Retry-After. */
export function proofErrors(refusal: ProofRefusal): { errors: ProofFieldErrors; status: number; retryAfterSeconds?: number } {
  switch (refusal.reason) {
    case "required":
      return { errors: { form: M.recentProofRequired }, status: 401 };
    case "missing-password":
      return { errors: { password: M.proofPasswordRequired }, status: 400 };
    case "wrong-password":
      return { errors: { password: M.proofPasswordWrong }, status: 401 };
    case "missing-code":
      return { errors: { code: M.proofCodeRequired }, status: 400 };
    case "wrong-code":
      return { errors: { code: M.twoFactorInvalid }, status: 401 };
    case "locked":
      return {
        errors: { form: refusal.factor === "password" ? M.signInLocked : M.twoFactorLocked(refusal.retryAfterSeconds) },
        status: 429,
        retryAfterSeconds: refusal.retryAfterSeconds,
      };
  }
}
