// The account flows (sign-up, confirmation, sign-in, recovery, sign-out), shared by the web forms, the desktop API and the queue
// consumer (which does the address-dependent half of sign-up and password reset).
import { milestoneInsert, milestoneKey, recordMarketingEvents } from "../marketing/events.server";
import { and, eq, isNull, lte } from "drizzle-orm";
import { MAIL_CAP, ONE_TIME_TOKEN } from "../constants";
import { sha256Hex } from "../crypto";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { countEvent } from "../limits/counters.server";
import { enqueueMail } from "../mail/mail.server";
import { alreadyRegisteredMail, confirmationMail, passwordResetMail } from "../mail/templates";
import { enqueue, type RecoveryMessage, type SignUpMessage } from "../queue";
import { type KeySettings, sessionKeys } from "../keys";
import type { LedgerNamespace } from "../usage/ledger/api";
import { AUTH_MESSAGES as M } from "./messages";
import { beginAttempt, clearSignInLock, failAttempt, ipSubject, isRefusal, succeedAttempt, type Attempt } from "./lockout";
import {
  consumeOneTimeToken,
  expireUnusedTokens,
  issueOneTimeToken,
  latestTokenIssuedAt,
  peekOneTimeToken,
  prepareOneTimeToken,
} from "./one-time-tokens.server";
import { hashSecret, normaliseSecurityAnswer, verifyAgainstDummy, verifySecret } from "./password";
import { revokeAccountAccess } from "./revocation.server";
import { createSession, type IssuedTokens, type SessionClient } from "./session.server";
import { newSignUpProof } from "./signup-proof.server";
import { twoFactorEnabled, verifySecondFactor } from "./two-factor.server";
import { findUserByEmail, findUserById, markEmailConfirmed, recordSignIn, setPasswordHash, type UserRow } from "./users.server";
import { normalisePhone } from "./validation";

export type AuthDeps = {
  db: Db;
  queue: Queue;
  /** Sessions are signed with the JWT keys; a second factor is read with the two-factor keys. */
  env: KeySettings<"JWT_SECRET" | "JWT_SECRET_PREVIOUS" | "TWO_FACTOR_KEY" | "TWO_FACTOR_KEY_PREVIOUS">;
  /** Origin for links in e-mails: APP_URL when configured, else the request's own origin. */
  origin: string;
  /** The accounts' usage ledgers: ending sessions closes their live-usage sockets. */
  ledgers: LedgerNamespace;
  ip: string | null;
  userAgent: string | null;
};

/** `retryAfterSeconds`: a 429's wait, for its Retry-After header. */
export type Failure = { ok: false; status: 400 | 401 | 403 | 429; error: string; retryAfterSeconds?: number };

const refused = (seconds: number): Failure => ({ ok: false, status: 429, error: M.waitSeconds(seconds), retryAfterSeconds: seconds });

