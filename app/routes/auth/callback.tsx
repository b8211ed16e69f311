// /auth/callback: where the e-mail links (confirmation, password recovery) land.
// GET only inspects the link; using it up takes a POST, so mail scanners that prefetch
// links cannot confirm an account or burn a token.
import { useEffect, useRef } from "react";
import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/callback";
import { AuthShell } from "~/components/auth-shell";
import { Field } from "~/components/forms";
import { Alert, Button, LinkButton, Spinner } from "~/components/ui";
import { confirmSignUp, signUpLinkState } from "~/lib/auth/accounts.server";
import { authCallbackError, AUTH_MESSAGES as M } from "~/lib/auth/messages";
import { peekOneTimeToken } from "~/lib/auth/one-time-tokens.server";
import { proofHashOf } from "~/lib/auth/signup-proof.server";
import { PASSWORD } from "~/lib/constants";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { headersWithCookies, pendingKeyCookie, readCookie, recoveryCookie, setCookie, sessionCookies, signUpProofCookie } from "~/server/cookies.server";
import { readForm } from "~/server/requests.server";
import { formErrorResult, keepRetryAfter, retryAfter } from "~/server/responses.server";
import { pageMeta } from "~/lib/site/meta";

export const meta = () => pageMeta("Completing Authentication | Modelify");

const TOKEN_MAX = 128;

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const type = url.searchParams.get("type");
  const token = url.searchParams.get("token")?.slice(0, TOKEN_MAX) ?? null;
  const error = url.searchParams.get("error");
  const { user } = getAuth(context);
  const { db } = app(context);

  if (error) {
    // error_description is never shown: words in a URL are anybody's words.
    return { state: "error" as const, message: authCallbackError(error) };
  }
  if (type === "recovery") {
    // The token moves from the URL into an HttpOnly cookie scoped to /auth, so it never
    // sits in history or a Referer header on the reset page.
    const headers = new Headers();
    if (token && (await peekOneTimeToken(db, "recovery", token))) headers.append("Set-Cookie", await setCookie(recoveryCookie, url, token));
    throw redirect("/auth/reset-password", { headers });
  }
  if ((type === "signup" || type === "signin") && token) {
    const link = await signUpLinkState(db, token, await proofHashOf(await readCookie(signUpProofCookie, request)));
    if (link === "invalid") {
      if (user) throw redirect("/dashboard");
      return { state: "error" as const, message: M.invalidConfirmationLink };
    }
    // "password": this browser did not sign up for this link, so it must prove the password.
    return { state: link === "ready" ? ("confirm" as const) : ("password" as const), type, token };
  }
  if (type === "email_confirmation" && user) throw redirect("/dashboard");
  throw redirect(user ? "/dashboard" : "/auth");
}

export const headers = keepRetryAfter;

export async function action({ request, context }: Route.ActionArgs) {
  const read = await readForm(request);
  if (!read.ok) return data({ result: formErrorResult(read.message), needsPassword: false }, { status: read.status });
  const token = read.formData.get("token");
  if (typeof token !== "string" || token.length === 0 || token.length > TOKEN_MAX) {
    return data({ result: formErrorResult(M.invalidConfirmationLink), needsPassword: false }, { status: 400 });
  }
  const password = read.formData.get("password");
  const outcome = await confirmSignUp(app(context), token, {
    proofHash: await proofHashOf(await readCookie(signUpProofCookie, request)),
    password: typeof password === "string" && password.length <= PASSWORD.maxLength ? password : null,
  });
  if (!outcome.ok) {
    const wait = outcome.retryAfterSeconds ? retryAfter(outcome.retryAfterSeconds) : undefined;
    return data({ result: formErrorResult(outcome.error), needsPassword: "needsPassword" in outcome }, { status: outcome.status, headers: wait });
  }
  // A key opened from its e-mail before the account existed is waiting: go and redeem it.
  const next = (await readCookie(pendingKeyCookie, request)) ? "/activate" : "/dashboard";
  throw redirect(next, { headers: headersWithCookies(await sessionCookies(new URL(request.url), outcome.tokens)) });
}

export default function AuthCallback({ loaderData, actionData }: Route.ComponentProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const actionError = actionData?.result.error[""]?.[0];
  const state = actionData?.needsPassword ? "password" : actionError ? "error" : loaderData.state;

  useEffect(() => {
    if (state === "confirm") formRef.current?.requestSubmit();
  }, [state]);

  if (state === "error") {
    const message = actionError ?? (loaderData.state === "error" ? loaderData.message : M.authCallbackFailed);
    return (
      <AuthShell title="Authentication Error">
        <Alert tone="error">{message}</Alert>
        <LinkButton to="/auth" className="mt-6 w-full">
          Try Again
        </LinkButton>
      </AuthShell>
    );
  }

  const token = loaderData.state === "confirm" || loaderData.state === "password" ? loaderData.token : "";
  if (state === "password") {
    return (
      <AuthShell title="Confirm Your E-mail" subtitle={M.confirmWithPassword}>
        <Form method="post" className="space-y-4">
          {actionError && actionError !== M.confirmWithPassword ? <Alert tone="error">{actionError}</Alert> : null}
          <input type="hidden" name="token" value={token} />
          <Field
            labelProps={{ children: "Password" }}
            inputProps={{
              id: "confirm-password",
              name: "password",
              type: "password",
              autoComplete: "current-password",
              required: true,
              maxLength: PASSWORD.maxLength,
            }}
          />
          <Button type="submit" className="w-full" size="lg">
            Confirm and Sign In
          </Button>
        </Form>
      </AuthShell>
    );
  }

  return (
    <AuthShell title="Completing Authentication...">
      <div className="flex flex-col items-center gap-4">
        <Spinner className="h-8 w-8 text-brand-600" label="Completing authentication" />
        <ol className="w-full space-y-1 rounded-lg bg-slate-50 p-3 font-mono text-xs text-slate-600" aria-label="Progress">
          <li>✓ Confirmation link received</li>
          <li>✓ Link is valid and unused</li>
          <li>… Confirming your e-mail and signing you in</li>
        </ol>
        <Form method="post" ref={formRef} className="w-full">
          <input type="hidden" name="token" value={token} />
          <noscript>
            <Button type="submit" className="w-full">
              Confirm and Continue
            </Button>
          </noscript>
        </Form>
      </div>
    </AuthShell>
  );
}
