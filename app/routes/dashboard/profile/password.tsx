// /dashboard/profile/password: changing the password while signed in (issue 46), where password
// managers look for it (/.well-known/change-password leads here). The current password always (a
// change of the password asks for it: DESIGN.md), a two-factor code where the session has no
// recent proof, and the new one twice with the strength meter. It ends every other session and
// device and mails the owner. A plain form: it works without JavaScript.
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, redirect, useNavigation, Link } from "react-router";
import type { z } from "zod";
import type { Route } from "./+types/password";
import { TabError } from "~/components/dashboard/tab-error";
import { CHECKED_ON_THE_SERVER, Field } from "~/components/forms";
import { NewPasswordFields } from "~/components/password-strength-meter";
import { Alert, buttonClass, Card, SubmitButton } from "~/components/ui";
import { changePassword } from "~/lib/auth/password-change.server";
import { proofErrors } from "~/lib/auth/recent-proof.server";
import { changePasswordSchema } from "~/lib/auth/validation";
import { TWO_FACTOR } from "~/lib/constants";
import { pageMeta } from "~/lib/site/meta";
import { getAuth, requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { proofNeedsOf, recentProof } from "~/server/recent-proof.server";
import { readForm } from "~/server/requests.server";
import { formErrorResult, keepRetryAfter, retryAfter } from "~/server/responses.server";

export const meta = () => pageMeta("Change your password | Modelify", { noindex: true });
export const headers = keepRetryAfter;

const SECRETS = ["currentPassword", "code", "password", "confirmPassword"];

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const needs = await proofNeedsOf(context);
  return { needsCode: needs.code, email: user.email };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const read = await readForm(request);
  if (!read.ok) return data({ result: formErrorResult(read.message) }, { status: read.status });
  const submission = parseWithZod(read.formData, { schema: changePasswordSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: SECRETS }) }, { status: 400 });
  const { currentPassword, code, password } = submission.value;
  const proven = await recentProof(context, { password: currentPassword, code }, { passwordAlways: true });
  if (!proven.ok) {
    const { errors, status, retryAfterSeconds } = proofErrors(proven);
    const result = submission.reply({
      fieldErrors: { ...(errors.password && { currentPassword: [errors.password] }), ...(errors.code && { code: [errors.code] }) },
      formErrors: errors.form ? [errors.form] : [],
      hideFields: SECRETS,
    });
    return data({ result }, { status, headers: retryAfterSeconds ? retryAfter(retryAfterSeconds) : undefined });
  }
  const sessionId = getAuth(context).session?.id ?? "";
  await changePassword(app(context), user, sessionId, password, proven.proof);
  throw redirect("/dashboard/profile?password=changed#password-title", 303);
}

export default function ChangePassword({ loaderData, actionData }: Route.ComponentProps) {
  const pending = useNavigation().state === "submitting";
  const [form, fields] = useForm<z.input<typeof changePasswordSchema>, z.output<typeof changePasswordSchema>>({
    id: "change-password",
    lastResult: actionData?.result,
    ...CHECKED_ON_THE_SERVER,
  });
  return (
    <section aria-labelledby="change-password-title" className="mx-auto max-w-lg">
      <Card className="p-6">
        <h1 id="change-password-title" className="text-xl font-semibold text-slate-900">
          Change your password
        </h1>
        <p className="mt-1 text-sm text-slate-600">
          Every other browser and desktop app signed in to your account is signed out, and we e-mail you about the change.
        </p>
        <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
          {form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
          {/* The account's name, hidden, so a password manager files the new password under it. */}
          <input type="email" name="username" autoComplete="username" value={loaderData.email} readOnly hidden />
          <Field
            labelProps={{ children: "Current password" }}
            inputProps={{ ...getInputProps(fields.currentPassword, { type: "password" }), autoComplete: "current-password", autoFocus: true }}
            errors={fields.currentPassword.errors}
          />
          {loaderData.needsCode ? (
            <Field
              labelProps={{ children: "Authentication code" }}
              inputProps={{
                ...getInputProps(fields.code, { type: "text" }),
                autoComplete: "one-time-code",
                maxLength: TWO_FACTOR.codeMaxLength,
                spellCheck: false,
                className: "font-mono tracking-[0.2em]",
              }}
              errors={fields.code.errors}
              hint={`${TWO_FACTOR.digits} digits from your authenticator app, or a recovery code.`}
            />
          ) : null}
          <NewPasswordFields
            password={fields.password}
            confirmPassword={fields.confirmPassword}
            labels={{ password: "New password", confirm: "Confirm new password" }}
          />
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Link to="/dashboard/profile" className={buttonClass("secondary", "md")}>
              Cancel
            </Link>
            <SubmitButton pending={pending} idle="Change Password" busy="Changing Password..." size="md" className="w-full sm:w-auto" />
          </div>
        </Form>
      </Card>
    </section>
  );
}

export const ErrorBoundary = TabError;
