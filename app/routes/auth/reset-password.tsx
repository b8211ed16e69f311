import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ComponentProps } from "react";
import { data, Form, redirect, useNavigation, type ShouldRevalidateFunctionArgs } from "react-router";
import type { z } from "zod";
import type { Route } from "./+types/reset-password";
import { AuthShell } from "~/components/auth-shell";
import { CHECKED_ON_THE_SERVER } from "~/components/forms";
import { RedirectAfter } from "~/components/redirect-after";
import { Alert, LinkButton, SubmitButton } from "~/components/ui";
import { NewPasswordFields } from "~/components/password-strength-meter";
import { recoveryLinkAccount, resetPassword } from "~/lib/auth/accounts.server";
import { maskEmail } from "~/lib/auth/mask-email";
import { AUTH_MESSAGES as M } from "~/lib/auth/messages";
import { revokeSession } from "~/lib/auth/session.server";
import { signPendingSignIn } from "~/lib/auth/two-factor-secret";
import { resetPasswordSchema } from "~/lib/auth/validation";
import { sessionKeys } from "~/lib/keys";
import { REDIRECT_DELAY_MS } from "~/lib/constants";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { clearCookie, headersWithCookies, pendingTwoFactorCookie, readCookie, recoveryCookie, setCookie, sessionCookies } from "~/server/cookies.server";
import { AFTER_RESET } from "~/lib/auth/modes";
import { readForm } from "~/server/requests.server";
import { formErrorResult } from "~/server/responses.server";
import { pageMeta } from "~/lib/site/meta";

export const meta = () => pageMeta("Reset Your Password | Modelify");

/**
 * The account this browser's recovery link resets, and the signed-in account when it is another
 * one: a link can be planted by a cross-site page (login CSRF), so the page names the account it
 * resets and a different signed-in user must say they mean it before anything changes.
 */
