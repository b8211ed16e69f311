// /dashboard/profile/two-factor: turning two-factor sign-in on (a QR code drawn on the server from
// the otpauth:// URI, the secret as text, then the first code; ten recovery codes shown once) or
// off (the password and a code). Plain forms: it all works without JavaScript.
import { data, Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/two-factor";
import { Field } from "~/components/forms";
import { Alert, Card, LinkButton, SubmitButton } from "~/components/ui";
import { confirmSetup, disableTwoFactor, pendingSetup, twoFactorFormSchema } from "~/lib/auth/two-factor-setup.server";
import { twoFactorStatus } from "~/lib/auth/two-factor.server";
import { AUTH_MESSAGES as M } from "~/lib/auth/messages";
import { pageMeta } from "~/lib/site/meta";
import { requireUser } from "~/server/auth";
import { app } from "~/server/context";
import { readForm } from "~/server/requests";
import { keepRetryAfter, retryAfter } from "~/server/responses";
import { TWO_FACTOR } from "~/lib/constants";

export const meta = () => pageMeta("Two-Factor Authentication | Modelify");

export const headers = keepRetryAfter;

type ActionData = { error: string | null; field?: "code" | "password"; recoveryCodes?: string[] };

const SETUP_ERRORS = {
  invalid: M.twoFactorInvalid,
  expired: "The setup took too long: scan the new QR code and try again.",
} as const;

const locked = (retryAfterSeconds: number) => ({ status: 429, headers: retryAfter(retryAfterSeconds) });

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const deps = app(context);
  const status = await twoFactorStatus(deps.db, user.id);
  return { status, setup: status.enabled ? null : await pendingSetup(deps, user), email: user.email };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const deps = app(context);
  const read = await readForm(request);
  if (!read.ok) return data<ActionData>({ error: read.message }, { status: read.status });
  const parsed = twoFactorFormSchema.safeParse(Object.fromEntries(read.formData));
  if (!parsed.success) return data<ActionData>({ error: parsed.error.issues[0]?.message ?? M.unexpected }, { status: 400 });
  if (parsed.data.intent === "confirm") {
    const outcome = await confirmSetup(deps, user, parsed.data.code);
    if (outcome.ok) return data<ActionData>({ error: null, recoveryCodes: outcome.recoveryCodes }, { headers: { "Cache-Control": "no-store" } });
    if (outcome.reason === "locked") return data<ActionData>({ error: M.twoFactorLocked, field: "code" }, locked(outcome.retryAfterSeconds));
    return data<ActionData>({ error: SETUP_ERRORS[outcome.reason], field: "code" }, { status: 400 });
  }
  const outcome = await disableTwoFactor(deps, user.id, parsed.data);
  if (outcome.ok) throw redirect("/dashboard/profile?twoFactor=off#two-factor-title", 303);
  if (outcome.reason === "wrong-password") return data<ActionData>({ error: "That password is not right.", field: "password" }, { status: 401 });
  if (outcome.reason === "locked") {
    return data<ActionData>({ error: outcome.factor === "password" ? M.signInLocked : M.twoFactorLocked }, locked(outcome.retryAfterSeconds));
  }
  return data<ActionData>({ error: M.twoFactorInvalid, field: "code" }, { status: 401 });
}

export default function TwoFactorPage({ loaderData, actionData }: Route.ComponentProps) {
  const { status, setup } = loaderData;
  return (
    <section aria-labelledby="two-factor-page-title" className="mx-auto max-w-2xl">
      <Card className="p-6">
        <h1 id="two-factor-page-title" className="text-xl font-semibold text-slate-900">
          Two-factor authentication
        </h1>
        {actionData?.recoveryCodes ? (
          <RecoveryCodes codes={actionData.recoveryCodes} />
        ) : status.enabled ? (
          <TurnOff error={actionData?.error ?? null} field={actionData?.field} />
        ) : setup ? (
          <TurnOn setup={setup} error={actionData?.error ?? null} />
        ) : null}
      </Card>
    </section>
  );
}

