// Server side of /auth: one action, three forms (sign-in, sign-up, forgot password).
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { RouterContextProvider } from "react-router";
import { signIn, submitPasswordReset, submitSignUp } from "~/lib/auth/accounts.server";
import { formatUserCode, normalizeUserCode } from "~/lib/auth/device-codes";
import { beginAttempt, failAttempt, isRefusal, succeedAttempt } from "~/lib/auth/lockout";
import { AFTER_RESET } from "~/lib/auth/modes";
import { AUTH_MESSAGES as M } from "~/lib/auth/messages";
import { EMAIL_ADDRESS } from "~/lib/constants";
import { forgotPasswordSchema, signInSchema, signUpSchema } from "~/lib/auth/validation";
import { sessionKeys } from "~/lib/keys";
import { app } from "~/server/context.server";
import { signPendingSignIn } from "~/lib/auth/two-factor-secret";
import { headersWithCookies, pendingTwoFactorCookie, setCookie, sessionCookies, signUpProofCookie } from "~/server/cookies.server";
import { readForm } from "~/server/requests.server";
import { formErrorResult, retryAfter } from "~/server/responses.server";
import { log } from "~/lib/log/log.server";

type AuthSuccess = { kind: "signin"; destination: SignInDestination; returning: boolean } | { kind: "signup" } | { kind: "reset"; message: string };

export type AuthActionData = { result: SubmissionResult<string[]>; success?: AuthSuccess };

const reply = (body: AuthActionData, init?: ResponseInit) => data<AuthActionData>(body, init);

export type SignInDestination = "/pricing" | "/activate" | "/dashboard" | typeof AFTER_RESET | `/device${string}` | `/teams/invitations/${string}`;

/**
 * Where a signed-in user goes: /pricing when they came to subscribe, /activate when they came to
 * redeem an activation key, /device (with its code) when they came to approve the desktop app,
 * the account's ways in after a password reset, else the dashboard.
 */
export function destinationFor(url: URL): SignInDestination {
  const from = url.searchParams.get("from");
  if (from === "pricing" || url.searchParams.get("subscribe") === "true") return "/pricing";
  if (from === "device") {
    const code = normalizeUserCode(url.searchParams.get("code"));
    return code ? `/device?code=${formatUserCode(code)}` : "/device";
  }
  if (from === "reset") return AFTER_RESET;
  // Back to a team's invitation (issue 50): its token is base64url, nothing else goes in the path.
  const token = url.searchParams.get("token");
  if (from === "invitation" && token && /^[\w-]{20,100}$/.test(token)) return `/teams/invitations/${token}`;
  return from === "activate" ? "/activate" : "/dashboard";
}

export async function authAction(request: Request, context: Readonly<RouterContextProvider>) {
  const read = await readForm(request);
  if (!read.ok) return reply({ result: formErrorResult(read.message) }, { status: read.status });
  const { formData } = read;
  const deps = app(context);
  const url = new URL(request.url);
  const intent = formData.get("intent");
  const rawEmail = typeof formData.get("email") === "string" ? String(formData.get("email")).trim().toLowerCase().slice(0, EMAIL_ADDRESS.maxLength) : undefined;

  if (intent === "signin") {
    const submission = parseWithZod(formData, { schema: signInSchema });
    if (submission.status !== "success") return reply({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
    const outcome = await attempt(() => signIn(deps, { ...submission.value, client: "web" }), M.signInUnexpected);
    if (!outcome.ok && "twoFactor" in outcome) {
      // The password was right: its code comes on the next page; no session before that.
      const pending = await setCookie(pendingTwoFactorCookie, url, await signPendingSignIn(sessionKeys(deps.env), outcome.userId));
      throw redirect(`/auth/two-factor${url.search}`, { headers: headersWithCookies([pending]) });
    }
    if (!outcome.ok) {
      // An unconfirmed account's fresh link is bound to this browser (it just proved the password).
      const proof = "proofNonce" in outcome && outcome.proofNonce ? [await setCookie(signUpProofCookie, url, outcome.proofNonce)] : [];
      return reply(
        { result: submission.reply({ formErrors: [outcome.error], hideFields: ["password"] }) },
        { status: outcome.status, headers: withRetryAfter(headersWithCookies(proof), "retryAfterSeconds" in outcome ? outcome.retryAfterSeconds : null) },
      );
    }
    const destination = destinationFor(url);
    return reply(
      { result: submission.reply({ resetForm: true }), success: { kind: "signin", destination, returning: outcome.returning } },
      { headers: headersWithCookies(await sessionCookies(url, outcome.tokens)) },
    );
  }

  if (intent === "signup") {
    // The attempt is counted before the form is checked, so parallel invalid forms cannot slip
    // past the lock; a valid form gives its count back.
    const started = await attempt(() => beginAttempt(deps.db, "signUp", { email: rawEmail, ip: deps.ip }), M.signUpUnexpected);
    if ("ok" in started) return reply({ result: formErrorResult(started.error) }, { status: started.status });
    if (isRefusal(started)) {
      return reply({ result: formErrorResult(M.waitSeconds(started.retryAfterSeconds)) }, { status: 429, headers: retryAfter(started.retryAfterSeconds) });
    }
    const submission = parseWithZod(formData, { schema: signUpSchema });
    if (submission.status !== "success") {
      const { locked, retryAfterSeconds } = await failAttempt(deps.db, started);
      const result = submission.reply({ hideFields: ["password", "confirmPassword", "securityAnswer"] });
      if (locked) {
        return reply(
          { result: { ...result, error: { ...result.error, "": [M.signUpLocked] } } },
          { status: 429, headers: withRetryAfter(new Headers(), retryAfterSeconds) },
        );
      }
      return reply({ result }, { status: 400 });
    }
    const created = await attempt(async () => {
      await succeedAttempt(deps.db, started);
      return { ok: true as const, ...(await submitSignUp(deps, submission.value)) };
    }, M.signUpUnexpected);
    if (!created.ok) return reply({ result: formErrorResult(created.error) }, { status: created.status });
    return reply(
      { result: submission.reply({ resetForm: true }), success: { kind: "signup" } },
      { headers: headersWithCookies([await setCookie(signUpProofCookie, url, created.proofNonce)]) },
    );
  }

  if (intent === "forgot-password") {
    const submission = parseWithZod(formData, { schema: forgotPasswordSchema });
    if (submission.status !== "success") return reply({ result: submission.reply() }, { status: 400 });
    const sent = await attempt(async () => {
      await submitPasswordReset(deps, submission.value.email);
      return { ok: true as const };
    }, M.resetEmailFailed);
    if (!sent.ok) return reply({ result: submission.reply({ formErrors: [sent.error] }) }, { status: sent.status });
    return reply({ result: submission.reply({ resetForm: true }), success: { kind: "reset", message: M.resetEmailSent } });
  }

  return reply({ result: formErrorResult(M.unexpected) }, { status: 400 });
}

function withRetryAfter(headers: Headers, seconds: number | null | undefined): Headers {
  if (seconds) headers.set("Retry-After", retryAfter(seconds)["Retry-After"]);
  return headers;
}

/** A failure of ours (database, queue) becomes the spec's page-level text and a 503, never a raw 500. */
async function attempt<T>(run: () => Promise<T>, message: string): Promise<T | { ok: false; status: 503; error: string }> {
  try {
    return await run();
  } catch (error) {
    log.error("auth_action_failed", { shown: message }, error);
    return { ok: false, status: 503, error: message };
  }
}
