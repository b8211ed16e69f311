// /dashboard/profile/delete: "Delete my account" (issue 29). The page says exactly what happens,
// then asks for the password (and a code when two-factor is on). A plain form: it works without
// JavaScript. On success the browser's cookies are cleared and it lands on the home page.
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, redirect, useNavigation, Link } from "react-router";
import type { z } from "zod";
import type { Route } from "./+types/delete";
import { TabError } from "~/components/dashboard/tab-error";
import { CHECKED_ON_THE_SERVER, Field } from "~/components/forms";
import { DeletionFacts } from "~/components/profile/deletion-facts";
import { Alert, buttonClass, Card } from "~/components/ui";
import { deleteAccount } from "~/lib/account/deletion.server";
import { twoFactorEnabled } from "~/lib/auth/two-factor.server";
import { deleteAccountSchema } from "~/lib/account/validation";
import { pageMeta } from "~/lib/site/meta";
import { getAuth, requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { clearSessionCookies, headersWithCookies } from "~/server/cookies.server";
import { readForm } from "~/server/requests.server";
import { formErrorResult, keepRetryAfter } from "~/server/responses.server";

export const meta = () => pageMeta("Delete my account | Modelify");
export const headers = keepRetryAfter;

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  return { email: user.email, needsCode: await twoFactorEnabled(app(context).db, user.id) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const read = await readForm(request);
  if (!read.ok) return data({ result: formErrorResult(read.message) }, { status: read.status });
  const submission = parseWithZod(read.formData, { schema: deleteAccountSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  const { db, kv, bucket, ledgers, stripe, queue, ip, env, origin } = app(context);
  const sessionId = getAuth(context).session?.id ?? "";
  const outcome = await deleteAccount({ db, kv, bucket, ledgers, stripe, queue, ip, env, origin }, { userId: user.id, sessionId }, submission.value);
  if (!outcome.ok) {
    const result = outcome.field
      ? submission.reply({ fieldErrors: { [outcome.field]: [outcome.error] }, hideFields: ["password", "code"] })
      : submission.reply({ formErrors: [outcome.error], hideFields: ["password", "code"] });
    const retry = outcome.retryAfterSeconds ? { "Retry-After": String(outcome.retryAfterSeconds) } : undefined;
    return data({ result }, { status: outcome.status, headers: retry });
  }
  throw redirect("/?accountDeleted=1", { headers: headersWithCookies(await clearSessionCookies(new URL(request.url))) });
}

export default function DeleteAccount({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [form, fields] = useForm<z.input<typeof deleteAccountSchema>, z.output<typeof deleteAccountSchema>>({
    id: "delete-account",
    lastResult: actionData?.result,
    // No error appears on blur, so none can move the button out from under the pointer.
    ...CHECKED_ON_THE_SERVER,
  });
  return (
    <section aria-labelledby="delete-title" className="mx-auto max-w-2xl">
      <Card className="p-6">
        <h1 id="delete-title" className="text-xl font-semibold text-slate-900">
          Delete my account
        </h1>
        <p className="mt-1 text-sm text-slate-600">
          This deletes the account <span className="font-medium text-slate-900">{loaderData.email}</span>. It cannot be undone.
        </p>
        <DeletionFacts />
        <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
          {form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
          <Field
            labelProps={{ children: "Your password" }}
            inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "current-password" }}
            errors={fields.password.errors}
          />
          {loaderData.needsCode ? (
            <Field
              labelProps={{ children: "Authenticator code or recovery code" }}
              inputProps={{ ...getInputProps(fields.code, { type: "text" }), autoComplete: "one-time-code", inputMode: "text" }}
              errors={fields.code.errors}
            />
          ) : null}
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Link to="/dashboard/profile" className={buttonClass("secondary", "md")}>
              Keep my account
            </Link>
            <button type="submit" className={buttonClass("danger", "md")} disabled={navigation.state === "submitting"}>
              {navigation.state === "submitting" ? "Deleting..." : "Delete my account"}
            </button>
          </div>
        </Form>
      </Card>
    </section>
  );
}

export const ErrorBoundary = TabError;
