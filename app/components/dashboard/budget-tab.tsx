import { Money } from "~/components/money";
import { useEffect } from "react";
import { Form, Link, useNavigate, useNavigation } from "react-router";
import { BUDGET, BUDGET_DEFAULTS } from "~/lib/constants";
import { budgetBand, budgetRemainder, usedPercent, type BudgetView } from "~/lib/usage/budget";
import { Alert, Button, buttonClass, Card, FieldError, inputClass, Label } from "../ui";
import { ProgressBar } from "./stat";

export function BudgetTab({ view }: { view: BudgetView }) {
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
      {view.formError ? (
        <Alert tone="error" className="mt-4">
          {view.formError}
        </Alert>
      ) : null}

      <div className="mt-6 grid gap-6 md:grid-cols-2">
        <BudgetCard title="Monthly budget" spent={view.spent.month} budget={view.settings.monthlyBudget} testId="monthly-budget" />
        <BudgetCard title="Daily budget" spent={view.spent.today} budget={view.settings.dailyBudget} testId="daily-budget" />
      </div>

      {view.editing ? <EditForm view={view} /> : null}

      <Card className="mt-6 p-6">
        <h2 className="text-base font-semibold text-slate-900">Tips</h2>
        <ul className="mt-3 list-disc space-y-1.5 pl-5 text-sm text-slate-600">
          <li>
            Alerts are sent at {view.settings.alertThreshold}% of a budget, once per month and once per day
            {view.settings.notificationsEnabled ? "" : " (currently off)"}.
          </li>
          <li>Spend comes from the costs the desktop app reports for each model call, in USD.</li>
          <li>Model Analytics shows which models give you the most for your money.</li>
        </ul>
      </Card>
    </>
  );
}

function BudgetCard({ title, spent, budget, testId }: { title: string; spent: number; budget: number; testId: string }) {
  const percent = usedPercent(spent, budget);
  return (
    <Card className="p-6" data-testid={testId}>
      <div className="flex items-center justify-between">
        <h2 className="text-sm font-medium text-slate-500">{title}</h2>
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
        {budgetRemainder(budget, spent)}
      </p>
    </Card>
  );
}

function EditForm({ view }: { view: BudgetView }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const values = view.prefillDefaults
    ? {
        monthlyBudget: BUDGET_DEFAULTS.monthlyBudgetUsd,
        dailyBudget: BUDGET_DEFAULTS.dailyBudgetUsd,
        alertThreshold: BUDGET_DEFAULTS.alertThresholdPercent,
        notificationsEnabled: BUDGET_DEFAULTS.notificationsEnabled,
      }
    : view.settings;
  const e = view.errors ?? {};
  return (
    <Card className="mt-6 p-6">
      <h2 className="text-base font-semibold text-slate-900">Edit budget</h2>
      <Form method="post" action="/dashboard/budget" className="mt-4 grid gap-5 sm:grid-cols-2" key={view.prefillDefaults ? "defaults" : "saved"}>
        <input type="hidden" name="intent" value="save-budget" />
        <div>
          <Label htmlFor="monthlyBudget">Monthly Budget (USD)</Label>
          <input
            id="monthlyBudget"
            name="monthlyBudget"
            type="number"
            step="0.01"
            min="0"
            defaultValue={values.monthlyBudget}
            className={inputClass}
            aria-invalid={e.monthlyBudget ? true : undefined}
            aria-describedby="monthlyBudget-error"
          />
          <FieldError id="monthlyBudget-error" errors={e.monthlyBudget} />
        </div>
        <div>
          <Label htmlFor="dailyBudget">Daily Budget (USD)</Label>
          <input
            id="dailyBudget"
            name="dailyBudget"
            type="number"
            step="0.01"
            min="0"
            defaultValue={values.dailyBudget}
            className={inputClass}
            aria-invalid={e.dailyBudget ? true : undefined}
            aria-describedby="dailyBudget-error"
          />
          <FieldError id="dailyBudget-error" errors={e.dailyBudget} />
        </div>
        <div>
          <Label htmlFor="alertThreshold">Alert Threshold (%)</Label>
          <input
            id="alertThreshold"
            name="alertThreshold"
            type="number"
            step={BUDGET.alertThresholdStep}
            min={BUDGET.alertThresholdMin}
            max={BUDGET.alertThresholdMax}
            defaultValue={values.alertThreshold}
            className={inputClass}
            aria-invalid={e.alertThreshold ? true : undefined}
            aria-describedby="alertThreshold-error"
          />
          <FieldError id="alertThreshold-error" errors={e.alertThreshold} />
        </div>
        <div className="flex items-center gap-3 sm:pt-7">
          <input
            id="notificationsEnabled"
            name="notificationsEnabled"
            type="checkbox"
            defaultChecked={values.notificationsEnabled}
            className="h-5 w-5 rounded border-slate-300 text-brand-600 focus:ring-brand-600"
          />
          <Label htmlFor="notificationsEnabled" className="mb-0">
            Budget Notifications (e-mail alerts)
          </Label>
        </div>
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
