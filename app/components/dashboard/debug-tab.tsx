import { getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from "@conform-to/react";
import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import type { AdminResult } from "~/lib/billing/admin.server";
import { ADMIN_STATUSES } from "~/lib/billing/statuses";
import type { ReleaseView } from "~/lib/downloads/releases.server";
import { formatDate } from "~/lib/format";
import { Field, SelectField } from "../forms";
import { Alert, Button, Card } from "../ui";
import { PublishBuild } from "./publish-build";

const MESSAGE_MS = 5000; // spec: debug messages auto-dismiss after 5 s

/** A tool's answer; a refused form also carries conform's result, for the errors beside the fields. */
type AdminAnswer = AdminResult & { result?: SubmissionResult<string[]> };

// Admin-only subscription tools. Every change is audited on the server.
// `submitted` is the answer of a plain form post (no JavaScript); with it, a fetcher's answer.
export function DebugTab({ adminEmail, submitted, releases }: { adminEmail: string; submitted?: AdminAnswer; releases: ReleaseView[] }) {
  const fetcher = useFetcher<AdminAnswer>();
  const [visible, setVisible] = useState(Boolean(submitted));
  const result = fetcher.data ?? submitted;
  useEffect(() => {
    if (!result) return;
    setVisible(true);
    const timer = setTimeout(() => setVisible(false), MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [result]);
  const busy = fetcher.state !== "idle";
  // The server checks (routes/dashboard/admin.tsx) and its refusals show beside the fields, with or
  // without JavaScript. The browser's own checks (noValidate off) still stop a mistyped address first.
  const [form, fields] = useForm({ id: "debug", lastResult: result?.result, defaultValue: { email: adminEmail, status: "active" } });

  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Subscription tools</h1>
      <p className="mt-1 text-sm text-slate-600">Administrators only. Every change is written to the audit log with your account.</p>
      <Card className="mt-8 p-6">
        <fetcher.Form method="post" action="/dashboard/admin" {...getFormProps(form)} noValidate={false} className="space-y-4">
          <Field
            labelProps={{ children: "Account e-mail" }}
            inputProps={{ ...getInputProps(fields.email, { type: "email" }), required: true }}
            errors={fields.email.errors}
          />
          <div className="flex flex-wrap items-end gap-3">
            <Button type="submit" name="intent" value="lookup" variant="secondary" disabled={busy}>
              Look up
            </Button>
            <Button type="submit" name="intent" value="sync" variant="secondary" disabled={busy}>
              Sync from Stripe
            </Button>
            <Button type="submit" name="intent" value="grant-year" disabled={busy}>
              Grant one year (emergency fix)
            </Button>
            <div className="flex items-end gap-2">
              <SelectField labelProps={{ children: "Set status" }} selectProps={getSelectProps(fields.status)} errors={fields.status.errors}>
                {ADMIN_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </SelectField>
              <Button type="submit" name="intent" value="set-status" variant="secondary" disabled={busy}>
                Apply
              </Button>
            </div>
          </div>
          <SignOutEverywhere busy={busy} />
        </fetcher.Form>
        {result && visible ? (
          <Alert tone={result.ok ? "success" : "error"} className="mt-5">
            {result.message}
          </Alert>
        ) : null}
      </Card>

      {result?.subscription ? <SubscriptionCard subscription={result.subscription} /> : null}
      {result?.audit?.length ? <AuditCard audit={result.audit} /> : null}
      <PublishBuild releases={releases} />
    </>
  );
}

function SignOutEverywhere({ busy }: { busy: boolean }) {
  return (
    <div className="border-t border-slate-100 pt-4">
      <p className="text-sm text-slate-600" id="sign-out-everywhere-hint">
        For an account reported as compromised: ends every session and desktop app key, approved device codes, a pending e-mail change and unused e-mail links.
      </p>
      <Button
        type="submit"
        name="intent"
        value="sign-out-everywhere"
        variant="secondary"
        className="mt-3"
        disabled={busy}
        aria-describedby="sign-out-everywhere-hint"
      >
        Sign out everywhere
      </Button>
    </div>
  );
}

function SubscriptionCard({ subscription }: { subscription: NonNullable<AdminResult["subscription"]> }) {
  return (
    <Card className="mt-6 p-6">
      <h2 className="text-lg font-semibold text-slate-900">Subscription</h2>
      <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        {(
          [
            ["Status", subscription.status],
            ["Stripe subscription", subscription.stripeSubscriptionId ?? "—"],
            ["Stripe customer", subscription.stripeCustomerId ?? "—"],
            ["Period end", subscription.currentPeriodEnd ? formatDate(subscription.currentPeriodEnd) : "—"],
            ["Trial end", subscription.trialEnd ? formatDate(subscription.trialEnd) : "—"],
            ["Cancel at", subscription.cancelAt ? formatDate(subscription.cancelAt) : "—"],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="flex justify-between gap-4 border-b border-slate-100 py-1.5">
            <dt className="text-slate-500">{label}</dt>
            <dd className="font-medium text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

function AuditCard({ audit }: { audit: NonNullable<AdminResult["audit"]> }) {
  return (
    <Card className="mt-6 p-6">
      <h2 className="text-lg font-semibold text-slate-900">Audit log</h2>
      <ul className="mt-3 divide-y divide-slate-100 text-sm">
        {audit.map((a) => (
          <li key={`${a.createdAt}-${a.action}`} className="flex justify-between gap-4 py-2">
            <span className="font-mono text-slate-800">{a.action}</span>
            <span className="text-slate-500">
              {a.actor} · {new Date(a.createdAt).toISOString().replace("T", " ").slice(0, 16)} UTC
            </span>
          </li>
        ))}
      </ul>
    </Card>
  );
}
