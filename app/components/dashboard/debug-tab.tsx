import { getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from "@conform-to/react";
import { type ReactNode, useEffect, useState } from "react";
import { useFetcher } from "react-router";
import type { AdminResult, StripeView } from "~/lib/billing/admin.server";
import { ADMIN_STATUSES } from "~/lib/billing/statuses";
import { ADMIN_DEBUG } from "~/lib/constants";
import type { ReleaseView } from "~/lib/downloads/releases.server";
import type { SubscriptionRow } from "~/lib/subscriptions.server";
import { Field, SelectField } from "../forms";
import { ZonedTime } from "../format";
import { Alert, Button, Card } from "../ui";
import { PublishBuild } from "./publish-build";

/** A tool's answer; a refused form also carries conform's result, for the errors beside the fields. */
type AdminAnswer = AdminResult & { result?: SubmissionResult<string[]> };

// Admin-only subscription tools. Every change is audited on the server.
// `submitted` is the answer of a plain form post (no JavaScript); with it, a fetcher's answer.
export function DebugTab({ submitted, releases }: { submitted?: AdminAnswer; releases: ReleaseView[] }) {
  const fetcher = useFetcher<AdminAnswer>();
  const [visible, setVisible] = useState(Boolean(submitted));
  const result = fetcher.data ?? submitted;
  useEffect(() => {
    if (!result) return;
    setVisible(true);
    const timer = setTimeout(() => setVisible(false), ADMIN_DEBUG.messageMs);
    return () => clearTimeout(timer);
  }, [result]);
  const busy = fetcher.state !== "idle";
  // The server checks (routes/dashboard/admin.tsx) and its refusals show beside the fields, with or
  // without JavaScript. The browser's own checks (noValidate off) still stop a mistyped address first.
  // Never the admin's own address: a tool must be pointed at an account on purpose. After an
  // answer (a page of its own without JavaScript), the account it was about.
  const [form, fields] = useForm({ id: "debug", lastResult: result?.result, defaultValue: { email: submitted?.account?.email ?? "", status: "active" } });

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
          <Alert tone={!result.ok ? "error" : result.confirm ? "info" : "success"} className="mt-5">
            {result.message}
          </Alert>
        ) : null}
      </Card>

      {result?.confirm ? <ConfirmGrant confirm={result.confirm} stripe={result.stripe} busy={busy} Form={fetcher.Form} /> : null}
      {result?.account && result.stripe ? <SideBySide local={result.subscription ?? null} stripe={result.stripe} /> : null}
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

// In the admin's zone, UTC on hover.
const date = (ms: number | null | undefined) => (ms ? <ZonedTime ms={ms} date /> : "—");

/**
 * The grant's second step: which account, what changes and what does not, and the button whose
 * POST (confirm=yes) grants. Cancel looks the account up again, which changes nothing.
 */
function ConfirmGrant({
  confirm,
  stripe,
  busy,
  Form,
}: {
  confirm: NonNullable<AdminResult["confirm"]>;
  stripe: StripeView | undefined;
  busy: boolean;
  Form: ReturnType<typeof useFetcher>["Form"];
}) {
  const stripeSub = stripe?.kind === "customer" ? stripe.subscription : null;
  return (
    <Card className="mt-6 border-amber-300 p-6" role="group" aria-labelledby="confirm-grant-title" data-testid="confirm-grant">
      <h2 id="confirm-grant-title" className="text-lg font-semibold wrap-anywhere text-slate-900">
        Grant one year to {confirm.email}?
      </h2>
      <ul className="mt-3 list-disc space-y-1.5 pl-5 text-sm text-slate-700">
        <li>
          This site will treat the account as an active subscriber until <ZonedTime ms={confirm.until} date />, at no charge. The grant is written to the audit
          log with your account.
        </li>
        <li>
          {stripeSub
            ? `Stripe is not changed: its subscription stays ${stripeSub.status} and bills on its own dates, and Stripe's next event about it replaces this grant here.`
            : stripe?.kind === "customer"
              ? "Stripe is not changed: the account's Stripe customer has no subscription."
              : stripe?.kind === "unavailable"
                ? "Stripe is not changed (it could not be read just now)."
                : "Stripe is not changed: the account has no Stripe customer."}
        </li>
      </ul>
      <div className="mt-5 flex flex-wrap gap-3">
        <Form method="post" action="/dashboard/admin">
          <input type="hidden" name="email" value={confirm.email} />
          <input type="hidden" name="confirm" value="yes" />
          <Button type="submit" name="intent" value={confirm.intent} disabled={busy}>
            Yes, grant one year
          </Button>
        </Form>
        <Form method="post" action="/dashboard/admin">
          <input type="hidden" name="email" value={confirm.email} />
          <Button type="submit" name="intent" value="lookup" variant="secondary" disabled={busy}>
            Cancel
          </Button>
        </Form>
      </div>
    </Card>
  );
}

