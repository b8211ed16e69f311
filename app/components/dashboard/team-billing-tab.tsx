// A team's billing page: its plan (status, seats bought and used, the next invoice), and for the
// owner the checkout form (seats, the trial once per team), the seat change form (prorated by
// Stripe) and the portal button. Admins see the plan only. Plain forms.
import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form, useNavigation } from "react-router";
import type { z } from "zod";
import type { teamSeatsSchema } from "~/lib/billing/team-billing-form";
import { TEAMS } from "~/lib/constants";
import type { TeamBillingView } from "~/lib/billing/team-billing-view.server";
import type { TeamRole } from "~/lib/teams/roles";
import { TeamNav } from "../teams/team-nav";
import { useFormat } from "../format";
import { CHECKED_ON_THE_SERVER, Field } from "../forms";
import { Alert, Button, Card, SubmitButton } from "../ui";

type Props = { view: TeamBillingView; role: TeamRole; checkoutDone: boolean; changed: string | null; result?: SubmissionResult<string[]> };

export function TeamBillingTab({ view, role, checkoutDone, changed, result }: Props) {
  const live = view.plan?.live ?? false;
  const f = useFormat();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{`${view.name}: Billing`}</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          {`The Team plan: ${f.usd(view.seatPriceUsd)} a seat a month. Every member, the owner included, takes a seat, and every member of a paid team gets the desktop app and its downloads.`}
        </p>
      </div>
      <TeamNav slug={view.slug} role={role} />
      {checkoutDone ? <Alert tone="success">Payment received: the plan starts as soon as Stripe confirms it, usually within seconds.</Alert> : null}
      {changed ? <Alert tone="success">{`The team now has ${changed} seats. Stripe prorates the change on the next invoice.`}</Alert> : null}
      <PlanCard view={view} />
      {view.manage && !view.configured ? <Alert tone="error">Team billing is not configured. Please contact support.</Alert> : null}
      {view.manage && view.configured ? <SeatsForm view={view} live={live} result={result} /> : null}
      {view.manage && view.plan ? <PortalForm /> : null}
    </div>
  );
}

function PlanCard({ view }: { view: TeamBillingView }) {
  const f = useFormat();
  const plan = view.plan;
  return (
    <section aria-labelledby="team-plan-title">
      <Card className="p-6">
        <h2 id="team-plan-title" className="text-lg font-semibold text-slate-900">
          Plan
        </h2>
        <dl className="mt-4 grid gap-4 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-slate-600">Status</dt>
            <dd className="font-medium text-slate-900">{plan ? plan.status : "No paid plan"}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Seats</dt>
            <dd className="font-medium text-slate-900">{`${view.members} of ${view.seats} used`}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Per month</dt>
            <dd className="font-medium text-slate-900">{plan ? f.usd(plan.monthlyUsd) : "-"}</dd>
          </div>
          {plan?.trialEnd ? (
            <div>
              <dt className="text-slate-600">Trial ends</dt>
              <dd className="font-medium text-slate-900">{f.date(plan.trialEnd)}</dd>
            </div>
          ) : null}
          {plan?.live && plan.periodEnd ? (
            <div>
              <dt className="text-slate-600">{plan.cancelAtPeriodEnd ? "Ends" : "Renews"}</dt>
              <dd className="font-medium text-slate-900">{f.date(plan.periodEnd)}</dd>
            </div>
          ) : null}
          {view.upcomingUsd !== null ? (
            <div>
              <dt className="text-slate-600">Next invoice</dt>
              <dd className="font-medium text-slate-900">{f.usd(view.upcomingUsd)}</dd>
            </div>
          ) : null}
        </dl>
      </Card>
    </section>
  );
}

function SeatsForm({ view, live, result }: { view: TeamBillingView; live: boolean; result?: SubmissionResult<string[]> }) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") !== "portal";
  const [form, fields] = useForm<z.input<typeof teamSeatsSchema>, z.output<typeof teamSeatsSchema>>({
    id: "team-seats",
    lastResult: result,
    defaultValue: { seats: String(live ? (view.plan?.quantity ?? view.seats) : Math.max(view.members, TEAMS.minSeats)) },
    ...CHECKED_ON_THE_SERVER,
  });
  const title = live ? "Change seats" : "Start the Team plan";
  const hint = live
    ? `At least ${view.members} (the team's members). Stripe charges or credits the difference for the rest of the period.`
    : `At least ${view.members} (the team's members), at most ${TEAMS.maxSeats}.${view.trialAvailable ? ` The first ${view.trialDays} days are free.` : ""}`;
  return (
    <section aria-labelledby="team-seats-title">
      <Card className="p-6">
        <h2 id="team-seats-title" className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        <Form method="post" {...getFormProps(form)} className="mt-4 max-w-md space-y-4">
          <input type="hidden" name="intent" value={live ? "seats" : "checkout"} />
          {form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
          <Field
            labelProps={{ children: "Seats" }}
            inputProps={{ ...getInputProps(fields.seats, { type: "number" }), min: view.members, max: TEAMS.maxSeats, step: 1, inputMode: "numeric" }}
            errors={fields.seats.errors}
            hint={hint}
          />
          <SubmitButton
            pending={pending}
            idle={live ? "Update Seats" : view.trialAvailable ? "Start Free Trial" : "Continue to Checkout"}
            busy={live ? "Updating Seats..." : "Opening Checkout..."}
          />
        </Form>
      </Card>
    </section>
  );
}

function PortalForm() {
  return (
    <section aria-labelledby="team-portal-title">
      <Card className="p-6">
        <h2 id="team-portal-title" className="text-lg font-semibold text-slate-900">
          Invoices and card
        </h2>
        <p className="mt-1 text-sm text-slate-600">{"The team's invoices, its card and cancelling the plan are in Stripe's customer portal."}</p>
        <Form method="post" className="mt-4">
          <input type="hidden" name="intent" value="portal" />
          <Button type="submit" variant="secondary">
            Manage with Stripe
          </Button>
        </Form>
      </Card>
    </section>
  );
}
