import { getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form, Link, useNavigation } from "react-router";
import type { WebhookView } from "~/lib/alerts/store.server";
import { HEALTH_ALERTS, WEBHOOKS } from "~/lib/constants";
import type { HealthRule } from "~/lib/usage/ledger/types";
import type { Formats } from "~/lib/format";
import { useFormat } from "../format";
import { CHECKED_ON_THE_SERVER, Field, SelectField } from "../forms";
import { Alert, Button, Card } from "../ui";
import { IntentButton } from "../intent-button";

type View = { rules: Array<HealthRule & { createdAt: number }>; webhooks: WebhookView[]; thresholds: number[]; emailAlerts: boolean };
type Answer = { form: "rule" | "webhook" | "page"; result: SubmissionResult<string[]>; created?: { id: string; url: string; secret: string } } | undefined;

const RULE_LABEL = { error_rate: "Error rate above", latency: "Average latency above" } as const;
const unit = (rule: Pick<HealthRule, "kind" | "threshold">, f: Formats) =>
  rule.kind === "error_rate" ? `${f.integer(rule.threshold)}%` : `${f.integer(rule.threshold)} ms`;
// The events' types (docs/webhooks.md) in words; the type itself is what a webhook's code reads.
const EVENT_LABEL: Record<string, string> = {
  "budget.threshold_crossed": "Budget threshold",
  "model.error_rate": "Model error rate",
  "model.latency": "Model latency",
};

export function AlertsTab({ view, answer }: { view: View; answer: Answer }) {
  const pageError = answer && answer.form === "page" ? answer.result.error?.[""]?.[0] : undefined;
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Alerts</h1>
      <p className="mt-1 text-sm text-slate-600">
        Budget alerts at {view.thresholds.map((t) => `${t}%`).join(", ")} (set on{" "}
        <Link to="/dashboard/budget?edit=1" className="font-medium text-brand-700 underline">
          Budget
        </Link>
        ) and model health alerts go by e-mail{view.emailAlerts ? "" : " (currently off)"} and to every webhook below.
      </p>
      {pageError ? (
        <Alert tone="error" className="mt-4">
          {pageError}
        </Alert>
      ) : null}
      <RulesCard rules={view.rules} result={answer?.form === "rule" ? answer.result : undefined} />
      <WebhooksCard webhooks={view.webhooks} answer={answer?.form === "webhook" ? answer : undefined} />
    </>
  );
}

function RemoveButton({ intent, id, label }: { intent: string; id: string; label: string }) {
  return (
    <IntentButton intent={intent} fields={{ id }} label={label} action="/dashboard/alerts">
      Remove
    </IntentButton>
  );
}

