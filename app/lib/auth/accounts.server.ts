// The account flows of spec §4/§5/§8, shared by the web forms and the desktop API.
import { ONE_TIME_TOKEN } from "../constants";
import type { Db } from "../db.server";
import type { AppEnv } from "../env.server";
import { enqueueMail } from "../mail/mail.server";
import { alreadyRegisteredMail, confirmationMail, passwordResetMail } from "../mail/templates";
import { AUTH_MESSAGES as M } from "./messages";
import {
  consumeOneTimeToken,
  expireUnusedTokens,
  issueOneTimeToken,
  latestTokenIssuedAt,
} from "./one-time-tokens.server";
import { clearFailures, lockedForSeconds, lockoutKeys, recordFailure, type LockoutScope } from "./lockout";
import { hashSecret, normaliseSecurityAnswer, verifyAgainstDummy, verifySecret } from "./password";
import { createSession, revokeUserSessions, type IssuedTokens, type SessionClient } from "./session.server";
import { findUserByEmail, findUserById, insertUser, markEmailConfirmed, recordSignIn, setPasswordHash, type UserRow } from "./users.server";
import { normalisePhone } from "./validation";

export type AuthDeps = {
  db: Db;
  kv: KVNamespace;
  queue: Queue;
  env: AppEnv;
  /** Origin for links in e-mails: APP_URL when configured, else the request's own origin. */
  origin: string;
  ip: string | null;
  userAgent: string | null;
};

export type Failure = { ok: false; status: 400 | 401 | 403 | 429; error: string };

export async function lockedFailure(deps: AuthDeps, scope: LockoutScope, email?: string): Promise<Failure | null> {
  const seconds = await lockedForSeconds(deps.kv, await lockoutKeys(scope, { email, ip: deps.ip }));
  return seconds > 0 ? { ok: false, status: 429, error: M.waitSeconds(seconds) } : null;
}

/** Counts a rejected sign-up; the attempt that crosses the limit gets the lock message. */
export async function recordSignUpFailure(deps: AuthDeps, email?: string): Promise<string | null> {
  const locked = await recordFailure(deps.kv, "signUp", await lockoutKeys("signUp", { email, ip: deps.ip }));
  return locked.length ? M.signUpLocked : null;
}

