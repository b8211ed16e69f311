import { type FieldMetadata, getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Money } from "~/components/money";
import { useEffect } from "react";
import { Form, useNavigate, useNavigation, Link } from "react-router";
import type { z } from "zod";
import { BUDGET, BUDGET_DEFAULTS } from "~/lib/constants";
import { budgetBand, budgetRemainder, NO_HARD_CAPS, usedPercent, type BudgetView } from "~/lib/usage/budget";
import type { budgetFormSchema } from "~/lib/usage/budget-form";
import { useFormat } from "../format";
import { CHECKED_ON_THE_SERVER, Field } from "../forms";
import { Alert, Button, buttonClass, Card, Label } from "../ui";
import { BudgetCaps } from "./budget-caps";
import { CapNotice } from "./cap-notice";
import { DefaultBadge, ProgressBar } from "./stat";

export function BudgetTab({ view, result, capResult }: { view: BudgetView; result?: SubmissionResult<string[]>; capResult?: SubmissionResult<string[]> }) {
  const formError = result?.error?.[""]?.[0];
  const navigate = useNavigate();
  // Spec: the success message shows for 3 s.
  useEffect(() => {
    if (!view.saved) return;
    const timer = setTimeout(() => navigate("/dashboard/budget", { replace: true, preventScrollReset: true }), BUDGET.messageMs);
    return () => clearTimeout(timer);
  }, [view.saved, navigate]);

  return (
    <>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Budget Management</h1>
          <p className="mt-1 text-sm text-slate-600">Set what you want to spend on model providers; we e-mail you before you go over.</p>
        </div>
        {view.editing ? null : (
          <Link to="/dashboard/budget?edit=1" className={buttonClass("primary")}>
            Edit Budget
          </Link>
        )}
      </div>
      {view.saved ? (
        <Alert tone="success" className="mt-4">
          Budget settings saved successfully!
        </Alert>
      ) : null}
      {formError ? (
        <Alert tone="error" className="mt-4">
          {formError}
        </Alert>
      ) : null}

      <CapNotice lines={view.caps.lines} />
      {view.settings.isDefault ? (
        <p className="mt-4 rounded-lg border border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-700" data-testid="budget-defaults">
          You have not set a budget yet. These are the defaults: budget alerts use them until you save your own.
        </p>
      ) : null}

      <div className="mt-6 grid gap-6 md:grid-cols-2">
        <BudgetCard
          title="Monthly budget"
          spent={view.spent.month}
          budget={view.settings.monthlyBudget}
          isDefault={view.settings.isDefault}
          resetsAt={view.resets.month}
          hardCap={view.settings.monthlyHardCap}
          testId="monthly-budget"
        />
        <BudgetCard
          title="Daily budget"
          spent={view.spent.today}
          budget={view.settings.dailyBudget}
          isDefault={view.settings.isDefault}
          resetsAt={view.resets.today}
          hardCap={view.settings.dailyHardCap}
          testId="daily-budget"
        />
      </div>

      {/* Keyed by the values it starts from: "Reset to defaults" starts the form again. */}
      {view.editing ? <EditForm key={view.prefillDefaults ? "defaults" : "saved"} view={view} result={result} /> : null}
      <BudgetCaps caps={view.caps} result={capResult} />

      <BudgetTips settings={view.settings} />
    </>
  );
}

function BudgetTips({ settings }: { settings: BudgetView["settings"] }) {
  return (
    <Card className="mt-6 p-6">
      <h2 className="text-base font-semibold text-slate-900">Tips</h2>
      <ul className="mt-3 list-disc space-y-1.5 pl-5 text-sm text-slate-600">
        <li>
          Alerts are sent at {settings.alertThresholds.map((t) => `${t}%`).join(", ")} of a budget, each once per month and once per day
          {settings.notificationsEnabled ? "" : " (e-mail currently off)"}. Model health alerts and webhooks are under{" "}
          <Link to="/dashboard/alerts" className="font-medium text-brand-700 underline">
            Alerts
          </Link>
          .
        </li>
        <li>Spend comes from the costs the desktop app reports for each model call, in USD.</li>
        <li>Model Analytics shows which models give you the most for your money.</li>
      </ul>
    </Card>
  );
}

type BudgetCardProps = { title: string; spent: number; budget: number; isDefault: boolean; resetsAt: number; hardCap: boolean; testId: string };

