import { Form, useLocation, useNavigation, Link } from "react-router";
import { PLAN_PRICE } from "~/lib/billing/plan-comparison";
import { FREE_TIER, PLAN } from "~/lib/constants";
import type { BillingData, BillingView } from "~/lib/billing/billing-tab.server";
import { UrlModal, withParam, withParams } from "../modal";
import { Alert, Button, buttonClass, Card, cx } from "../ui";
import { InvoicesView } from "./billing-invoices";
import { useFormat } from "~/components/format";

const VIEW_LABELS: Record<BillingView, string> = { overview: "Overview", "payment-methods": "Payment Methods", invoices: "Invoices" };

export function BillingTab({ billing }: { billing: BillingData }) {
  const { pathname, search } = useLocation();
  const params = new URLSearchParams(search);
  const viewHref = (view: BillingView) => `/dashboard/billing${view === "overview" ? "" : `?view=${view}`}`;
  const { subscription } = billing;
  const portalConfirm = withParam(pathname, search, "confirm", "portal");
  const close = (key: string) => withParam(pathname, search, key, null);
  const hasCustomer = Boolean(billing.snapshot.customerId);

  return (
    <>
      <BillingHeader paid={subscription.paid} hasCustomer={hasCustomer} portalConfirm={portalConfirm} />
      <SummaryCards subscription={subscription} />

      <nav aria-label="Billing sections" className="mt-8 flex gap-1 border-b border-slate-200">
        {(Object.keys(VIEW_LABELS) as BillingView[]).map((view) => (
          <Link
            key={view}
            to={viewHref(view)}
            aria-current={billing.view === view ? "page" : undefined}
            className={cx(
              "-mb-px border-b-2 px-4 py-2.5 text-sm font-medium",
              billing.view === view ? "border-brand-600 text-brand-700" : "border-transparent text-slate-600 hover:text-slate-900",
            )}
          >
            {VIEW_LABELS[view]}
          </Link>
        ))}
      </nav>

      <div className="mt-6">
        {billing.view === "overview" ? <OverviewView billing={billing} /> : null}
        {billing.view === "payment-methods" ? <PaymentMethodsView billing={billing} portalConfirm={portalConfirm} /> : null}
        {billing.view === "invoices" ? <InvoicesView billing={billing} portalConfirm={portalConfirm} /> : null}
      </div>

      {params.get("confirm") === "portal" && hasCustomer ? <PortalDialog closeTo={close("confirm")} /> : null}
      {params.get("plans") === "open" ? (
        <PlanPicker closeTo={close("plans")} billing={billing} portalConfirm={withParams(pathname, search, { plans: null, confirm: "portal" })} />
      ) : null}
    </>
  );
}

function BillingHeader({ paid, hasCustomer, portalConfirm }: { paid: boolean; hasCustomer: boolean; portalConfirm: string }) {
  const { pathname, search } = useLocation();
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Billing</h1>
        <p className="mt-1 text-sm text-slate-600">Your plan, payment methods and invoices.</p>
      </div>
      <div className="flex flex-col items-end gap-2">
        <div className="flex gap-3">
          {/* The portal needs a Stripe customer (made at the first checkout): no dead end before that. */}
          {hasCustomer ? (
            <Link to={portalConfirm} preventScrollReset className={buttonClass("secondary")}>
              Manage with Stripe
            </Link>
          ) : (
            <button type="button" disabled aria-describedby="portal-unavailable" className={buttonClass("secondary")}>
              Manage with Stripe
            </button>
          )}
          {/* Premium is the only paid plan: nothing to upgrade to once on it. */}
          {paid ? null : (
            <Link to={withParam(pathname, search, "plans", "open")} preventScrollReset className={buttonClass("primary")}>
              Upgrade Plan
            </Link>
          )}
        </div>
        {hasCustomer ? null : (
          <p id="portal-unavailable" className="text-xs text-slate-500">
            Stripe's customer portal opens once you have subscribed.
          </p>
        )}
      </div>
    </div>
  );
}