function link(deps: AuthDeps, path: string, params: Record<string, string>) {
  const url = new URL(path, deps.origin);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

async function sendConfirmation(deps: AuthDeps, user: UserRow) {
  const token = await issueOneTimeToken(deps.db, user.id, "signup", ONE_TIME_TOKEN.signupTtlMs);
  await enqueueMail(deps.queue, confirmationMail(user.email, link(deps, "/auth/callback", { type: "signup", token })));
}

export type SignInSuccess = { ok: true; user: UserRow; tokens: IssuedTokens; returning: boolean };

export async function signIn(
  deps: AuthDeps,
  input: { email: string; password: string; client: SessionClient },
): Promise<SignInSuccess | Failure> {
  const keys = await lockoutKeys("signIn", { email: input.email, ip: deps.ip });
  const wait = await lockedForSeconds(deps.kv, keys);
  if (wait > 0) return { ok: false, status: 429, error: M.waitSeconds(wait) };

  const user = await findUserByEmail(deps.db, input.email);
  const valid = user ? await verifySecret(input.password, user.passwordHash) : await verifyAgainstDummy(input.password);
  if (!user || !valid) {
    const locked = await recordFailure(deps.kv, "signIn", keys);
    if (locked.length === 0) return { ok: false, status: 401, error: M.invalidCredentials };
    // The account's own lock gets the spec's lock text; a client guessing across accounts
    // gets the generic rate-limit text, which reveals nothing about any one account.
    return { ok: false, status: 429, error: locked.includes(keys[0]!) ? M.signInLocked : M.tooManySignInRequests };
  }
  await clearFailures(deps.kv, keys.slice(0, 1)); // the account's counter; the IP's runs its course

  if (user.emailConfirmedAt === null) {
    const last = await latestTokenIssuedAt(deps.db, user.id, "signup");
    if (last === null || Date.now() - last >= ONE_TIME_TOKEN.confirmationResendMs) await sendConfirmation(deps, user);
    return { ok: false, status: 403, error: M.emailNotConfirmed };
  }

  const { returning } = await recordSignIn(deps.db, user);
  const tokens = await createSession(deps.db, deps.env.JWT_SECRET, { userId: user.id, client: input.client, userAgent: deps.userAgent });
  return { ok: true, user, tokens, returning };
}

export type SignUpInput = {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  initial?: string;
  phoneNumber: string;
  securityQuestion: string;
  securityAnswer: string;
};

/**
 * Creates an unconfirmed account and sends the confirmation e-mail. An address that already
 * has an account gets the same answer (no account enumeration) and an e-mail saying so.
 */
export async function signUp(deps: AuthDeps, input: SignUpInput): Promise<{ ok: true }> {
  const existing = await findUserByEmail(deps.db, input.email);
  if (existing) {
    await notifyExistingAccount(deps, existing);
    return { ok: true };
  }
  const [passwordHash, answerHash] = await Promise.all([
    hashSecret(input.password),
    hashSecret(normaliseSecurityAnswer(input.securityAnswer)),
  ]);
  const user = await insertUser(deps.db, {
    email: input.email,
    passwordHash,
    metadata: {
      first_name: input.firstName,
      last_name: input.lastName,
      initial: input.initial || null,
      phone_number: normalisePhone(input.phoneNumber),
      security_question: input.securityQuestion,
      security_answer_hash: answerHash,
    },
  });
  if (!user) {
    // Lost a race with a concurrent sign-up of the same address.
    const winner = await findUserByEmail(deps.db, input.email);
    if (winner) await notifyExistingAccount(deps, winner);
    return { ok: true };
  }
  await sendConfirmation(deps, user);
  return { ok: true };
}

async function notifyExistingAccount(deps: AuthDeps, user: UserRow) {
  if (user.emailConfirmedAt === null) {
    const last = await latestTokenIssuedAt(deps.db, user.id, "signup");
    if (last === null || Date.now() - last >= ONE_TIME_TOKEN.confirmationResendMs) await sendConfirmation(deps, user);
    return;
  }
  const throttleKey = `mail-throttle:already-registered:${user.id}`;
  if (await deps.kv.get(throttleKey)) return;
  await deps.kv.put(throttleKey, "1", { expirationTtl: Math.ceil(ONE_TIME_TOKEN.confirmationResendMs / 1000) });
  await enqueueMail(
    deps.queue,
    alreadyRegisteredMail(user.email, link(deps, "/auth", { mode: "signin" }), link(deps, "/auth", { mode: "forgot-password" })),
  );
}

/** Always succeeds from the caller's point of view; only a real account gets an e-mail. */
export async function requestPasswordReset(deps: AuthDeps, email: string): Promise<{ ok: true }> {
  const user = await findUserByEmail(deps.db, email);
  if (!user) return { ok: true };
  const last = await latestTokenIssuedAt(deps.db, user.id, "recovery");
  if (last !== null && Date.now() - last < ONE_TIME_TOKEN.recoveryResendMs) return { ok: true };
  await expireUnusedTokens(deps.db, user.id, "recovery");
  const token = await issueOneTimeToken(deps.db, user.id, "recovery", ONE_TIME_TOKEN.recoveryTtlMs);
  await enqueueMail(deps.queue, passwordResetMail(user.email, link(deps, "/auth/callback", { type: "recovery", token })));
  return { ok: true };
}

export type TokenSignIn = { ok: true; user: UserRow; tokens: IssuedTokens; returning: boolean } | { ok: false; error: string };

/** The confirmation link: confirms the address and signs the user in (spec: type=signup sets the session). */
export async function confirmSignUp(deps: AuthDeps, token: string): Promise<TokenSignIn> {
  const userId = await consumeOneTimeToken(deps.db, "signup", token);
  const user = userId ? await findUserById(deps.db, userId) : undefined;
  if (!user) return { ok: false, error: M.invalidConfirmationLink };
  await markEmailConfirmed(deps.db, user.id);
  const { returning } = await recordSignIn(deps.db, user);
  const tokens = await createSession(deps.db, deps.env.JWT_SECRET, { userId: user.id, client: "web", userAgent: deps.userAgent });
  return { ok: true, user, tokens, returning };
}

/** Sets the new password, ends every other session and signs this browser in. */
export async function resetPassword(deps: AuthDeps, token: string, password: string): Promise<TokenSignIn> {
  const userId = await consumeOneTimeToken(deps.db, "recovery", token);
  const user = userId ? await findUserById(deps.db, userId) : undefined;
  if (!user) return { ok: false, error: M.invalidResetLink };
  await setPasswordHash(deps.db, user.id, await hashSecret(password));
  await revokeUserSessions(deps.db, user.id, "password_reset");
  // The link proves the address is the user's; a reset also lifts the account's sign-in lock.
  await markEmailConfirmed(deps.db, user.id);
  await clearFailures(deps.kv, await lockoutKeys("signIn", { email: user.email }));
  const { returning } = await recordSignIn(deps.db, user);
  const tokens = await createSession(deps.db, deps.env.JWT_SECRET, { userId: user.id, client: "web", userAgent: deps.userAgent });
  return { ok: true, user, tokens, returning };
}