async function linkState(request: Request, context: Route.LoaderArgs["context"]) {
  const token = await readCookie(recoveryCookie, request);
  const account = token ? await recoveryLinkAccount(app(context).db, token) : null;
  const { user, session } = getAuth(context);
  const otherUser = account && user && user.id !== account.userId ? { email: user.email, sessionId: session.id } : null;
  return { token, account, otherUser };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { account, otherUser } = await linkState(request, context);
  if (!account) return { valid: false as const };
  return { valid: true as const, account: maskEmail(account.email), signedInAs: otherUser?.email ?? null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const read = await readForm(request);
  if (!read.ok) return data({ result: formErrorResult(read.message) }, { status: read.status });
  const submission = parseWithZod(read.formData, { schema: resetPasswordSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password", "confirmPassword"] }) }, { status: 400 });
  }
  const { token, account, otherUser } = await linkState(request, context);
  if (!token || !account) return data({ result: submission.reply({ formErrors: [M.invalidResetLink] }), invalidLink: true }, { status: 400 });
  if (otherUser && submission.value.confirmOtherAccount !== "yes") {
    const result = submission.reply({ fieldErrors: { confirmOtherAccount: [M.resetOtherAccountRequired] }, hideFields: ["password", "confirmPassword"] });
    return data({ result }, { status: 409 });
  }
  const ctx = app(context);
  const outcome = await resetPassword(ctx, token, submission.value.password);
  if (!outcome.ok) return data({ result: submission.reply({ formErrors: [outcome.error] }), invalidLink: true }, { status: 400 });
  // This browser now belongs to the reset account: the other account's session here ends rather
  // than linger without its cookies.
  if (otherUser) await revokeSession(ctx, otherUser.sessionId, "signed_out");
  const url = new URL(request.url);
  const cleared = await clearCookie(recoveryCookie, url);
  if (!outcome.signedIn) {
    // Two-factor on: the mailbox proved only the address. The code comes next, on the sign-in's
    // own second step; no session exists before it.
    const pending = await setCookie(pendingTwoFactorCookie, url, await signPendingSignIn(sessionKeys(ctx.env), outcome.user.id));
    throw redirect("/auth/two-factor?from=reset", { status: 303, headers: headersWithCookies([cleared, pending]) });
  }
  const headers = headersWithCookies([...(await sessionCookies(url, outcome.signedIn.tokens)), cleared]);
  return data({ result: submission.reply({ resetForm: true }), updated: true }, { headers });
}

export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === "POST" ? false : defaultShouldRevalidate;
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [form, fields] = useForm<z.input<typeof resetPasswordSchema>, z.output<typeof resetPasswordSchema>>({
    id: "reset-password",
    lastResult: actionData?.result,
    ...CHECKED_ON_THE_SERVER,
  });

  if (actionData && "updated" in actionData) return <PasswordUpdated />;
  if (!loaderData.valid || (actionData && "invalidLink" in actionData)) return <InvalidResetLink />;

  const busy = navigation.state === "submitting";
  return (
    <AuthShell title="Reset Your Password" subtitle="Choose a new password for your account. Other sessions will be signed out.">
      <p className="mb-4 rounded-lg bg-slate-50 px-4 py-3 text-sm text-slate-700" data-testid="reset-account">
        Resetting the password of <span className="font-semibold text-slate-900">{loaderData.account}</span>
      </p>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        {form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
        {loaderData.signedInAs ? (
          <ConfirmOtherAccount
            account={loaderData.account}
            signedInAs={loaderData.signedInAs}
            inputProps={getInputProps(fields.confirmOtherAccount, { type: "checkbox", value: "yes" })}
            errorId={fields.confirmOtherAccount.errorId}
            errors={fields.confirmOtherAccount.errors}
          />
        ) : null}
        <NewPasswordFields
          password={fields.password}
          confirmPassword={fields.confirmPassword}
          labels={{ password: "New Password", confirm: "Confirm Password" }}
        />
        <SubmitButton pending={busy} idle="Update Password" busy="Updating Password..." />
      </Form>
    </AuthShell>
  );
}

function PasswordUpdated() {
  return (
    <AuthShell title="Password Updated!">
      <Alert tone="success">
        Your password has been changed and every other session was signed out. Taking you to check your account's passkeys and devices...
      </Alert>
      <RedirectAfter to={AFTER_RESET} delayMs={REDIRECT_DELAY_MS.resetPassword} />
    </AuthShell>
  );
}

function InvalidResetLink() {
  return (
    <AuthShell title="Invalid Reset Link" subtitle={M.invalidResetLink}>
      <LinkButton to="/auth?mode=signin" className="w-full">
        Return to Sign In
      </LinkButton>
      <p className="mt-4 text-center text-sm text-slate-600">
        Need a new link?{" "}
        <a className="font-semibold text-brand-700 hover:text-brand-800" href="/auth?mode=forgot-password">
          Request another reset e-mail
        </a>
      </p>
    </AuthShell>
  );
}

/** Another account is signed in here: resetting this one signs it out, so it is asked for first. */
function ConfirmOtherAccount({
  account,
  signedInAs,
  inputProps,
  errorId,
  errors,
}: {
  account: string;
  signedInAs: string;
  inputProps: ComponentProps<"input">;
  errorId: string;
  errors?: string[];
}) {
  return (
    <div className="space-y-3 rounded-lg border border-amber-200 bg-amber-50 p-4">
      <p className="text-sm text-amber-900">{M.resetOtherAccount(signedInAs, account)}</p>
      <label className="flex items-start gap-2 text-sm font-medium text-amber-950" htmlFor={inputProps.id}>
        <input {...inputProps} className="mt-0.5 h-4 w-4 rounded border-amber-400 text-brand-600 focus:ring-2 focus:ring-brand-500" />
        <span>
          Yes, reset the password of {account} and sign out {signedInAs} in this browser.
        </span>
      </label>
      {errors?.length ? (
        <p id={errorId} className="text-sm font-medium text-red-700">
          {errors[0]}
        </p>
      ) : null}
    </div>
  );
}
