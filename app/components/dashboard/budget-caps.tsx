// The budget tab's caps of single models and device keys (ADR 0032): each cap with its month's
// spend, a form to add one (or change its limit) and a button to remove each. Plain forms: they
// work without JavaScript, and the server checks every choice.
import { getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form } from "react-router";
import { budgetBand, type BudgetView, usedPercent } from "~/lib/usage/budget";
import { useFormat } from "../format";
import { CHECKED_ON_THE_SERVER, Field, SelectField } from "../forms";
import { Alert, Button, Card } from "../ui";
import { ProgressBar } from "./stat";
import { IntentButton } from "../intent-button";

export function BudgetCaps({ caps, result }: { caps: BudgetView["caps"]; result?: SubmissionResult<string[]> }) {
  const f = useFormat();
  const single = caps.lines.filter((l) => l.kind === "model" || l.kind === "device");
  const formError = result?.error?.[""]?.[0];
  return (
    <Card className="mt-6 p-6" data-testid="budget-caps">
      <h2 className="text-base font-semibold text-slate-900">Caps per model and device</h2>
      <p className="mt-1 text-sm text-slate-600">
        A hard cap a month for one model or one device: at the cap, the desktop app&apos;s requests to that model or from that device are refused until the 1st.
      </p>
      {formError ? (
        <Alert tone="error" className="mt-4">
          {formError}
        </Alert>
      ) : null}
      {single.length > 0 ? (
        <ul className="mt-4 divide-y divide-slate-100">
          {single.map((l) => (
            <li key={l.id} className="flex items-start justify-between gap-3 py-3 text-sm" data-testid="cap-row">
              <div className="min-w-0 flex-1">
                <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <span className="font-medium break-words text-slate-900">{l.label}</span>
                  <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">{l.kind === "model" ? "Model" : "Device"}</span>
                  {l.reached ? <span className="rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-700">Reached</span> : null}
                </p>
                <p className="mt-1 text-slate-600">
                  {f.usd(l.spentUsd)} of {f.usd(l.limitUsd)} this month
                </p>
                <div className="max-w-sm">
                  <ProgressBar
                    percent={usedPercent(l.spentUsd, l.limitUsd)}
                    tone={budgetBand(usedPercent(l.spentUsd, l.limitUsd))}
                    label={`Cap of ${l.label} used`}
                  />
                </div>
              </div>
              <IntentButton
                intent="remove-cap"
                fields={{ capId: l.id ?? "" }}
                label={`Remove the cap for ${l.label}`}
                action="/dashboard/budget"
                className="shrink-0"
              >
                Remove
              </IntentButton>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-4 text-sm text-slate-500">No caps of single models or devices.</p>
      )}
      {caps.full ? null : <AddCap caps={caps} result={result} />}
    </Card>
  );
}

function AddCap({ caps, result }: { caps: BudgetView["caps"]; result?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm<{ target: string; limitUsd: string }>({ id: "add-cap", lastResult: result, ...CHECKED_ON_THE_SERVER });
  if (caps.models.length === 0 && caps.devices.length === 0) {
    return <p className="mt-4 text-sm text-slate-500">Once the desktop app has reported a model call, its models and devices can be capped here.</p>;
  }
  return (
    <Form method="post" action="/dashboard/budget" {...getFormProps(form)} className="mt-4 grid gap-4 sm:grid-cols-3 sm:items-start">
      <input type="hidden" name="intent" value="save-cap" />
      <SelectField labelProps={{ children: "Model or device" }} selectProps={getSelectProps(fields.target)} errors={fields.target.errors}>
        <option value="">Choose…</option>
        {caps.models.length > 0 ? (
          <optgroup label="Models">
            {caps.models.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </optgroup>
        ) : null}
        {caps.devices.length > 0 ? (
          <optgroup label="Devices">
            {caps.devices.map((d) => (
              <option key={d.value} value={d.value}>
                {d.label}
              </option>
            ))}
          </optgroup>
        ) : null}
      </SelectField>
      <Field
        labelProps={{ children: "Cap a month (USD)" }}
        inputProps={{ ...getInputProps(fields.limitUsd, { type: "number" }), step: "0.01", min: "0.01" }}
        errors={fields.limitUsd.errors}
      />
      <div className="sm:pt-7">
        <Button type="submit">Save cap</Button>
      </div>
    </Form>
  );
}