function RulesCard({ rules, result }: { rules: View["rules"]; result?: SubmissionResult<string[]> }) {
  const f = useFormat();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm<{ kind: string; threshold: string }>({
    id: "alert-rule",
    lastResult: result,
    defaultValue: { kind: "error_rate", threshold: "" },
    ...CHECKED_ON_THE_SERVER,
  });
  return (
    <Card className="mt-6 p-6">
      <h2 className="text-base font-semibold text-slate-900">Model health</h2>
      <p className="mt-1 text-sm text-slate-600">
        Alert when one model's error rate or average latency over an hour passes a limit (once it has at least {HEALTH_ALERTS.minRequests} requests in that
        hour); at most once per model per hour.
      </p>
      {rules.length ? (
        <ul className="mt-4 divide-y divide-slate-100" data-testid="alert-rules">
          {rules.map((rule) => (
            <li key={rule.id} className="flex items-center justify-between gap-3 py-2 text-sm text-slate-800">
              <span>
                {RULE_LABEL[rule.kind]} {unit(rule, f)}
              </span>
              <RemoveButton intent="remove-rule" id={rule.id} label={`Remove the rule: ${RULE_LABEL[rule.kind]} ${unit(rule, f)}`} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-4 text-sm text-slate-500">No rules yet.</p>
      )}
      {form.errors?.[0] ? (
        <Alert tone="error" className="mt-4">
          {form.errors[0]}
        </Alert>
      ) : null}
      <Form method="post" action="/dashboard/alerts" {...getFormProps(form)} className="mt-4 grid gap-4 sm:grid-cols-3 sm:items-start">
        <input type="hidden" name="intent" value="add-rule" />
        <SelectField labelProps={{ children: "Watch" }} selectProps={getSelectProps(fields.kind)} errors={fields.kind.errors}>
          <option value="error_rate">Error rate (%)</option>
          <option value="latency">Average latency (ms)</option>
        </SelectField>
        <Field
          labelProps={{ children: "Alert above" }}
          inputProps={{ ...getInputProps(fields.threshold, { type: "text" }), inputMode: "numeric", autoComplete: "off" }}
          errors={fields.threshold.errors}
          hint="In percent for the error rate, in milliseconds for latency."
        />
        <div className="sm:pt-7">
          <Button type="submit" disabled={busy}>
            Add rule
          </Button>
        </div>
      </Form>
    </Card>
  );
}

function WebhooksCard({ webhooks, answer }: { webhooks: WebhookView[]; answer?: Answer }) {
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm<{ url: string }>({ id: "webhook", lastResult: answer?.result, defaultValue: { url: "" }, ...CHECKED_ON_THE_SERVER });
  return (
    <Card className="mt-6 p-6">
      <h2 className="text-base font-semibold text-slate-900">Webhooks</h2>
      <p className="mt-1 text-sm text-slate-600">
        Each alert is POSTed as JSON, signed in the <code>Modelify-Signature</code> header with the webhook's own secret, and retried up to{" "}
        {WEBHOOKS.maxAttempts} times. Up to {WEBHOOKS.maxPerAccount} webhooks; public HTTPS addresses only.
      </p>
      {answer?.created ? (
        <Alert tone="success" className="mt-4">
          <div data-testid="webhook-secret">
            <p>
              Webhook added: <span className="break-all">{answer.created.url}</span>. Its signing secret, shown only this once (copy it into your
              endpoint&apos;s settings now):
            </p>
            <code className="mt-2 block rounded-md border border-green-300 bg-white px-3 py-2 font-mono text-sm break-all text-slate-900">
              {answer.created.secret}
            </code>
          </div>
        </Alert>
      ) : null}
      {webhooks.map((hook) => (
        <WebhookItem key={hook.id} hook={hook} />
      ))}
      {form.errors?.[0] ? (
        <Alert tone="error" className="mt-4">
          {form.errors[0]}
        </Alert>
      ) : null}
      <Form method="post" action="/dashboard/alerts" {...getFormProps(form)} className="mt-4 grid gap-4 sm:grid-cols-[1fr_auto] sm:items-start">
        <input type="hidden" name="intent" value="add-webhook" />
        <Field
          labelProps={{ children: "Webhook URL" }}
          inputProps={{ ...getInputProps(fields.url, { type: "url" }), placeholder: "https://hooks.example.com/modelify", autoComplete: "off" }}
          errors={fields.url.errors}
        />
        <div className="sm:pt-7">
          <Button type="submit" disabled={busy}>
            Add webhook
          </Button>
        </div>
      </Form>
    </Card>
  );
}

function WebhookItem({ hook }: { hook: WebhookView }) {
  const f = useFormat();
  return (
    <section className="mt-4 rounded-lg border border-slate-200 p-4" data-testid="webhook">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-mono text-sm break-all text-slate-900">{hook.url}</p>
          <p className="mt-1 text-xs text-slate-500">Added {f.dateTime(hook.createdAt)}</p>
        </div>
        <div className="shrink-0">
          <RemoveButton intent="remove-webhook" id={hook.id} label={`Remove the webhook to ${hook.url}`} />
        </div>
      </div>
      {hook.deliveries.length ? (
        // A list rather than a table: its four short facts wrap at 390 px instead of scrolling.
        <>
          <h3 className="mt-4 text-xs font-medium tracking-wide text-slate-500 uppercase">Last deliveries</h3>
          <ul className="mt-1 divide-y divide-slate-100 text-sm" aria-label={`Last deliveries to ${hook.url}`} data-testid="webhook-deliveries">
            {hook.deliveries.map((d) => (
              <li key={d.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-0.5 py-2">
                <span className="text-slate-800">
                  <span className="font-medium">{EVENT_LABEL[d.eventType] ?? d.eventType}</span>
                  <span className="text-slate-500">
                    {" · "}
                    <time dateTime={new Date(d.deliveredAt).toISOString()}>{f.dateTime(d.deliveredAt)}</time>
                    {` · attempt ${d.attempt}`}
                  </span>
                </span>
                <span className={d.ok ? "font-medium text-green-700" : "font-medium text-red-700"}>
                  {d.ok ? `Delivered (${d.statusCode})` : `Failed: ${d.error ?? (d.statusCode === null ? "no answer" : `HTTP ${d.statusCode}`)}`}
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="mt-3 text-sm text-slate-500">No deliveries yet.</p>
      )}
    </section>
  );
}
