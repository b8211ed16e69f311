import { getFormProps, getInputProps, getSelectProps, parse, useForm } from "@conform-to/react";
import { useRef } from "react";
import type { z } from "zod";
import { Form, redirect, useActionData, useNavigation, type ShouldRevalidateFunctionArgs, Link } from "react-router";
import type { Route } from "./+types/index";
import { AuthShell } from "~/components/auth-shell";
import { PasskeySignIn } from "~/components/passkey-sign-in";
import { NewPasswordFields } from "~/components/password-strength-meter";
import { useMarketingEvent } from "~/components/site/marketing";
import { Field, SelectField } from "~/components/forms";
import { RedirectAfter } from "~/components/redirect-after";
import { Alert, Button, CheckIcon, LinkButton, SubmitButton } from "~/components/ui";
import { AUTH_MESSAGES as M } from "~/lib/auth/messages";
import { SECURITY_QUESTIONS } from "~/lib/auth/security-questions";
import { REDIRECT_DELAY_MS } from "~/lib/constants";
import { parseMode, type AuthMode } from "~/lib/auth/modes";
import { getAuth } from "~/server/auth.server";
import { keepRetryAfter } from "~/server/responses.server";
import { authAction, destinationFor, type AuthActionData } from "./auth.server";
import type { AuthFormSchema } from "./auth.validate";
import { pageMeta } from "~/lib/site/meta";

const SIGN_IN_DESTINATION_NAMES = { "/pricing": "pricing", "/activate": "your activation key", "/dashboard": "dashboard" } as const;
const destinationName = (to: string) =>
  to.startsWith("/device")
    ? "the desktop app's sign-in"
    : to.startsWith("/teams/invitations/")
      ? "the team's invitation"
      : SIGN_IN_DESTINATION_NAMES[to as keyof typeof SIGN_IN_DESTINATION_NAMES];

const TITLES: Record<AuthMode, string> = {
  signin: "Welcome Back",
  signup: "Create Account",
  "forgot-password": "Reset Password",
};

export function meta({ loaderData }: Route.MetaArgs) {
  return pageMeta(`${loaderData ? TITLES[loaderData.mode] : "Sign In"} | Modelify`);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const mode = parseMode(url.searchParams.get("mode"));
  const { user } = getAuth(context);
  if (user && mode !== "signup") throw redirect(destinationFor(url));
  return { mode, signedInEmail: user?.email ?? null, query: url.search };
}

export async function action({ request, context }: Route.ActionArgs) {
  return authAction(request, context);
}

export const headers = keepRetryAfter;

// After a sign-in the loader would bounce a now signed-in user away before the success
// message shows; the success view does its own timed redirect instead.
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === "POST" ? false : defaultShouldRevalidate;
}

function modeLink(mode: AuthMode, query: string) {
  const params = new URLSearchParams(query);
  params.set("mode", mode);
  return `/auth?${params.toString()}`;
}

export default function AuthPage({ loaderData }: Route.ComponentProps) {
  const { mode, signedInEmail, query } = loaderData;
  const actionData = useActionData<AuthActionData>();
  const success = actionData?.success;
  useMarketingEvent("AuthStart", { enabled: !signedInEmail });

  if (success?.kind === "signin") {
    return (
      <AuthShell title="Signed In">
        <SuccessBlock message={M.signInSuccess(destinationName(success.destination))} />
        <RedirectAfter to={success.destination} delayMs={REDIRECT_DELAY_MS.signIn} />
      </AuthShell>
    );
  }
  if (success?.kind === "signup") {
    return (
      <AuthShell title="Check Your Email">
        <SuccessBlock message={M.signUpSuccess} />
        <LinkButton to="/dashboard" className="mt-6 w-full">
          Continue to Home
        </LinkButton>
        <RedirectAfter to="/dashboard" delayMs={REDIRECT_DELAY_MS.signUp} />
      </AuthShell>
    );
  }

  if (signedInEmail && mode === "signup") return <AlreadySignedIn email={signedInEmail} />;

  // The spec's "Back to Dashboard" (for a user with a previous login) is not here: these forms are
  // shown only to someone signed out, whom /dashboard would send straight back to this page, and a
  // signed-in user is sent on (or, on sign-up, offered "Go to Dashboard"). Issue 46.
  return (
    <AuthShell
      key={mode}
      wide={mode === "signup"}
      title={TITLES[mode]}
      subtitle={
        mode === "signin"
          ? "Sign in to manage your subscription, usage and downloads."
          : mode === "signup"
            ? "Start with Modelify in a minute. We'll e-mail you a confirmation link."
            : "Enter your e-mail and we'll send you a link to choose a new password."
      }
      footer={
        mode === "signin" ? (
          <>
            New to Modelify?{" "}
            <Link className="font-semibold text-brand-700 hover:text-brand-800" to={modeLink("signup", query)}>
              Create an account
            </Link>
          </>
        ) : (
          <>
            {mode === "signup" ? "Already have an account? " : "Remembered it? "}
            <Link className="font-semibold text-brand-700 hover:text-brand-800" to={modeLink("signin", query)}>
              Sign in
            </Link>
          </>
        )
      }
    >
      {mode === "signin" ? (
        <>
          <SignInForm query={query} />
          <PasskeySignIn search={query} />
        </>
      ) : mode === "signup" ? (
        <SignUpForm />
      ) : (
        <ForgotPasswordForm />
      )}
    </AuthShell>
  );
}