function SummaryCards({ subscription }: { subscription: BillingData["subscription"] }) {
  const f = useFormat();
  return (
    <div className="mt-8 grid gap-4 sm:grid-cols-3">
      <Card className="p-5">
        <p className="text-sm font-medium text-slate-500">Current Plan</p>
        <p className="mt-2 text-lg font-semibold text-slate-900">{subscription.plan.name}</p>
        <p className="text-sm text-slate-600">
          {subscription.plan.price} · {subscription.paid ? subscription.status : "Free"}
        </p>
      </Card>
      <Card className="p-5">
        <p className="text-sm font-medium text-slate-500">Next Billing</p>
        <p className="mt-2 text-lg font-semibold text-slate-900" data-testid="next-billing">
          {subscription.nextBilling.date ? f.date(subscription.nextBilling.date) : subscription.nextBilling.label}
        </p>
        {subscription.nextBilling.date ? <p className="text-sm text-slate-600">{subscription.nextBilling.label}</p> : null}
      </Card>
      <Card className="p-5">
        <p className="text-sm font-medium text-slate-500">Payment Method</p>
        <p className="mt-2 text-lg font-semibold text-slate-900" data-testid="payment-method">
          {subscription.card.text}
        </p>
        {subscription.card.detail ? <p className="text-sm text-slate-600">{subscription.card.detail}</p> : null}
      </Card>
    </div>
  );
}

function capitalise(s: string) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function OverviewView({ billing }: { billing: BillingData }) {
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-slate-900">{billing.subscription.active ? "Your subscription" : "You are on the free plan"}</h2>
      <p className="mt-2 max-w-2xl text-sm text-slate-600">
        {billing.subscription.active
          ? `Modelify ${PLAN.name} at ${PLAN_PRICE} per month. Change your card, download receipts or cancel (effective at the end of the period) in the Stripe customer portal.`
          : `Upgrade to ${PLAN.name} for ${PLAN_PRICE} per month to download the desktop app and unlock model analytics. ${billing.trialAvailable ? `It starts with a ${PLAN.trialDays}-day free trial.` : "Your free trial has been used, so billing starts the day you subscribe."}`}
      </p>
      {!billing.subscription.active ? (
        <Link to="/pricing?checkout=open" className={buttonClass("primary", "md", "mt-5")}>
          View Pricing
        </Link>
      ) : null}
    </Card>
  );
}