function link(origin: string, path: string, params: Record<string, string>) {
  const url = new URL(path, origin);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

/** Every request that can send an e-mail counts against its client's hourly cap. */
async function withinMailCap(deps: Pick<AuthDeps, "db" | "ip">): Promise<boolean> {
  if (!deps.ip) return true;
  const { count } = await countEvent(deps.db, `mail:ip:${ipSubject(deps.ip)}`, MAIL_CAP.perIp.windowMs);
  return count <= MAIL_CAP.perIp.limit;
}

// ---------------------------------------------------------------------------------- sign-in

export type SignInSuccess = { ok: true; user: UserRow; tokens: IssuedTokens; returning: boolean };
/** The password was right and the account has two-factor on: a code is "required" (none sent) or was "invalid". */
export type TwoFactorNeeded = Failure & { status: 401; twoFactor: "required" | "invalid"; userId: string };
/** An unconfirmed account: a fresh link was e-mailed, bound to this browser by `proofNonce`. */
export type Unconfirmed = Failure & { status: 403; proofNonce?: string };

export async function signIn(
  deps: AuthDeps,
  input: { email: string; password: string; client: SessionClient; twoFactorCode?: string },
): Promise<SignInSuccess | Failure | Unconfirmed | TwoFactorNeeded> {
  const attempt = await beginAttempt(deps.db, "signIn", { email: input.email, ip: deps.ip });
  if (isRefusal(attempt)) return refused(attempt.retryAfterSeconds);

  const user = await findUserByEmail(deps.db, input.email);
  const valid = user ? await verifySecret(input.password, user.passwordHash) : await verifyAgainstDummy(input.password);
  if (!user || !valid) return signInFailure(deps.db, attempt);
  await succeedAttempt(deps.db, attempt);

  if (user.emailConfirmedAt === null) return resendConfirmation(deps, user, input.client);

  // Two-factor on: no session until a code is right (the web asks for it on its own page).
  if (await twoFactorEnabled(deps.db, user.id)) {
    if (input.twoFactorCode === undefined) return { ok: false, status: 401, error: M.twoFactorRequired, twoFactor: "required", userId: user.id };
    const second = await verifySecondFactor(deps, user.id, input.twoFactorCode);
    if (!second.ok && second.reason === "locked")
      return { ok: false, status: 429, error: M.twoFactorLocked(second.retryAfterSeconds), retryAfterSeconds: second.retryAfterSeconds };
    if (!second.ok) return { ok: false, status: 401, error: M.twoFactorInvalid, twoFactor: "invalid", userId: user.id };
    return completeSignIn(deps, user, input.client, { shown: "password", secondFactor: true });
  }
  return completeSignIn(deps, user, input.client, { shown: "password", secondFactor: false });
}

/**
 * What a sign-in showed: the password (and whether a code followed it), a passkey (which verifies
 * its user, so it stands for both factors), or the e-mail link of a sign-up (an account that has
 * only its password, proven by the browser that chose it).
 */
export type SignInFactors = { shown: "password"; secondFactor: boolean } | { shown: "passkey" } | { shown: "signup-link" };

/**
 * The end of every sign-in, and the only way to a web or password-grant session: it refuses to
 * open an account without each factor the account has, so no path (a recovery link, a future
 * one) can go around the second step. Records the sign-in and creates the session; a sign-in that
 * showed every factor the account has (not a passkey, which needs no password) is the session's
 * first recent proof.
 */
export async function completeSignIn(deps: AuthDeps, user: UserRow, client: SessionClient, factors: SignInFactors): Promise<SignInSuccess> {
  const secondStepOwed = factors.shown === "signup-link" || (factors.shown === "password" && !factors.secondFactor);
  if (secondStepOwed && (await twoFactorEnabled(deps.db, user.id))) throw new Error("A sign-in without the account's second factor was refused");
  const { returning } = await recordSignIn(deps.db, user);
  // A sign-up link's browser chose the account's only factor, and its inbox answered just now.
  const provenAt = factors.shown === "passkey" ? null : Date.now();
  const tokens = await createSession(deps.db, sessionKeys(deps.env), { userId: user.id, client, userAgent: deps.userAgent, provenAt });
  // The site's funnel: sign-ins on the web (the desktop app's are product use, not marketing).
  if (client === "web") await recordMarketingEvents(deps.queue, [{ name: "AuthComplete", userId: user.id }]);
  return { ok: true, user, tokens, returning };
}

async function signInFailure(db: Db, attempt: Attempt): Promise<Failure> {
  const { locked, retryAfterSeconds } = await failAttempt(db, attempt);
  if (locked) return { ok: false, status: 429, error: M.signInLocked, retryAfterSeconds: retryAfterSeconds ?? undefined };
  if (attempt.throttled) return { ok: false, status: 429, error: M.tooManySignInRequests, retryAfterSeconds: retryAfterSeconds ?? undefined };
  return { ok: false, status: 401, error: M.invalidCredentials };
}

/**
 * The right password of an unconfirmed account: e-mail a new link (at most every 5 minutes). A
 * browser proved the password just now, so the link is bound to it; the desktop app has no
 * cookies, so its link asks for the password when opened.
 */
async function resendConfirmation(deps: AuthDeps, user: UserRow, client: SessionClient): Promise<Unconfirmed> {
  const answer: Unconfirmed = { ok: false, status: 403, error: M.emailNotConfirmed };
  const last = await latestTokenIssuedAt(deps.db, user.id, "signup");
  if (last !== null && Date.now() - last < ONE_TIME_TOKEN.confirmationResendMs) return answer;
  if (!(await withinMailCap(deps))) return answer;
  const proof = client === "web" ? await newSignUpProof() : null;
  const token = await issueOneTimeToken(deps.db, user.id, "signup", ONE_TIME_TOKEN.signupTtlMs, { proofHash: proof?.hash ?? null });
  await enqueueMail(deps.queue, confirmationMail(user.email, link(deps.origin, "/auth/callback", { type: "signup", token })));
  return proof ? { ...answer, proofNonce: proof.nonce } : answer;
}

// ---------------------------------------------------------------------------------- sign-up

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
 * The request half of sign-up: the same work and the same answer for every address (hash the
 * secrets, enqueue), so nothing tells whether the address already has an account. Returns the
 * nonce the caller puts in this browser's sign-up proof cookie.
 */
export async function submitSignUp(deps: AuthDeps, input: SignUpInput): Promise<{ proofNonce: string }> {
  const [allowed, passwordHash, answerHash, proof] = await Promise.all([
    withinMailCap(deps),
    hashSecret(input.password),
    hashSecret(normaliseSecurityAnswer(input.securityAnswer)),
    newSignUpProof(),
  ]);
  if (allowed) {
    const message: SignUpMessage = {
      type: "account.signup",
      id: crypto.randomUUID(),
      email: input.email,
      passwordHash,
      proofHash: proof.hash,
      metadata: {
        first_name: input.firstName,
        last_name: input.lastName,
        initial: input.initial || null,
        phone_number: normalisePhone(input.phoneNumber),
        security_question: input.securityQuestion,
        security_answer_hash: answerHash,
      },
      origin: deps.origin,
      submittedAt: Date.now(),
    };
    await enqueue(deps.queue, message);
  }
  return { proofNonce: proof.nonce };
}

export type AccountWorkerDeps = { db: Db; queue: Queue };

/**
 * The consumer half of sign-up. A new address gets an unconfirmed account; an unconfirmed one
 * gets the latest submission's credentials and profile, and its earlier links stop working, so
 * only the latest sign-up's password can ever be confirmed (no account pre-hijacking); a
 * confirmed one gets a "you already have an account" e-mail instead.
 */
export async function handleSignUpMessage(deps: AccountWorkerDeps, message: SignUpMessage): Promise<void> {
  const done = await deps.db.query.processedMessages.findFirst({ where: eq(schema.processedMessages.id, message.id) });
  if (done) return;
  const existing = await findUserByEmail(deps.db, message.email);
  if (existing?.emailConfirmedAt != null) return notifyExistingAccount(deps, message, existing);
  if (existing && existing.updatedAt > message.submittedAt) {
    // An older submission delivered after a newer one: the newer credentials stand.
    await markProcessed(deps.db, message);
    return;
  }

  const userId = existing?.id ?? crypto.randomUUID();
  const { token, insert: insertToken } = await prepareOneTimeToken(deps.db, userId, "signup", ONE_TIME_TOKEN.signupTtlMs, { proofHash: message.proofHash });
  const credentials = { passwordHash: message.passwordHash, metadata: message.metadata, updatedAt: message.submittedAt };
  const writeUser = existing
    ? deps.db
        .update(schema.users)
        .set(credentials)
        .where(and(eq(schema.users.id, userId), isNull(schema.users.emailConfirmedAt), lte(schema.users.updatedAt, message.submittedAt)))
    : deps.db
        .insert(schema.users)
        .values({ id: userId, email: message.email, role: "user", createdAt: message.submittedAt, ...credentials })
        .onConflictDoNothing({ target: schema.users.email });

  // Mail first: if the batch then fails, the retry sends a working link and this one is void.
  const { count } = await countEvent(deps.db, `mail:confirm:${await sha256Hex(message.email)}`, MAIL_CAP.confirmationsPerAddress.windowMs);
  if (count <= MAIL_CAP.confirmationsPerAddress.limit) {
    await enqueueMail(deps.queue, confirmationMail(message.email, link(message.origin, "/auth/callback", { type: "signup", token })));
  }
  // A lost insert race (same new address twice) fails the token's foreign key: the whole batch
  // rolls back and the retry takes the replace path.
  await deps.db.batch([
    writeUser,
    expireUnusedTokens(deps.db, userId, "signup"),
    insertToken,
    milestoneInsert(deps.db, "CompleteRegistration", userId, message.submittedAt),
    processedMark(deps.db, message),
  ]);
}

async function notifyExistingAccount(deps: AccountWorkerDeps, message: SignUpMessage, user: UserRow) {
  const { count } = await countEvent(deps.db, `mail:already-registered:${user.id}`, ONE_TIME_TOKEN.confirmationResendMs);
  if (count === 1) {
    await enqueueMail(
      deps.queue,
      alreadyRegisteredMail(user.email, link(message.origin, "/auth", { mode: "signin" }), link(message.origin, "/auth", { mode: "forgot-password" })),
    );
  }
  await markProcessed(deps.db, message);
}

function processedMark(db: Db, message: { id: string; type: string }) {
  return db.insert(schema.processedMessages).values({ id: message.id, kind: message.type, processedAt: Date.now() }).onConflictDoNothing();
}

async function markProcessed(db: Db, message: { id: string; type: string }) {
  await processedMark(db, message);
}

// --------------------------------------------------------------------------- password reset

/** The request half of "forgot password": the same answer and work for every address. */
export async function submitPasswordReset(deps: AuthDeps, email: string): Promise<void> {
  if (!(await withinMailCap(deps))) return;
  const message: RecoveryMessage = { type: "account.recovery", id: crypto.randomUUID(), email, origin: deps.origin };
  await enqueue(deps.queue, message);
}

/** The consumer half: only a real account gets a link, at most one a minute. */
export async function handleRecoveryMessage(deps: AccountWorkerDeps, message: RecoveryMessage): Promise<void> {
  const user = await findUserByEmail(deps.db, message.email);
  if (!user) return;
  const last = await latestTokenIssuedAt(deps.db, user.id, "recovery");
  if (last !== null && Date.now() - last < ONE_TIME_TOKEN.recoveryResendMs) return;
  const { token, insert } = await prepareOneTimeToken(deps.db, user.id, "recovery", ONE_TIME_TOKEN.recoveryTtlMs);
  await enqueueMail(deps.queue, passwordResetMail(user.email, link(message.origin, "/auth/callback", { type: "recovery", token })));
  await deps.db.batch([expireUnusedTokens(deps.db, user.id, "recovery"), insert]);
}

// ------------------------------------------------------------------------- e-mail links

export type TokenSignIn = { ok: true; user: UserRow; tokens: IssuedTokens; returning: boolean } | Failure;

/** What a sign-up link needs before it can be used: nothing (this browser signed up), or the password. */
export async function signUpLinkState(db: Db, token: string, proofHash: string | null): Promise<"invalid" | "ready" | "password"> {
  const pending = await peekOneTimeToken(db, "signup", token);
  if (!pending) return "invalid";
  return pending.proofHash !== null && pending.proofHash === proofHash ? "ready" : "password";
}

/**
 * The confirmation link: confirms the address and signs the user in (spec: type=signup sets the
 * session). Only the browser that proved the pending password, or someone who types it now, can
 * use it: a link that reached the inbox of a pre-registered address cannot hand the account to
 * whoever registered it.
 */
export async function confirmSignUp(
  deps: AuthDeps,
  token: string,
  proof: { proofHash: string | null; password?: string | null },
): Promise<TokenSignIn | (Failure & { needsPassword: true })> {
  const pending = await peekOneTimeToken(deps.db, "signup", token);
  const user = pending ? await findUserById(deps.db, pending.userId) : undefined;
  if (!pending || !user) return { ok: false, status: 400, error: M.invalidConfirmationLink };

  const proven = pending.proofHash !== null && pending.proofHash === proof.proofHash;
  if (!proven) {
    if (!proof.password) return { ok: false, status: 400, error: M.confirmWithPassword, needsPassword: true };
    const proven = await provePassword(deps.db, user, proof.password, deps.ip);
    if (!proven.ok && proven.reason === "refused") return { ...refused(proven.retryAfterSeconds), needsPassword: true };
    if (!proven.ok && proven.reason === "locked") {
      return { ok: false, status: 429, error: M.signInLocked, retryAfterSeconds: proven.retryAfterSeconds, needsPassword: true };
    }
    if (!proven.ok) return { ok: false, status: 401, error: M.confirmPasswordMismatch, needsPassword: true };
  }

  // Using the token up is the atomic step: if newer credentials replaced these in the meantime,
  // their batch expired this token and nothing is confirmed.
  if (!(await consumeOneTimeToken(deps.db, "signup", token))) return { ok: false, status: 400, error: M.invalidConfirmationLink };
  await markEmailConfirmed(deps.db, user.id);
  await recordMarketingEvents(deps.queue, [{ name: "EmailConfirmed", userId: user.id, dedupeKey: milestoneKey("EmailConfirmed", user.id) }]);
  return completeSignIn(deps, user, "web", proven ? { shown: "signup-link" } : { shown: "password", secondFactor: false });
}

export type PasswordProof = { ok: true } | { ok: false; reason: "refused" | "locked"; retryAfterSeconds: number } | { ok: false; reason: "wrong" };

/**
 * A user's password, asked again (a confirmation link without its browser, a device approval on
 * an old session): under the sign-in's own lockout, since proving a password is a sign-in and
 * must be no way around its limits. "locked": this wrong password locked the account;
 * "refused": it was locked already.
 */
export async function provePassword(db: Db, user: { email: string; passwordHash: string }, password: string, ip: string | null): Promise<PasswordProof> {
  const attempt = await beginAttempt(db, "signIn", { email: user.email, ip });
  if (isRefusal(attempt)) return { ok: false, reason: "refused", retryAfterSeconds: attempt.retryAfterSeconds };
  if (!(await verifySecret(password, user.passwordHash))) {
    const failure = await failAttempt(db, attempt);
    return failure.locked ? { ok: false, reason: "locked", retryAfterSeconds: failure.retryAfterSeconds } : { ok: false, reason: "wrong" };
  }
  await succeedAttempt(db, attempt);
  return { ok: true };
}

/** The account a live recovery link would reset (the reset page names it before anything changes). */
export async function recoveryLinkAccount(db: Db, token: string): Promise<{ userId: string; email: string } | null> {
  const pending = await peekOneTimeToken(db, "recovery", token);
  const user = pending ? await findUserById(db, pending.userId) : undefined;
  return user ? { userId: user.id, email: user.email } : null;
}

/**
 * A reset that went through: this browser is signed in, or, for an account with two-factor on, it
 * owes the code first (the caller sends it to the sign-in's second step; no session exists yet).
 */
export type ResetOutcome = { ok: true; user: UserRow; signedIn: SignInSuccess | null } | Failure;

/**
 * Sets the new password and ends everything an intruder could have kept; then signs this browser
 * in, unless the account has two-factor on: a mailbox alone must not open it, so the code (or a
 * recovery code) comes next on the normal second step.
 */
export async function resetPassword(deps: AuthDeps, token: string, password: string): Promise<ResetOutcome> {
  const userId = await consumeOneTimeToken(deps.db, "recovery", token);
  const user = userId ? await findUserById(deps.db, userId) : undefined;
  if (!user) return { ok: false, status: 400, error: M.invalidResetLink };
  await setPasswordHash(deps.db, user.id, await hashSecret(password));
  // A reset is what a user does to end a compromise: everything an intruder could have kept ends
  // with it (sessions, device keys and codes, a pending e-mail change, other e-mail links).
  await revokeAccountAccess(deps, user.id, "password_reset");
  // The link proves the address is the user's; a reset also lifts the account's sign-in lock.
  await markEmailConfirmed(deps.db, user.id);
  await clearSignInLock(deps.db, user.email);
  if (await twoFactorEnabled(deps.db, user.id)) return { ok: true, user, signedIn: null };
  return { ok: true, user, signedIn: await completeSignIn(deps, user, "web", { shown: "password", secondFactor: false }) };
}