function BudgetCard({ title, spent, budget, isDefault, resetsAt, hardCap, testId }: BudgetCardProps) {
  const f = useFormat();
  const percent = usedPercent(spent, budget);
  return (
    <Card className="p-6" data-testid={testId}>
      <div className="flex items-center justify-between gap-3">
        <h2 className="flex items-center gap-2 text-sm font-medium text-slate-500">
          {title}
          {isDefault ? <DefaultBadge /> : null}
        </h2>
        <span className="text-sm font-semibold text-slate-900">{budget > 0 ? `${Math.round(percent)}% used` : "No budget"}</span>
      </div>
      <p className="mt-2 text-2xl font-semibold text-slate-900">
        <Money value={spent} />{" "}
        <span className="text-base font-normal text-slate-500">
          of <Money value={budget} />
        </span>
      </p>
      <ProgressBar percent={percent} tone={budgetBand(percent)} label={`${title} used`} />
      <p className="mt-2 text-sm text-slate-600" data-testid={`${testId}-remainder`}>
        {budgetRemainder(budget, spent, f)}
      </p>
      {/* The account's midnight or 1st, in its zone (ADR 0030). */}
      <p className="mt-1 text-xs text-slate-500" data-testid={`${testId}-resets`}>
        Starts again from zero <time dateTime={new Date(resetsAt).toISOString()}>{f.dateTime(resetsAt)}</time>
      </p>
      {hardCap && budget > 0 ? (
        <p className="mt-1 text-xs font-medium text-slate-700" data-testid={`${testId}-hard-cap`}>
          Hard cap: the desktop app&apos;s requests are refused at this budget.
        </p>
      ) : null}
    </Card>
  );
}

function EditForm({ view, result }: { view: BudgetView; result?: SubmissionResult<string[]> }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const values = view.prefillDefaults
    ? {
        monthlyBudget: BUDGET_DEFAULTS.monthlyBudgetUsd,
        dailyBudget: BUDGET_DEFAULTS.dailyBudgetUsd,
        alertThresholds: [BUDGET_DEFAULTS.alertThresholdPercent],
        notificationsEnabled: BUDGET_DEFAULTS.notificationsEnabled,
        ...NO_HARD_CAPS,
      }
    : view.settings;
  const [form, fields] = useForm<z.input<typeof budgetFormSchema>, z.output<typeof budgetFormSchema>>({
    id: "budget",
    lastResult: result,
    defaultValue: {
      monthlyBudget: String(values.monthlyBudget),
      dailyBudget: String(values.dailyBudget),
      alertThreshold: values.alertThresholds.join(", "),
      notificationsEnabled: values.notificationsEnabled ? "on" : "",
      monthlyHardCap: values.monthlyHardCap ? "on" : "",
      dailyHardCap: values.dailyHardCap ? "on" : "",
    },
    ...CHECKED_ON_THE_SERVER,
  });
  // Spec: amounts step 0.01 from 0.
  const money = { step: "0.01", min: "0" };
  return (
    <Card className="mt-6 p-6">
      <h2 className="text-base font-semibold text-slate-900">Edit budget</h2>
      <Form method="post" action="/dashboard/budget" {...getFormProps(form)} className="mt-4 grid gap-5 sm:grid-cols-2">
        <input type="hidden" name="intent" value="save-budget" />
        <Field
          labelProps={{ children: "Monthly Budget (USD)" }}
          inputProps={{ ...getInputProps(fields.monthlyBudget, { type: "number" }), ...money }}
          errors={fields.monthlyBudget.errors}
          hint="0 for no monthly budget."
        />
        <Field
          labelProps={{ children: "Daily Budget (USD)" }}
          inputProps={{ ...getInputProps(fields.dailyBudget, { type: "number" }), ...money }}
          errors={fields.dailyBudget.errors}
          hint="At most the monthly budget; 0 for no daily budget."
        />
        <Field
          labelProps={{ children: "Alert Thresholds (%)" }}
          inputProps={{ ...getInputProps(fields.alertThreshold, { type: "text" }), inputMode: "numeric", autoComplete: "off" }}
          errors={fields.alertThreshold.errors}
          hint={`Up to ${BUDGET.maxAlertThresholds}, separated by commas, such as 50, 80, 100.`}
        />
        <div className="flex items-center gap-3 sm:pt-7">
          <input
            {...getInputProps(fields.notificationsEnabled, { type: "checkbox" })}
            className="h-5 w-5 rounded border-slate-300 text-brand-600 focus:ring-brand-600"
          />
          <Label htmlFor={fields.notificationsEnabled.id} className="mb-0">
            Budget Notifications (e-mail alerts)
          </Label>
        </div>
        <HardCapBox field={fields.monthlyHardCap} label="Monthly hard cap: refuse the desktop app's requests at the monthly budget" />
        <HardCapBox field={fields.dailyHardCap} label="Daily hard cap: refuse the desktop app's requests at the daily budget" />
        <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
          <Button type="submit" disabled={busy}>
            {busy ? "Saving..." : "Save Changes"}
          </Button>
          <Link to="/dashboard/budget" className={buttonClass("secondary")}>
            Cancel
          </Link>
          <Link to="/dashboard/budget?edit=1&defaults=1" preventScrollReset className={buttonClass("ghost")}>
            Reset to defaults
          </Link>
        </div>
      </Form>
    </Card>
  );
}

/** A hard-cap switch of the budget form (ADR 0032). */
function HardCapBox({ field, label }: { field: FieldMetadata<unknown, Record<string, unknown>, string[]>; label: string }) {
  return (
    <div className="flex items-center gap-3 sm:col-span-2">
      <input {...getInputProps(field, { type: "checkbox" })} className="h-5 w-5 rounded border-slate-300 text-brand-600 focus:ring-brand-600" />
      <Label htmlFor={field.id} className="mb-0">
        {label}
      </Label>
    </div>
  );
}
