// /dashboard/profile/two-factor: turning two-factor sign-in on ("Set up" makes the secret with a
// POST, then the page shows the QR code drawn on the server from the otpauth:// URI, the secret
// as text, and takes the first code; ten recovery codes shown once), making new recovery codes,
// or turning it off. Each needs a recent proof: turning it on sends a session without one to
// "Confirm it's you" first; new codes and turning it off ask for the password and a code on the
// form itself unless the session proved them within minutes. The GET only reads. Plain forms: it
// all works without JavaScript.
import { data, Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/two-factor";
import { Field } from "~/components/forms";
import { Alert, Card, SubmitButton } from "~/components/ui";
import { confirmSetup, disableTwoFactor, pendingSetup, regenerateRecoveryCodes, startSetup, twoFactorFormSchema } from "~/lib/auth/two-factor-setup.server";
import { type ProofNeeds, type ProofRefusal, proofErrors } from "~/lib/auth/recent-proof.server";
import { ProofFields } from "~/components/profile/proof-fields";
import { RecoveryCodes } from "~/components/profile/recovery-codes";
import { twoFactorStatus } from "~/lib/auth/two-factor.server";
import { AUTH_MESSAGES as M } from "~/lib/auth/messages";
import { pageMeta } from "~/lib/site/meta";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { proofNeedsOf, proofRequired, recentProof } from "~/server/recent-proof.server";
import { readForm } from "~/server/requests.server";
import { keepRetryAfter, retryAfter } from "~/server/responses.server";
import { TWO_FACTOR } from "~/lib/constants";

export const meta = () => pageMeta("Two-Factor Authentication | Modelify");

export const headers = keepRetryAfter;

const INTENTS = ["start", "confirm", "disable", "regenerate"] as const;
type Intent = (typeof INTENTS)[number];
type ActionData = { error: string | null; intent?: Intent; field?: "code" | "password"; recoveryCodes?: string[] };

const SETUP_ERRORS = {
  invalid: M.twoFactorInvalid,
  expired: "The setup took too long: set it up again for a new QR code.",
} as const;

const PAGE = "/dashboard/profile/two-factor";
const NO_STORE = { "Cache-Control": "no-store" };
const locked = (retryAfterSeconds: number) => ({ status: 429, headers: retryAfter(retryAfterSeconds) });

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const deps = app(context);
  const [status, needs] = await Promise.all([twoFactorStatus(deps.db, user.id), proofNeedsOf(context)]);
  return { status, setup: status.enabled ? null : await pendingSetup(deps, user), email: user.email, needs: { password: needs.password, code: needs.code } };
}

/** The answer to a refused proof on a form that asks for it (turning it off, new recovery codes). */
function refusedProof(intent: "disable" | "regenerate", outcome: ProofRefusal) {
  const { errors, status, retryAfterSeconds } = proofErrors(outcome);
  const field = errors.password ? "password" : errors.code ? "code" : undefined;
  const error = errors.form ?? errors.password ?? errors.code ?? M.unexpected;
  return data<ActionData>({ error, intent, field }, retryAfterSeconds ? locked(retryAfterSeconds) : { status });
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const deps = app(context);
  const read = await readForm(request);
  if (!read.ok) return data<ActionData>({ error: read.message }, { status: read.status });
  const parsed = twoFactorFormSchema.safeParse(Object.fromEntries(read.formData));
  if (!parsed.success) {
    const intent = INTENTS.find((known) => known === read.formData.get("intent"));
    return data<ActionData>({ error: parsed.error.issues[0]?.message ?? M.unexpected, intent }, { status: 400 });
  }
  const form = parsed.data;
  const proven = await recentProof(context, form.intent === "disable" || form.intent === "regenerate" ? form : {});
  if (!proven.ok) {
    if (form.intent === "start" || form.intent === "confirm") return proofRequired(request, PAGE);
    return refusedProof(form.intent, proven);
  }
  switch (form.intent) {
    case "start":
      // Back to the page's GET, so a reload shows the setup instead of posting again.
      await startSetup(deps, user, proven.proof);
      throw redirect(PAGE, 303);
    case "confirm": {
      const outcome = await confirmSetup(deps, user, form.code, proven.proof);
      if (outcome.ok) return data<ActionData>({ error: null, intent: form.intent, recoveryCodes: outcome.recoveryCodes }, { headers: NO_STORE });
      if (outcome.reason === "locked")
        return data<ActionData>({ error: M.twoFactorLocked(outcome.retryAfterSeconds), intent: form.intent, field: "code" }, locked(outcome.retryAfterSeconds));
      return data<ActionData>({ error: SETUP_ERRORS[outcome.reason], intent: form.intent, field: "code" }, { status: 400 });
    }
    case "regenerate": {
      const recoveryCodes = await regenerateRecoveryCodes(deps, user, proven.proof);
      return data<ActionData>({ error: null, intent: form.intent, recoveryCodes }, { headers: NO_STORE });
    }
    case "disable":
      await disableTwoFactor(deps, user, proven.proof);
      throw redirect("/dashboard/profile?twoFactor=off#two-factor-title", 303);
  }
}