function PaymentMethodsView({ billing, portalConfirm }: { billing: BillingData; portalConfirm: string }) {
  if (!billing.snapshot.customerId) {
    return (
      <Card className="p-6">
        <h2 className="text-lg font-semibold text-slate-900">Setup Required</h2>
        <p className="mt-2 text-sm text-slate-600">Complete your first purchase to activate payment management</p>
        <Link to="/pricing?checkout=open" className={buttonClass("secondary", "md", "mt-5")}>
          View Pricing
        </Link>
      </Card>
    );
  }
  return (
    <Card className="p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-slate-900">Payment methods</h2>
        <Link to={portalConfirm} preventScrollReset className={buttonClass("secondary", "sm")}>
          Manage Payment Methods
        </Link>
      </div>
      {billing.snapshot.error ? (
        <Alert tone="error" className="mt-4">
          {billing.snapshot.error}
        </Alert>
      ) : null}
      {billing.snapshot.paymentMethods.length === 0 && !billing.snapshot.error ? (
        <p className="mt-4 text-sm text-slate-600">No payment method on file.</p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-100">
          {billing.snapshot.paymentMethods.map((pm) => (
            <li key={pm.id} className="flex items-center justify-between py-3 text-sm">
              <span className="font-medium text-slate-900">
                {capitalise(pm.brand)} •••• {pm.last4}
                <span className="ml-3 font-normal text-slate-500">
                  Expires {String(pm.expMonth).padStart(2, "0")}/{pm.expYear} · {pm.funding}
                </span>
              </span>
              {pm.isDefault ? <span className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-semibold text-brand-700">Default</span> : null}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function PortalDialog({ closeTo }: { closeTo: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formAction === "/billing/portal";
  return (
    <UrlModal closeTo={closeTo} labelledBy="portal-title">
      <h2 id="portal-title" className="text-lg font-semibold text-slate-900">
        Manage with Stripe
      </h2>
      <p className="mt-2 text-sm text-slate-600">
        You will leave Modelify for Stripe's secure customer portal, where you can update your card, download receipts or cancel your subscription. You'll come
        back to this page when you are done.
      </p>
      <div className="mt-6 flex justify-end gap-3">
        <Link to={closeTo} replace preventScrollReset className={buttonClass("secondary")}>
          Cancel
        </Link>
        <Form method="post" action="/billing/portal">
          <Button type="submit" disabled={busy} data-autofocus>
            {busy ? "Opening..." : "Continue to Stripe"}
          </Button>
        </Form>
      </div>
    </UrlModal>
  );
}

function PlanPicker({ closeTo, billing, portalConfirm }: { closeTo: string; billing: BillingData; portalConfirm: string }) {
  const f = useFormat();
  const plans = [
    {
      id: "free-tier",
      name: "Free",
      price: "$0",
      description: "Try the dashboard and follow your usage.",
      features: [
        `${f.integer(FREE_TIER.requestsPerMonth)} requests / month`,
        `${f.integer(FREE_TIER.tokensPerMonth)} tokens / month`,
        `${FREE_TIER.perMinute}/min, ${FREE_TIER.perHour}/hour, ${FREE_TIER.perDay}/day`,
        "Basic support",
      ],
    },
    {
      id: "premium-plan",
      name: PLAN.name,
      price: PLAN_PRICE,
      description: billing.trialAvailable
        ? `Everything, with a ${PLAN.trialDays}-day free trial.`
        : "Everything. Your free trial has been used, so billing starts the day you subscribe.",
      features: ["Unlimited requests and tokens", "Desktop app downloads", "Advanced model analytics", "Premium support"],
    },
  ];
  return (
    <UrlModal closeTo={closeTo} labelledBy="plans-title" wide>
      <h2 id="plans-title" className="text-lg font-semibold text-slate-900">
        Choose a plan
      </h2>
      <div className="mt-5 grid gap-4 sm:grid-cols-2">
        {plans.map((plan) => {
          const current = plan.id === billing.subscription.plan.id;
          return (
            <div key={plan.id} className={cx("rounded-xl border p-5", current ? "border-brand-600 ring-1 ring-brand-600" : "border-slate-200")}>
              <div className="flex items-center justify-between">
                <h3 className="font-semibold text-slate-900">{plan.name}</h3>
                {current ? <span className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-semibold text-brand-700">Current</span> : null}
              </div>
              <p className="mt-2 text-2xl font-bold text-slate-900">
                {plan.price}
                <span className="text-sm font-medium text-slate-500"> / month</span>
              </p>
              <p className="mt-1 text-sm text-slate-600">{plan.description}</p>
              <ul className="mt-3 space-y-1 text-sm text-slate-700">
                {plan.features.map((f) => (
                  <li key={f}>• {f}</li>
                ))}
              </ul>
              <div className="mt-4">
                {current ? (
                  <Button variant="secondary" className="w-full" disabled>
                    Current plan
                  </Button>
                ) : plan.id === "premium-plan" ? (
                  billing.paymentConfigured ? (
                    <Link to="/pricing?checkout=open" className={buttonClass("primary", "md", "w-full")}>
                      Upgrade to {PLAN.name}
                    </Link>
                  ) : (
                    <Button className="w-full" disabled>
                      Payment System Not Configured
                    </Button>
                  )
                ) : (
                  <Link to={portalConfirm} replace preventScrollReset className={buttonClass("secondary", "md", "w-full")}>
                    Cancel in Stripe
                  </Link>
                )}
              </div>
            </div>
          );
        })}
      </div>
    </UrlModal>
  );
}
