import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, useNavigation, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/auth.reset-password";
import { AuthShell } from "~/components/auth-shell";
import { FormField } from "~/components/form-field";
import { RedirectAfter } from "~/components/redirect-after";
import { Alert, Input, LinkButton, SubmitButton } from "~/components/ui";
import { resetPassword } from "~/lib/auth/accounts.server";
import { AUTH_MESSAGES as M } from "~/lib/auth/messages";
import { peekOneTimeToken } from "~/lib/auth/one-time-tokens.server";

import { resetPasswordSchema } from "~/lib/auth/validation";
import { PASSWORD, REDIRECT_DELAY_MS } from "~/lib/constants";
import { app } from "~/server/context";
import { clearCookie, headersWithCookies, readCookie, recoveryCookie, signedInCookies } from "~/server/cookies";
import { formErrorResult, readForm } from "~/server/http";
import { pageMeta } from "~/lib/site/meta";

export const meta = () => pageMeta("Reset Your Password | Modelify");

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = await readCookie(recoveryCookie, request);
  const valid = token ? Boolean(await peekOneTimeToken(app(context).db, "recovery", token)) : false;
  return { valid };
}

export async function action({ request, context }: Route.ActionArgs) {
  const read = await readForm(request);
  if (!read.ok) return data({ result: formErrorResult(read.message) }, { status: read.status });
  const submission = parseWithZod(read.formData, { schema: resetPasswordSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password", "confirmPassword"] }) }, { status: 400 });
  }
  const token = await readCookie(recoveryCookie, request);
  if (!token) return data({ result: submission.reply({ formErrors: [M.invalidResetLink] }), invalidLink: true }, { status: 400 });
  const outcome = await resetPassword(app(context), token, submission.value.password);
  if (!outcome.ok) return data({ result: submission.reply({ formErrors: [outcome.error] }), invalidLink: true }, { status: 400 });
  const url = new URL(request.url);
  const headers = headersWithCookies([...(await signedInCookies(url, outcome.tokens)), await clearCookie(recoveryCookie, url)]);
  return data({ result: submission.reply({ resetForm: true }), updated: true }, { headers });
}

export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === "POST" ? false : defaultShouldRevalidate;
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "reset-password",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resetPasswordSchema }),
  });

  if (actionData && "updated" in actionData) {
    return (
      <AuthShell title="Password Updated!">
        <Alert tone="success">Your password has been changed and every other session was signed out. Taking you to your dashboard...</Alert>
        <RedirectAfter to="/dashboard" delayMs={REDIRECT_DELAY_MS.resetPassword} />
      </AuthShell>
    );
  }

  if (!loaderData.valid || (actionData && "invalidLink" in actionData)) {
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

  const busy = navigation.state === "submitting";
  return (
    <AuthShell title="Reset Your Password" subtitle="Choose a new password for your account. Other sessions will be signed out.">
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        {form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
        <FormField
          label="New Password"
          htmlFor={fields.password.id}
          errorId={fields.password.errorId}
          errors={fields.password.errors}
          hint={`At least ${PASSWORD.minLength} characters, the same as for signing in.`}
        >
          <Input {...getInputProps(fields.password, { type: "password" })} autoComplete="new-password" />
        </FormField>
        <FormField label="Confirm Password" htmlFor={fields.confirmPassword.id} errorId={fields.confirmPassword.errorId} errors={fields.confirmPassword.errors}>
          <Input {...getInputProps(fields.confirmPassword, { type: "password" })} autoComplete="new-password" />
        </FormField>
        <SubmitButton pending={busy} idle="Update Password" busy="Updating Password..." />
      </Form>
    </AuthShell>
  );
}
