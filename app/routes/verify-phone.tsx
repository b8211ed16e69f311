import { useEffect, useRef } from "react";
import { data, Form, Link, useNavigate } from "react-router";
import { z } from "~/lib/zod";
import type { Route } from "./+types/verify-phone";
import { AuthShell } from "~/components/auth-shell";
import { Alert, Button, LinkButton, ReloadLink, Spinner } from "~/components/ui";

import { normalisePhone } from "~/lib/auth/validation";
import { REDIRECT_DELAY_MS } from "~/lib/constants";
import { verifyPhoneCode } from "~/lib/phone.server";
import { getAuth } from "~/server/auth";
import { app } from "~/server/context";
import { readForm } from "~/server/http";

export const meta = () => [{ title: "Verify Phone | Modelify" }];

const paramsSchema = z.object({
  code: z.string().regex(/^\d{6}$/),
  phone: z
    .string()
    .trim()
    .min(10)
    .max(32)
    .regex(/^\+?[0-9 ().-]+$/),
});

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const code = url.searchParams.get("code");
  const phone = url.searchParams.get("phone");
  if (!code || !phone) return { state: "invalid" as const };
  return { state: "verifying" as const, code: code.slice(0, 12), phone: phone.slice(0, 32) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = getAuth(context);
  if (!user) return data({ ok: false as const, error: "User not authenticated" }, { status: 401 });
  const read = await readForm(request);
  const parsed = read.ok ? paramsSchema.safeParse(Object.fromEntries(read.formData)) : null;
  if (!parsed?.success) return data({ ok: false as const, error: "Invalid verification code" }, { status: 400 });
  const phone = normalisePhone(parsed.data.phone);
  const { kv, db } = app(context);
  const ok = await verifyPhoneCode(kv, db, user.id, phone, parsed.data.code);
  if (!ok) return data({ ok: false as const, error: "Invalid verification code" }, { status: 400 });
  return { ok: true as const, phone };
}

export default function VerifyPhone({ loaderData, actionData }: Route.ComponentProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const navigate = useNavigate();
  const verifying = loaderData.state === "verifying" && !actionData;

  useEffect(() => {
    if (verifying) formRef.current?.requestSubmit();
  }, [verifying]);

  useEffect(() => {
    if (!actionData?.ok) return;
    const timer = setTimeout(() => {
      if (window.opener) {
        window.opener.postMessage({ type: "PHONE_VERIFIED", phone: actionData.phone }, window.location.origin);
        window.close();
      } else {
        navigate("/dashboard", { replace: true });
      }
    }, REDIRECT_DELAY_MS.phone);
    return () => clearTimeout(timer);
  }, [actionData, navigate]);

  if (loaderData.state === "invalid") {
    return (
      <AuthShell title="Verification Failed">
        <Alert tone="error">Invalid verification link. Missing verification code or phone number.</Alert>
        <LinkButton to="/dashboard" variant="secondary" className="mt-6 w-full">
          Back to App
        </LinkButton>
      </AuthShell>
    );
  }

  if (actionData?.ok) {
    return (
      <AuthShell title="Phone Verified!" subtitle={`${actionData.phone} is now verified on your account.`}>
        <Alert tone="success">Phone number verified successfully!</Alert>
        <ul className="mt-4 list-disc space-y-1 pl-5 text-sm text-slate-600">
          <li>Your account can now receive security codes by SMS.</li>
          <li>You can change the number any time in your profile.</li>
        </ul>
        <LinkButton to="/dashboard" className="mt-6 w-full">
          Go to Dashboard
        </LinkButton>
      </AuthShell>
    );
  }

  if (actionData && !actionData.ok) {
    return (
      <AuthShell title="Verification Failed">
        <Alert tone="error">{actionData.error}</Alert>
        <p className="mt-4 text-sm font-medium text-slate-700">This can happen when:</p>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-600">
          <li>The verification link has expired</li>
          <li>The verification code is invalid</li>
          <li>The phone number does not match your account</li>
          <li>A network or server error occurred</li>
        </ul>
        <div className="mt-6 grid gap-3 sm:grid-cols-2">
          <ReloadLink>Try Again</ReloadLink>
          <Link
            to="/dashboard"
            className="inline-flex items-center justify-center rounded-lg border border-slate-300 px-4 py-2.5 text-sm font-semibold text-slate-800 hover:bg-slate-50"
          >
            Back to App
          </Link>
        </div>
      </AuthShell>
    );
  }

  return (
    <AuthShell title="Verifying Phone Number">
      <div className="flex flex-col items-center gap-4">
        <Spinner className="h-8 w-8 text-brand-600" label="Verifying phone number" />
        <Form method="post" ref={formRef}>
          <input type="hidden" name="code" value={loaderData.code} />
          <input type="hidden" name="phone" value={loaderData.phone} />
          <noscript>
            <Button type="submit">Verify</Button>
          </noscript>
        </Form>
      </div>
    </AuthShell>
  );
}