type Row = { status: string; periodEnd: ReactNode; trialEnd: ReactNode; cancelAt: ReactNode; id: string };

function localRow(sub: SubscriptionRow | null): Row | null {
  if (!sub) return null;
  const complimentary = (sub.metadata as Record<string, unknown> | null)?.complimentary === true;
  return {
    status: complimentary ? `${sub.status} (granted)` : sub.status,
    periodEnd: date(sub.currentPeriodEnd),
    trialEnd: date(sub.trialEnd),
    cancelAt: date(sub.cancelAt),
    id: sub.stripeSubscriptionId ?? "—",
  };
}

/** The local row and Stripe's subscription, column by column, so a difference shows. */
function SideBySide({ local, stripe }: { local: SubscriptionRow | null; stripe: StripeView }) {
  const here = localRow(local);
  const there = stripe.kind === "customer" ? stripe.subscription : null;
  const stripeRow: Row | null = there
    ? { status: there.status, periodEnd: date(there.currentPeriodEnd), trialEnd: date(there.trialEnd), cancelAt: date(there.cancelAt), id: there.id }
    : null;
  const stripeNone =
    stripe.kind === "no-customer"
      ? "No Stripe customer"
      : stripe.kind === "unavailable"
        ? "Stripe could not be read just now"
        : `No subscription for customer ${stripe.customerId}`;
  const labels: Array<[keyof Row, string]> = [
    ["status", "Status"],
    ["periodEnd", "Period end"],
    ["trialEnd", "Trial end"],
    ["cancelAt", "Cancel at"],
    ["id", "Stripe subscription"],
  ];
  const differ = here && stripeRow && local?.status !== (stripeRow.status === "trialing" ? "trial" : stripeRow.status);
  return (
    <Card className="mt-6 p-6" data-testid="subscription-states">
      <h2 className="text-lg font-semibold text-slate-900">Subscription: this site and Stripe</h2>
      {differ ? (
        <p className="mt-2 text-sm text-amber-800">
          The two disagree. This site grants access from its own state; Stripe's next event about this subscription replaces it.
        </p>
      ) : null}
      {/* Fixed columns that wrap, so both sides stay in view on a phone (no sideways scroll between them). */}
      <div className="mt-4">
        <table className="w-full table-fixed text-left text-sm">
          <colgroup>
            <col className="w-[26%]" />
            <col className="w-[37%]" />
            <col className="w-[37%]" />
          </colgroup>
          <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="py-2 pr-4 font-medium">
                <span className="sr-only">Field</span>
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                This site
              </th>
              <th scope="col" className="py-2 font-medium">
                Stripe
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {labels.map(([key, label], i) => (
              <tr key={key}>
                <th scope="row" className="py-2 pr-3 align-top font-normal text-slate-500">
                  {label}
                </th>
                <td className="py-2 pr-4 align-top font-medium wrap-anywhere text-slate-900" data-testid={`local-${key}`}>
                  {here ? here[key] : i === 0 ? "No subscription" : "—"}
                </td>
                <td className="py-2 align-top font-medium wrap-anywhere text-slate-900" data-testid={`stripe-${key}`}>
                  {stripeRow ? stripeRow[key] : i === 0 ? stripeNone : "—"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {stripe.kind === "customer" ? <p className="mt-3 text-xs text-slate-500">Stripe customer {stripe.customerId}</p> : null}
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