function SuccessBlock({ message }: { message: string }) {
  return (
    <div className="flex flex-col items-center text-center" role="status">
      <div className="flex h-12 w-12 items-center justify-center rounded-full bg-emerald-50 text-emerald-600" aria-hidden="true">
        <CheckIcon className="h-6 w-6" bold />
      </div>
      <p className="mt-4 text-sm leading-6 text-slate-700">{message}</p>
    </div>
  );
}

function AlreadySignedIn({ email }: { email: string }) {
  return (
    <AuthShell
      title="Already Signed In"
      subtitle={
        <>
          You are signed in as <strong className="text-slate-900">{email}</strong>.
        </>
      }
    >
      <div className="space-y-3">
        <Form method="post" action="/auth/sign-out">
          <input type="hidden" name="redirectTo" value="/auth?mode=signup" />
          <Button type="submit" variant="secondary" className="w-full">
            Sign Out &amp; Create New Account
          </Button>
        </Form>
        <LinkButton to="/dashboard" className="w-full">
          Go to Dashboard
        </LinkButton>
      </div>
    </AuthShell>
  );
}

// The forms' own check in the browser (zod, the schemas, conform's zod adapter) loads when a form
// is first focused, not with the page. Until then nothing is checked here and a submit waits for
// it; should it fail to load (null), the server's check of the same schemas is the only one.
let validateAuthForm: typeof import("./auth.validate")["validateAuthForm"] | null | undefined;
let loadingValidation: Promise<void> | undefined;
const loadValidation = () =>
  (loadingValidation ??= import("./auth.validate").then(
    (module) => {
      validateAuthForm = module.validateAuthForm;
    },
    () => {
      validateAuthForm = null;
    },
  ));

function useAuthForm<Mode extends AuthMode>(mode: Mode) {
  const actionData = useActionData<AuthActionData>();
  // Fields left and a submit made before the check arrived: checked and submitted once it has.
  const pending = useRef({ fields: new Set<string>(), submit: false });
  const [form, fields] = useForm<z.input<AuthFormSchema<Mode>>, z.output<AuthFormSchema<Mode>>>({
    id: mode,
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate({ formData }) {
      if (validateAuthForm) return validateAuthForm(mode, formData);
      return parse<z.output<AuthFormSchema<Mode>>, string[]>(formData, {
        resolve(payload, intent) {
          // Without a verdict a submit goes on (null), to onSubmit below. A field's check (an
          // intent, which conform sends as a submit too) must not reach the server: it stops here
          // with every error shown kept as it is (null for each name), and runs when the schemas arrive.
          if (!intent) return { error: null };
          if (validateAuthForm === undefined && intent.type === "validate" && intent.payload.name) pending.current.fields.add(intent.payload.name);
          return { error: Object.fromEntries(["", ...Object.keys(payload)].map((name) => [name, null])) };
        },
      });
    },
    onSubmit(event) {
      if (validateAuthForm !== undefined) return;
      // Stopped here as usual once the check is in, rather than costing a sign-up attempt on the server.
      event.preventDefault();
      if (pending.current.submit) return;
      pending.current.submit = true;
      const formElement = event.currentTarget;
      const submitter = (event.nativeEvent as SubmitEvent).submitter;
      void loadValidation().then(() => {
        pending.current.submit = false;
        formElement.requestSubmit(submitter);
      });
    },
  });
  const onFocus = () => {
    if (validateAuthForm !== undefined) return;
    void loadValidation().then(() => {
      if (validateAuthForm) for (const name of pending.current.fields) form.validate({ name });
      pending.current.fields.clear();
    });
  };
  return [form, fields, { ...getFormProps(form), onFocus }] as const;
}

