// /verify-phone?code=…&phone=…: the link in the verification SMS. Opening a link must not change
// anything by itself (link previews and scanners open links too), so the page posts the code back
// to itself: at once with JavaScript, with a Verify button without it. The code's wrong-attempt
// limit and single use apply exactly as in the profile's dialog.
import { type RefObject, useEffect, useRef } from "react";
import { data, Form, useNavigate, Link } from "react-router";
import type { Route } from "./+types/verify-phone";
import { AuthShell } from "~/components/auth-shell";
import { Alert, Button, buttonClass, LinkButton, ReloadLink, Spinner } from "~/components/ui";
import { REDIRECT_DELAY_MS } from "~/lib/constants";
import { phoneCodeKeys } from "~/lib/keys";
import { phoneCodeInputSchema } from "~/lib/phone/code";
import { verifyPhoneCode } from "~/lib/phone/codes.server";
import { PHONE_FAILURE_STATUS, phoneFailureMessage } from "~/lib/phone/outcome";
import { PHONE_MESSAGES } from "~/lib/profile/messages";
import { z } from "~/lib/zod";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { queryParamKeepingPlus, readForm, singleValue } from "~/server/requests.server";
import { keepRetryAfter, retryAfter } from "~/server/responses.server";
import { pageMeta } from "~/lib/site/meta";
import { log } from "~/lib/log/log.server";

export const meta = () => pageMeta("Verify Phone | Modelify");

export const headers = keepRetryAfter;

const formSchema = z.object({
  code: phoneCodeInputSchema,
  phone: z
    .string()
    .trim()
    .min(1)
    .max(32)
    .regex(/^\+?[0-9 ().-]+$/),
});

export function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const code = url.searchParams.get("code");
  // A "+" pasted into the link unencoded is still the number's "+", not a space.
  const phone = queryParamKeepingPlus(url, "phone");
  if (!code || !phone) return { state: "invalid" as const };
  if (!getAuth(context).user) return { state: "signin" as const };
  return { state: "verifying" as const, code: code.slice(0, 32), phone: phone.slice(0, 32) };
}

type ActionData = { ok: true; phone: string } | { ok: false; error: string };

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = getAuth(context);
  if (!user) return data<ActionData>({ ok: false, error: PHONE_MESSAGES.notAuthenticated }, { status: 401 });
  const read = await readForm(request);
  if (!read.ok) return data<ActionData>({ ok: false, error: read.message }, { status: read.status });
  const parsed = formSchema.safeParse({ code: singleValue(read.formData, "code"), phone: singleValue(read.formData, "phone") });
  if (!parsed.success) return data<ActionData>({ ok: false, error: PHONE_MESSAGES.invalidCode }, { status: 400 });
  const { db, kv, env } = app(context);
  try {
    const result = await verifyPhoneCode({ db, kv, keys: phoneCodeKeys(env) }, user.id, parsed.data);
    if (!result.ok) {
      const wait = result.retryAfterSeconds === undefined ? undefined : retryAfter(result.retryAfterSeconds);
      return data<ActionData>({ ok: false, error: phoneFailureMessage(result.reason) }, { status: PHONE_FAILURE_STATUS[result.reason], headers: wait });
    }
    return data<ActionData>({ ok: true, phone: result.phone });
  } catch (error) {
    log.error("verify_phone_failed", {}, error);
    return data<ActionData>({ ok: false, error: PHONE_MESSAGES.errorOccurred }, { status: 503 });
  }
}

/**
 * After REDIRECT_DELAY_MS.phone: a page opened from another window of the site tells that window
 * (PHONE_VERIFIED) and closes; otherwise it goes to the dashboard. Without JavaScript a refresh
 * goes to the dashboard.
 */
function AfterVerified({ phone }: { phone: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => {
      let opener: Window | null = null;
      try {
        opener = window.opener && window.opener.location.origin === window.location.origin ? (window.opener as Window) : null;
      } catch {
        // Reading another site's location throws: that opener is not ours to tell.
      }
      if (opener) {
        opener.postMessage({ type: "PHONE_VERIFIED", phone }, window.location.origin);
        window.close();
      } else {
        navigate("/dashboard", { replace: true });
      }
    }, REDIRECT_DELAY_MS.phone);
    return () => clearTimeout(timer);
  }, [phone, navigate]);
  return (
    <noscript>
      <meta httpEquiv="refresh" content={`${Math.round(REDIRECT_DELAY_MS.phone / 1000)};url=/dashboard`} />
    </noscript>
  );
}

