// /dashboard/profile/confirm: "Confirm it's you" (issue 45). A change to the account's ways in (a
// passkey, two-factor, recovery codes, a device) that finds no recent proof in the session comes
// here; the password, and a code where two-factor is on, make one (lib/auth/recent-proof.server.ts),
// then the browser goes back to `next`. A plain form: it works without JavaScript.
import { data, Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/confirm";
import { TabError } from "~/components/dashboard/tab-error";
import { ProofFields } from "~/components/profile/proof-fields";
import type { ProofFieldErrors } from "~/lib/auth/recent-proof.server";
import { Alert, Card, SubmitButton } from "~/components/ui";
import { AUTH_MESSAGES as M } from "~/lib/auth/messages";
import { RECENT_PROOF } from "~/lib/constants";
import { formatDuration } from "~/lib/format";
import { pageMeta } from "~/lib/site/meta";
import { requireUser } from "~/server/auth.server";
import { safeNext } from "~/lib/auth/modes";
import { proofAnswer, proofNeedsOf, recentProof } from "~/server/recent-proof.server";
import { readForm, singleValue } from "~/server/requests.server";
import { keepRetryAfter } from "~/server/responses.server";

export const meta = () => pageMeta("Confirm it's you | Modelify", { noindex: true });
export const headers = keepRetryAfter;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireUser(context);
  const next = safeNext(new URL(request.url).searchParams.get("next"));
  const needs = await proofNeedsOf(context);
  return { next, needsCode: needs.twoFactorOn };
}

export async function action({ request, context }: Route.ActionArgs) {
  requireUser(context);
  const read = await readForm(request);
  if (!read.ok) return data<{ errors: ProofFieldErrors }>({ errors: { form: read.message } }, { status: read.status });
  const next = safeNext(new URL(request.url).searchParams.get("next"));
  const password = singleValue(read.formData, "password");
  const code = singleValue(read.formData, "code");
  if (typeof password !== "string" || password === "")
    return data<{ errors: ProofFieldErrors }>({ errors: { password: M.proofPasswordRequired } }, { status: 400 });
  const outcome = await recentProof(context, { password, code: typeof code === "string" ? code : null });
  if (outcome.ok) throw redirect(next, 303);
  return proofAnswer(outcome);
}

export default function ConfirmItsYou({ loaderData, actionData }: Route.ComponentProps) {
  const pending = useNavigation().state === "submitting";
  const errors = actionData?.errors ?? {};
  const minutes = formatDuration(RECENT_PROOF.windowMs, "minute");
  return (
    <section aria-labelledby="confirm-title" className="mx-auto max-w-lg">
      <Card className="p-6">
        <h1 id="confirm-title" className="text-xl font-semibold text-slate-900">
          Confirm it's you
        </h1>
        <p className="mt-1 text-sm text-slate-600">
          Adding or removing a way into your account (a passkey, two-factor sign-in, recovery codes, a device) asks for your password
          {loaderData.needsCode ? " and a code from your authenticator app" : ""}. You won't be asked again for {minutes} in this browser.
        </p>
        <Form method="post" className="mt-6 space-y-4">
          {errors.form ? <Alert tone="error">{errors.form}</Alert> : null}
          <ProofFields needs={{ password: true, code: loaderData.needsCode }} errors={errors} autoFocus />
          <SubmitButton pending={pending} idle="Confirm" busy="Checking..." />
        </Form>
      </Card>
    </section>
  );
}

export const ErrorBoundary = TabError;