function AuthSubmit({ idle, busy }: { idle: string; busy: string }) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  return <SubmitButton pending={pending} idle={idle} busy={busy} />;
}

function SignInForm({ query }: { query: string }) {
  const [form, fields, formProps] = useAuthForm("signin");
  return (
    <Form method="post" {...formProps} className="space-y-4">
      <input type="hidden" name="intent" value="signin" />
      {form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
      <Field
        labelProps={{ children: "Email" }}
        inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "username webauthn", placeholder: "you@example.com" }}
        errors={fields.email.errors}
      />
      <Field
        labelProps={{ children: "Password" }}
        inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "current-password" }}
        errors={fields.password.errors}
      />
      <div className="flex justify-end">
        <Link to={modeLink("forgot-password", query)} className="rounded text-sm font-medium text-brand-700 hover:text-brand-800">
          Forgot password?
        </Link>
      </div>
      <AuthSubmit idle="Sign In" busy="Signing In..." />
    </Form>
  );
}

function ForgotPasswordForm() {
  const [form, fields, formProps] = useAuthForm("forgot-password");
  const actionData = useActionData<AuthActionData>();
  const sent = actionData?.success?.kind === "reset";
  return (
    <Form method="post" {...formProps} className="space-y-4">
      <input type="hidden" name="intent" value="forgot-password" />
      {sent ? <Alert tone="success">{M.resetEmailSent}</Alert> : null}
      {form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
      <Field
        labelProps={{ children: "Email" }}
        inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", placeholder: "you@example.com" }}
        errors={fields.email.errors}
      />
      <AuthSubmit idle="Send Reset Link" busy="Sending..." />
    </Form>
  );
}

function SignUpForm() {
  const [form, fields, formProps] = useAuthForm("signup");
  return (
    <Form method="post" {...formProps} className="space-y-4">
      <input type="hidden" name="intent" value="signup" />
      {form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
      <div className="grid gap-4 sm:grid-cols-[1fr_7rem_1fr]">
        <Field
          labelProps={{ children: "First name" }}
          inputProps={{ ...getInputProps(fields.firstName, { type: "text" }), autoComplete: "given-name" }}
          errors={fields.firstName.errors}
        />
        <Field
          labelProps={{ children: "Middle initial" }}
          inputProps={{ ...getInputProps(fields.initial, { type: "text" }), autoComplete: "additional-name", placeholder: "Optional" }}
          errors={fields.initial.errors}
        />
        <Field
          labelProps={{ children: "Last name" }}
          inputProps={{ ...getInputProps(fields.lastName, { type: "text" }), autoComplete: "family-name" }}
          errors={fields.lastName.errors}
        />
      </div>
      <Field
        labelProps={{ children: "Email" }}
        inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", placeholder: "you@example.com" }}
        errors={fields.email.errors}
      />
      <Field
        labelProps={{ children: "Phone number" }}
        inputProps={{ ...getInputProps(fields.phoneNumber, { type: "tel" }), autoComplete: "tel", placeholder: "+1 555 123 4567" }}
        errors={fields.phoneNumber.errors}
        hint="Numbers without a country code are treated as +1."
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          labelProps={{ children: "Security question" }}
          selectProps={getSelectProps(fields.securityQuestion)}
          errors={fields.securityQuestion.errors}
        >
          <option value="">Select a security question</option>
          {SECURITY_QUESTIONS.map((q) => (
            <option key={q.value} value={q.value}>
              {q.label}
            </option>
          ))}
        </SelectField>
        <Field
          labelProps={{ children: "Security answer" }}
          inputProps={{ ...getInputProps(fields.securityAnswer, { type: "text" }), autoComplete: "off" }}
          errors={fields.securityAnswer.errors}
        />
      </div>
      <NewPasswordFields password={fields.password} confirmPassword={fields.confirmPassword} labels={{ password: "Password", confirm: "Confirm password" }} />
      <AuthSubmit idle="Create Account" busy="Creating Account..." />
    </Form>
  );
}
