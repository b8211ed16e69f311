// /auth/two-factor: the second step of a sign-in when the account has two-factor on (issue 29).
// The password step left a signed, short-lived cookie naming the account; no session exists
// until a code from the authenticator app (or a recovery code) is right here. Wrong codes count
// on the account's two-factor lock. Works without JavaScript.
import { data, Form, redirect, useNavigation, Link } from "react-router";
import type { Route } from "./+types/two-factor";
import { AuthShell } from "~/components/auth-shell";
import { Field } from "~/components/forms";
import { Alert, SubmitButton } from "~/components/ui";
import { completeSignIn } from "~/lib/auth/accounts.server";
import { AUTH_MESSAGES as M } from "~/lib/auth/messages";
import { readPendingSignIn } from "~/lib/auth/two-factor-secret";
import { verifySecondFactor } from "~/lib/auth/two-factor.server";
import { findUserById } from "~/lib/auth/users.server";
import { TWO_FACTOR } from "~/lib/constants";
import { sessionKeys } from "~/lib/keys";
import { pageMeta } from "~/lib/site/meta";
import { app } from "~/server/context.server";
import { clearCookie, headersWithCookies, pendingTwoFactorCookie, readCookie, sessionCookies } from "~/server/cookies.server";
import { readForm, singleValue } from "~/server/requests.server";
import { keepRetryAfter, retryAfter } from "~/server/responses.server";
import { destinationFor } from "./auth.server";

export const meta = () => pageMeta("Two-Factor Sign-In | Modelify", { noindex: true });

export const headers = keepRetryAfter;

async function pendingUserId(request: Request, context: Route.LoaderArgs["context"]): Promise<string | null> {
  return readPendingSignIn(sessionKeys(app(context).env), await readCookie(pendingTwoFactorCookie, request));
}

function startAgain(url: URL): string {
  const params = new URLSearchParams(url.search);
  params.set("mode", "signin");
  return `/auth?${params.toString()}`;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  if (!(await pendingUserId(request, context))) throw redirect(startAgain(url));
  return { error: null as string | null, afterReset: url.searchParams.get("from") === "reset" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const url = new URL(request.url);
  const deps = app(context);
  const read = await readForm(request);
  if (!read.ok) return data({ error: read.message }, { status: read.status });
  const userId = await pendingUserId(request, context);
  const user = userId ? await findUserById(deps.db, userId) : undefined;
  if (!user) return data({ error: M.twoFactorExpired }, { status: 401 });
  const code = singleValue(read.formData, "code");
  if (typeof code !== "string" || code.trim() === "") return data({ error: M.twoFactorRequired }, { status: 400 });
  const result = await verifySecondFactor(deps, user.id, code);
  if (!result.ok && result.reason === "locked")
    return data({ error: M.twoFactorLocked(result.retryAfterSeconds) }, { status: 429, headers: retryAfter(result.retryAfterSeconds) });
  if (!result.ok) return data({ error: M.twoFactorInvalid }, { status: 401 });
  // The password was proven on the step before (the pending cookie), the code just now.
  const { tokens } = await completeSignIn(deps, user, "web", { shown: "password", secondFactor: true });
  const cookies = [...(await sessionCookies(url, tokens)), await clearCookie(pendingTwoFactorCookie, url)];
  throw redirect(destinationFor(url), { headers: headersWithCookies(cookies) });
}

export default function TwoFactorStep({ loaderData, actionData }: Route.ComponentProps) {
  const error = actionData?.error ?? loaderData.error;
  const notice = loaderData.afterReset && !error ? M.resetTwoFactorNext : null;
  const pending = useNavigation().state === "submitting";
  return (
    <AuthShell
      title="Two-Factor Sign-In"
      subtitle={`Open your authenticator app and enter the ${TWO_FACTOR.digits}-digit code it shows for Modelify. Lost your phone? Enter one of your recovery codes instead.`}
      footer={
        <Link className="font-semibold text-brand-700 hover:text-brand-800" to="/auth?mode=signin">
          Start again
        </Link>
      }
    >
      <Form method="post" className="space-y-4" noValidate>
        {notice ? <Alert tone="success">{notice}</Alert> : null}
        {error ? (
          <Alert tone="error">
            <span id="two-factor-error">{error}</span>
          </Alert>
        ) : null}
        <Field
          labelProps={{ children: "Authentication code" }}
          inputProps={{
            id: "two-factor-code",
            name: "code",
            autoComplete: "one-time-code",
            inputMode: "text",
            autoFocus: true,
            required: true,
            maxLength: TWO_FACTOR.codeMaxLength,
            spellCheck: false,
            "aria-describedby": error ? "two-factor-error" : undefined,
            "aria-invalid": error ? true : undefined,
            className: "text-center font-mono text-lg tracking-[0.2em]",
          }}
          hint={`${TWO_FACTOR.digits} digits from the app, or a recovery code like abcd-efgh-ijkl-mnop.`}
        />
        <SubmitButton pending={pending} idle="Verify" busy="Verifying..." />
      </Form>
    </AuthShell>
  );
}
