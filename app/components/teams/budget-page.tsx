// The team budget page (issue 50, ADR 0039): the budget form (monthly, daily, alert thresholds,
// the alert e-mail switch, hard caps), the members' caps and the form that sets one. The team's
// periods are UTC days and months, and the page says so. Plain forms: no JavaScript needed.
import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form, useNavigation } from "react-router";
import type { MemberCap, TeamBudget } from "~/lib/teams/budget.server";
import type { TeamRole } from "~/lib/teams/roles";
import { useFormat } from "../format";
import { CHECKED_ON_THE_SERVER, Field } from "../forms";
import { Alert, Card, SubmitButton } from "../ui";
import { TeamNav } from "./team-nav";
import { IntentButton } from "../intent-button";

type Props = {
  team: { name: string; slug: string };
  role: TeamRole;
  budget: TeamBudget | null;
  caps: MemberCap[];
  notice: string | null;
  form: string | null;
  result?: SubmissionResult<string[]>;
};

export function TeamBudgetPage({ team, role, budget, caps, notice, form, result }: Props) {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight break-words text-slate-900 sm:text-3xl">{`${team.name}: Budget`}</h1>
        <p className="mt-1 text-sm text-slate-600">
          The team's spend across its members' team device keys. Days and months are counted in UTC, whatever each member's time zone.
        </p>
      </div>
      <TeamNav slug={team.slug} role={role} />
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      <BudgetForm budget={budget} result={form === "budget" ? result : undefined} />
      <MemberCaps caps={caps} error={form === "remove" ? (result?.error?.[""]?.[0] ?? null) : null} />
      <MemberCapForm result={form === "cap" ? result : undefined} />
    </div>
  );
}

function Checkbox({ name, label, checked }: { name: string; label: string; checked: boolean }) {
  return (
    <label className="flex items-center gap-2 text-sm text-slate-900">
      <input type="checkbox" name={name} defaultChecked={checked} className="h-4 w-4 rounded border-slate-300" />
      {label}
    </label>
  );
}

function BudgetForm({ budget, result }: { budget: TeamBudget | null; result?: SubmissionResult<string[]> }) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "budget";
  const [form, fields] = useForm({
    id: "team-budget",
    lastResult: result,
    defaultValue: {
      monthlyBudget: budget ? String(budget.monthlyBudget) : "",
      dailyBudget: budget ? String(budget.dailyBudget) : "",
      alertThreshold: budget ? budget.alertThresholds.join(", ") : "50, 80, 100",
    },
    ...CHECKED_ON_THE_SERVER,
  });
  return (
    <section aria-labelledby="team-budget-title">
      <Card className="p-6">
        <h2 id="team-budget-title" className="text-lg font-semibold text-slate-900">
          Team budget
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          {budget ? "Alerts go to the team's owner and admins, once per threshold per UTC month or day." : "The team has no budget yet."}
        </p>
        <Form method="post" {...getFormProps(form)} className="mt-4 max-w-md space-y-4">
          <input type="hidden" name="intent" value="budget" />
          {form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
          <Field
            labelProps={{ children: "Monthly budget (USD)" }}
            inputProps={{ ...getInputProps(fields.monthlyBudget, { type: "text" }), inputMode: "decimal" }}
            errors={fields.monthlyBudget.errors}
          />
          <Field
            labelProps={{ children: "Daily budget (USD)" }}
            inputProps={{ ...getInputProps(fields.dailyBudget, { type: "text" }), inputMode: "decimal" }}
            errors={fields.dailyBudget.errors}
          />
          <Field
            labelProps={{ children: "Alert thresholds (% of each budget)" }}
            inputProps={{ ...getInputProps(fields.alertThreshold, { type: "text" }) }}
            errors={fields.alertThreshold.errors}
          />
          <Checkbox name="notificationsEnabled" label="E-mail the owner and admins at each threshold" checked={budget?.notificationsEnabled ?? true} />
          <Checkbox name="monthlyHardCap" label="Hard cap: refuse members' calls at the monthly budget" checked={budget?.monthlyHardCap ?? false} />
          <Checkbox name="dailyHardCap" label="Hard cap: refuse members' calls at the daily budget" checked={budget?.dailyHardCap ?? false} />
          <SubmitButton pending={pending} idle="Save Budget" busy="Saving Budget..." />
        </Form>
      </Card>
    </section>
  );
}

function MemberCaps({ caps, error }: { caps: MemberCap[]; error: string | null }) {
  const f = useFormat();
  return (
    <section aria-labelledby="member-caps-title">
      <Card className="p-6">
        <h2 id="member-caps-title" className="text-lg font-semibold text-slate-900">
          Members' caps
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          A member's calls under the team are refused once their spend in the team this UTC month reaches their cap.
        </p>
        {error ? <Alert tone="error">{error}</Alert> : null}
        {caps.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No member has a cap of their own.</p>
        ) : (
          <ul className="mt-4 divide-y divide-slate-100" aria-label="Members' caps">
            {caps.map((cap) => (
              <li key={cap.userId} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
                <p className="min-w-0 break-words text-slate-900">{`${cap.email} · ${f.usd(cap.limitUsd)} a month`}</p>
                <IntentButton intent="remove-cap" fields={{ userId: cap.userId }} label={`Remove the cap of ${cap.email}`}>
                  Remove
                </IntentButton>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </section>
  );
}

// The member is named by their address: a list of every member would grow with the team (1,000
// options were 255 KB of the page, bench/results.md "Teams").
function MemberCapForm({ result }: { result?: SubmissionResult<string[]> }) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "cap";
  const [form, fields] = useForm<{ email: string; limitUsd: string }>({ id: "member-cap", lastResult: result, ...CHECKED_ON_THE_SERVER });
  return (
    <section aria-labelledby="member-cap-title">
      <Card className="p-6">
        <h2 id="member-cap-title" className="text-lg font-semibold text-slate-900">
          Set a member's cap
        </h2>
        <Form method="post" {...getFormProps(form)} className="mt-4 max-w-md space-y-4">
          <input type="hidden" name="intent" value="cap" />
          {form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
          <Field
            labelProps={{ children: "Member's e-mail address" }}
            inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "off" }}
            errors={fields.email.errors}
          />
          <Field
            labelProps={{ children: "Monthly cap (USD)" }}
            inputProps={{ ...getInputProps(fields.limitUsd, { type: "text" }), inputMode: "decimal" }}
            errors={fields.limitUsd.errors}
          />
          <SubmitButton pending={pending} idle="Save Cap" busy="Saving Cap..." />
        </Form>
      </Card>
    </section>
  );
}