function FormError({ id, error }: { id: string; error: string | null }) {
  return error ? (
    <Alert tone="error">
      <span id={id}>{error}</span>
    </Alert>
  ) : null;
}

function TurnOn({ setup, error }: { setup: { secret: string; qrDataUri: string }; error: string | null }) {
  const pending = useNavigation().state === "submitting";
  return (
    <div className="mt-2 space-y-5">
      <p className="text-sm text-slate-600">
        1. Scan this QR code with your authenticator app (such as 1Password, Google Authenticator or Authy). 2. Enter the 6-digit code it shows. From then on,
        signing in asks for a code too.
      </p>
      <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
        {/* Drawn on the server from the otpauth:// URI (uqr): no script, no third party. */}
        <img
          src={setup.qrDataUri}
          alt="QR code to add Modelify to your authenticator app"
          width={192}
          height={192}
          className="h-48 w-48 shrink-0 rounded-lg border border-slate-200 bg-white p-2"
        />
        <div className="min-w-0 text-sm text-slate-600">
          <p>Can't scan it? Type this key into the app instead (time-based, 6 digits):</p>
          <p className="mt-2 break-all rounded-lg bg-slate-50 px-3 py-2 font-mono text-base text-slate-900" data-testid="two-factor-secret">
            {setup.secret}
          </p>
        </div>
      </div>
      <Form method="post" className="space-y-4">
        <input type="hidden" name="intent" value="confirm" />
        <FormError id="two-factor-setup-error" error={error} />
        <Field
          labelProps={{ children: "Code from the app" }}
          inputProps={{
            name: "code",
            autoComplete: "one-time-code",
            inputMode: "numeric",
            maxLength: 7,
            required: true,
            "aria-describedby": error ? "two-factor-setup-error" : undefined,
            className: "font-mono tracking-[0.2em]",
          }}
        />
        <SubmitButton pending={pending} idle="Turn On Two-Factor" busy="Checking..." />
      </Form>
    </div>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div className="mt-2 space-y-4">
      <Alert tone="success">Two-factor authentication is on. We e-mailed you about the change.</Alert>
      <p className="text-sm text-slate-600">
        Save these recovery codes somewhere safe, such as your password manager. Each one signs you in once if you lose your phone. This is the only time they
        are shown.
      </p>
      <ul
        className="grid grid-cols-1 gap-2 rounded-lg bg-slate-50 p-4 font-mono text-sm text-slate-900 sm:grid-cols-2"
        aria-label="Recovery codes"
        data-testid="recovery-codes"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <LinkButton to="/dashboard/profile#two-factor-title" className="w-full">
        I Saved Them: Back to Profile
      </LinkButton>
    </div>
  );
}

function TurnOff({ error, field }: { error: string | null; field: "code" | "password" | undefined }) {
  const pending = useNavigation().state === "submitting";
  return (
    <div className="mt-2 space-y-4">
      <p className="text-sm text-slate-600">
        Two-factor authentication is on. To turn it off, confirm it's you with your password and a code from your app (or a recovery code). Without it, your
        password alone opens your account.
      </p>
      <Form method="post" className="space-y-4">
        <input type="hidden" name="intent" value="disable" />
        <FormError id="two-factor-off-error" error={error} />
        <Field
          labelProps={{ children: "Password" }}
          inputProps={{
            name: "password",
            type: "password",
            autoComplete: "current-password",
            required: true,
            "aria-invalid": field === "password" ? true : undefined,
            "aria-describedby": error ? "two-factor-off-error" : undefined,
          }}
        />
        <Field
          labelProps={{ children: "Authentication code" }}
          inputProps={{
            name: "code",
            autoComplete: "one-time-code",
            required: true,
            maxLength: TWO_FACTOR.codeMaxLength,
            "aria-invalid": field === "code" ? true : undefined,
            "aria-describedby": error ? "two-factor-off-error" : undefined,
          }}
          hint="6 digits from your app, or a recovery code."
        />
        <SubmitButton pending={pending} idle="Turn Off Two-Factor" busy="Turning Off..." />
      </Form>
    </div>
  );
}