export default function TwoFactorPage({ loaderData, actionData }: Route.ComponentProps) {
  const { status, setup, needs } = loaderData;
  // Each form shows its own error; one whose form could not be told (an unreadable post) shows on the first form.
  const errorOf = (intent: Intent, first = false) => (actionData?.intent === intent || (first && !actionData?.intent) ? (actionData?.error ?? null) : null);
  return (
    <section aria-labelledby="two-factor-page-title" className="mx-auto max-w-2xl">
      <Card className="p-6">
        <h1 id="two-factor-page-title" className="text-xl font-semibold text-slate-900">
          Two-factor authentication
        </h1>
        {actionData?.recoveryCodes ? (
          <RecoveryCodes codes={actionData.recoveryCodes} replaced={actionData.intent === "regenerate"} />
        ) : status.enabled ? (
          <div className="mt-2 space-y-6">
            <p className="text-sm text-slate-600">Two-factor authentication is on: signing in asks for your password and a code from your authenticator app.</p>
            <ProofForm
              intent="regenerate"
              title="New recovery codes"
              text={`Lost or used up your recovery codes? Make ${TWO_FACTOR.recoveryCodes} new ones: the old ones stop working at once.${needs.password ? " Confirm it's you with your password and a code from your app (or a recovery code)." : ""}`}
              needs={needs}
              idle="Make New Recovery Codes"
              busy="Making Codes..."
              error={errorOf("regenerate", true)}
              field={actionData?.intent === "regenerate" ? actionData.field : undefined}
            />
            <ProofForm
              intent="disable"
              title="Turn off two-factor"
              text={`${needs.password ? "Confirm it's you with your password and a code from your app (or a recovery code). " : ""}Without two-factor, your password alone opens your account.`}
              needs={needs}
              idle="Turn Off Two-Factor"
              busy="Turning Off..."
              error={errorOf("disable")}
              field={actionData?.intent === "disable" ? actionData.field : undefined}
            />
          </div>
        ) : setup ? (
          <TurnOn setup={setup} error={errorOf("confirm", true)} />
        ) : (
          <SetUp error={errorOf("confirm") ?? errorOf("start", true)} />
        )}
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

/** No setup waiting: the secret is made only when the user asks for it (a POST), never by opening the page. */
function SetUp({ error }: { error: string | null }) {
  const pending = useNavigation().state === "submitting";
  return (
    <div className="mt-2 space-y-4">
      <p className="text-sm text-slate-600">
        Add a code from an authenticator app (such as 1Password, Google Authenticator or Authy) to your password, so a stolen password alone cannot open your
        account. Setting it up shows a QR code to scan; then you enter the {TWO_FACTOR.digits}-digit code the app shows.
      </p>
      <Form method="post" className="space-y-4">
        <input type="hidden" name="intent" value="start" />
        <FormError id="two-factor-start-error" error={error} />
        <SubmitButton pending={pending} idle="Set Up Two-Factor" busy="Setting Up..." />
      </Form>
    </div>
  );
}

function TurnOn({ setup, error }: { setup: { secret: string; qrDataUri: string }; error: string | null }) {
  const pending = useNavigation().state === "submitting";
  return (
    <div className="mt-2 space-y-5">
      <p className="text-sm text-slate-600">
        1. Scan this QR code with your authenticator app (such as 1Password, Google Authenticator or Authy). 2. Enter the {TWO_FACTOR.digits}-digit code it
        shows. From then on, signing in asks for a code too.
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
          <p>Can't scan it? Type this key into the app instead (time-based, {TWO_FACTOR.digits} digits):</p>
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
            // The digits, and the space apps show between their halves ("123 456").
            maxLength: TWO_FACTOR.digits + 1,
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

/** A change that takes a recent proof: new recovery codes, or turning two-factor off (the fields only while there is none). */
function ProofForm(props: {
  intent: "regenerate" | "disable";
  title: string;
  text: string;
  idle: string;
  busy: string;
  error: string | null;
  field: "code" | "password" | undefined;
  needs: ProofNeeds;
}) {
  const { intent, error, field } = props;
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const errorId = `two-factor-${intent}-error`;
  return (
    <section aria-labelledby={`two-factor-${intent}-title`} className="space-y-4 border-t border-slate-200 pt-5">
      <h2 id={`two-factor-${intent}-title`} className="text-base font-semibold text-slate-900">
        {props.title}
      </h2>
      <p className="text-sm text-slate-600">{props.text}</p>
      <Form method="post" className="space-y-4">
        <input type="hidden" name="intent" value={intent} />
        <FormError id={errorId} error={field ? null : error} />
        <ProofFields needs={props.needs} errors={field ? { [field]: error ?? undefined } : {}} />
        <SubmitButton pending={pending} idle={props.idle} busy={props.busy} />
      </Form>
    </section>
  );
}