const backToApp = buttonClass("secondary");

export default function VerifyPhone({ loaderData, actionData }: Route.ComponentProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const verifying = loaderData.state === "verifying" && !actionData;

  useEffect(() => {
    if (verifying) formRef.current?.requestSubmit();
  }, [verifying]);

  if (loaderData.state === "invalid") return <InvalidLink />;
  if (loaderData.state === "signin" || (actionData && !actionData.ok && actionData.error === PHONE_MESSAGES.notAuthenticated)) return <SignInFirst />;
  if (actionData?.ok) return <Verified phone={actionData.phone} />;
  if (actionData && !actionData.ok) return <VerificationFailed error={actionData.error} />;
  return <Verifying code={loaderData.code} phone={loaderData.phone} formRef={formRef} />;
}

function InvalidLink() {
  return (
    <AuthShell title="Verification Failed">
      <Alert tone="error">{PHONE_MESSAGES.invalidLink}</Alert>
      <LinkButton to="/dashboard" variant="secondary" className="mt-6 w-full">
        Back to App
      </LinkButton>
    </AuthShell>
  );
}

function SignInFirst() {
  return (
    <AuthShell title="Verification Failed">
      <Alert tone="error">{PHONE_MESSAGES.notAuthenticated}</Alert>
      <p className="mt-4 text-sm text-slate-600">Sign in to the account this number belongs to, then open the link from your text message again.</p>
      <div className="mt-6 grid gap-3 sm:grid-cols-2">
        <LinkButton to="/auth?mode=signin">Sign In</LinkButton>
        <Link to="/dashboard" className={backToApp}>
          Back to App
        </Link>
      </div>
    </AuthShell>
  );
}

function Verified({ phone }: { phone: string }) {
  return (
    <AuthShell title="Phone Verified!" subtitle={`${phone} is now verified on your account.`}>
      <Alert tone="success">{PHONE_MESSAGES.verified}</Alert>
      <p className="mt-4 text-sm font-medium text-slate-700">Next steps:</p>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-600">
        <li>Your profile now shows your number as verified.</li>
        <li>You can change the number any time in your profile; a new number needs a new code.</li>
        <li>Head back to the dashboard to download the app and track your usage.</li>
      </ul>
      <LinkButton to="/dashboard" className="mt-6 w-full">
        Go to Dashboard
      </LinkButton>
      <AfterVerified phone={phone} />
    </AuthShell>
  );
}

function VerificationFailed({ error }: { error: string }) {
  return (
    <AuthShell title="Verification Failed">
      <Alert tone="error">{error}</Alert>
      <p className="mt-4 text-sm font-medium text-slate-700">This can happen when:</p>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-600">
        <li>The verification link has expired</li>
        <li>The verification code is invalid</li>
        <li>The phone number does not match your account</li>
        <li>A network or server error occurred</li>
      </ul>
      <div className="mt-6 grid gap-3 sm:grid-cols-2">
        <ReloadLink>Try Again</ReloadLink>
        <Link to="/dashboard" className={backToApp}>
          Back to App
        </Link>
      </div>
    </AuthShell>
  );
}

/** The code posted back at once (the page submits the form), or with Verify without JavaScript. */
function Verifying({ code, phone, formRef }: { code: string; phone: string; formRef: RefObject<HTMLFormElement | null> }) {
  return (
    <AuthShell title="Verifying Phone Number">
      <div className="flex flex-col items-center gap-4">
        <Spinner className="h-8 w-8 text-brand-600" label="Verifying phone number" />
        <Form method="post" ref={formRef}>
          <input type="hidden" name="code" value={code} />
          <input type="hidden" name="phone" value={phone} />
          <noscript>
            <Button type="submit">Verify</Button>
          </noscript>
        </Form>
      </div>
    </AuthShell>
  );
}
