import { getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form, Link, useNavigation } from "react-router";
import type { WebhookView } from "~/lib/alerts/store.server";
import { HEALTH_ALERTS, WEBHOOKS } from "~/lib/constants";
import type { HealthRule } from "~/lib/usage/ledger/types";
import { useFormat } from "../format";
import { CHECKED_ON_THE_SERVER, Field, SelectField } from "../forms";
import { Alert, Button, Card } from "../ui";

type View = { rules: Array<HealthRule & { createdAt: number }>; webhooks: WebhookView[]; thresholds: number[]; emailAlerts: boolean };
type Answer = { form: "rule" | "webhook" | "page"; result: SubmissionResult<string[]>; created?: { id: string; url: string; secret: string } } | undefined;

const RULE_LABEL = { error_rate: "Error rate above", latency: "Average latency above" } as const;
const unit = (rule: Pick<HealthRule, "kind" | "threshold">) => (rule.kind === "error_rate" ? `${rule.threshold}%` : `${rule.threshold} ms`);

export function AlertsTab({ view, answer }: { view: View; answer: Answer }) {
  const pageError = answer && answer.form === "page" ? answer.result.error?.[""]?.[0] : undefined;
  return (
    <>
      <h1 className="text-2xl font-semibold text-slate-900">Alerts</h1>
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
    <Form method="post" action="/dashboard/alerts">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <Button type="submit" variant="secondary" size="sm" aria-label={label}>
        Remove
      </Button>
    </Form>
  );
}

function RulesCard({ rules, result }: { rules: View["rules"]; result?: SubmissionResult<string[]> }) {
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
                {RULE_LABEL[rule.kind]} {unit(rule)}
              </span>
              <RemoveButton intent="remove-rule" id={rule.id} label={`Remove the rule: ${RULE_LABEL[rule.kind]} ${unit(rule)}`} />
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
      <Form method="post" action="/dashboard/alerts" {...getFormProps(form)} className="mt-4 grid gap-4 sm:grid-cols-3 sm:items-end">
        <input type="hidden" name="intent" value="add-rule" />
        <SelectField labelProps={{ children: "Watch" }} selectProps={getSelectProps(fields.kind)} errors={fields.kind.errors}>
          <option value="error_rate">Error rate (%)</option>
          <option value="latency">Average latency (ms)</option>
        </SelectField>
        <Field
          labelProps={{ children: "Alert above" }}
          inputProps={{ ...getInputProps(fields.threshold, { type: "text" }), inputMode: "numeric", autoComplete: "off" }}
          errors={fields.threshold.errors}
        />
        <Button type="submit" disabled={busy}>
          Add rule
        </Button>
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
          <span data-testid="webhook-secret">
            Webhook added. Its signing secret, shown only this once: <code className="break-all font-mono">{answer.created.secret}</code>
          </span>
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
      <Form method="post" action="/dashboard/alerts" {...getFormProps(form)} className="mt-4 grid gap-4 sm:grid-cols-[1fr_auto] sm:items-end">
        <input type="hidden" name="intent" value="add-webhook" />
        <Field
          labelProps={{ children: "Webhook URL" }}
          inputProps={{ ...getInputProps(fields.url, { type: "url" }), placeholder: "https://hooks.example.com/modelify", autoComplete: "off" }}
          errors={fields.url.errors}
        />
        <Button type="submit" disabled={busy}>
          Add webhook
        </Button>
      </Form>
    </Card>
  );
}

function WebhookItem({ hook }: { hook: WebhookView }) {
  const f = useFormat();
  return (
    <section className="mt-4 rounded-lg border border-slate-200 p-4" data-testid="webhook">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="break-all font-mono text-sm text-slate-900">{hook.url}</p>
        <RemoveButton intent="remove-webhook" id={hook.id} label={`Remove the webhook to ${hook.url}`} />
      </div>
      <p className="mt-1 text-xs text-slate-500">Added {f.dateTime(hook.createdAt)}</p>
      {hook.deliveries.length ? (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="webhook-deliveries">
            <caption className="sr-only">Last deliveries to {hook.url}</caption>
            <thead className="text-xs text-slate-500">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Time
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Alert
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Attempt
                </th>
                <th scope="col" className="py-1 font-medium">
                  Result
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 text-slate-700">
              {hook.deliveries.map((d) => (
                <tr key={d.id}>
                  <td className="py-1 pr-3 whitespace-nowrap">
                    <time dateTime={new Date(d.deliveredAt).toISOString()}>{f.dateTime(d.deliveredAt)}</time>
                  </td>
                  <td className="py-1 pr-3">{d.eventType}</td>
                  <td className="py-1 pr-3">{d.attempt}</td>
                  <td className={d.ok ? "py-1 text-green-700" : "py-1 text-red-700"}>
                    {d.ok ? `Delivered (${d.statusCode})` : `Failed: ${d.error ?? (d.statusCode === null ? "no answer" : `HTTP ${d.statusCode}`)}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="mt-3 text-sm text-slate-500">No deliveries yet.</p>
      )}
    </section>
  );
}
