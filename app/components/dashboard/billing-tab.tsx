import { Money } from "~/components/money";
import { Form, Link, useLocation, useNavigation } from "react-router";
import { FREE_TIER, PLAN } from "~/lib/constants";
import { formatDate } from "~/lib/format";
import type { BillingData, BillingView } from "~/lib/billing/billing-tab.server";
import { UrlModal, withParam, withParams } from "../modal";
import { Alert, Button, buttonClass, Card, cx, Spinner } from "../ui";

const VIEW_LABELS: Record<BillingView, string> = { overview: "Overview", "payment-methods": "Payment Methods", invoices: "Invoices" };

// Spec: void and uncollectible use failure styling; unknown statuses are neutral.
const STATUS_STYLES: Record<string, string> = {
  paid: "bg-emerald-50 text-emerald-700",
  open: "bg-amber-50 text-amber-800",
  draft: "bg-slate-100 text-slate-700",
  void: "bg-red-50 text-red-700",
  uncollectible: "bg-red-50 text-red-700",
};

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
            {subscription.paid ? null : (
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
            {subscription.nextBilling.date ? formatDate(subscription.nextBilling.date) : subscription.nextBilling.label}
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

function capitalise(s: string) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function OverviewView({ billing }: { billing: BillingData }) {
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-slate-900">{billing.subscription.active ? "Your subscription" : "You are on the free plan"}</h2>
      <p className="mt-2 max-w-2xl text-sm text-slate-600">
        {billing.subscription.active
          ? `Modelify ${PLAN.name} at $${PLAN.priceUsd} per month. Change your card, download receipts or cancel (effective at the end of the period) in the Stripe customer portal.`
          : `Upgrade to ${PLAN.name} for $${PLAN.priceUsd} per month to download the desktop app and unlock model analytics. ${billing.trialAvailable ? `It starts with a ${PLAN.trialDays}-day free trial.` : "Your free trial has been used, so billing starts the day you subscribe."}`}
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

function InvoicesView({ billing, portalConfirm }: { billing: BillingData; portalConfirm: string }) {
  const invoices = billing.snapshot.invoices;
  const navigation = useNavigation();
  const refreshing = navigation.state === "loading" && navigation.location?.search.includes("view=invoices");
  return (
    <Card className="p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-slate-900">Invoices</h2>
        <div className="flex gap-2">
          <Link to="/dashboard/billing?view=invoices" preventScrollReset className={buttonClass("ghost", "sm")}>
            {refreshing ? <Spinner className="h-4 w-4" label="Refreshing" /> : null} Refresh
          </Link>
          {billing.snapshot.customerId ? (
            <Link to={portalConfirm} preventScrollReset className={buttonClass("secondary", "sm")}>
              Manage in Stripe
            </Link>
          ) : null}
        </div>
      </div>
      {invoices === null ? (
        <Alert tone="error" className="mt-4">
          {billing.snapshot.error ?? "Failed to load invoices"}
        </Alert>
      ) : invoices.length === 0 ? (
        <div className="mt-6 rounded-xl border border-dashed border-slate-300 p-8 text-center">
          <h3 className="font-semibold text-slate-900">No Invoices Yet</h3>
          <p className="mt-2 text-sm text-slate-600">Stripe Billing History: your receipts will appear here after your first payment.</p>
          <Link to="/pricing" className={buttonClass("secondary", "sm", "mt-4")}>
            View Pricing
          </Link>
        </div>
      ) : (
        <div className="mt-4 overflow-x-auto">
          <table className="w-full min-w-[36rem] text-left text-sm">
            <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th className="py-2 pr-4 font-medium">Invoice</th>
                <th className="py-2 pr-4 font-medium">Date</th>
                <th className="py-2 pr-4 font-medium">Amount</th>
                <th className="py-2 pr-4 font-medium">Status</th>
                <th className="py-2 font-medium">Actions</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {invoices.map((inv) => (
                <tr key={inv.id}>
                  <td className="py-3 pr-4 font-medium text-slate-900">{inv.number}</td>
                  <td className="py-3 pr-4 text-slate-600">{formatDate(inv.date)}</td>
                  <td className="py-3 pr-4 text-slate-900">
                    {inv.currency === "USD" ? <Money value={inv.amount} /> : `${inv.amount.toFixed(2)} ${inv.currency}`}
                  </td>
                  <td className="py-3 pr-4">
                    <span
                      className={cx("rounded-full px-2.5 py-0.5 text-xs font-semibold capitalize", STATUS_STYLES[inv.status] ?? "bg-slate-100 text-slate-700")}
                    >
                      {inv.status}
                    </span>
                  </td>
                  <td className="py-3">
                    {inv.pdfUrl || inv.hostedUrl ? (
                      <span className="flex gap-3">
                        {inv.pdfUrl ? (
                          <a className="font-medium text-brand-700 hover:text-brand-800" href={inv.pdfUrl} target="_blank" rel="noreferrer">
                            PDF
                          </a>
                        ) : null}
                        {inv.hostedUrl ? (
                          <a className="font-medium text-brand-700 hover:text-brand-800" href={inv.hostedUrl} target="_blank" rel="noreferrer">
                            View
                          </a>
                        ) : null}
                      </span>
                    ) : (
                      <span className="text-xs text-slate-500">Invoice download not available for this invoice.</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
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
  const plans = [
    {
      id: "free-tier",
      name: "Free",
      price: "$0",
      description: "Try the dashboard and follow your usage.",
      features: [
        `${FREE_TIER.requestsPerMonth.toLocaleString("en-US")} requests / month`,
        `${FREE_TIER.tokensPerMonth.toLocaleString("en-US")} tokens / month`,
        `${FREE_TIER.perMinute}/min, ${FREE_TIER.perHour}/hour, ${FREE_TIER.perDay}/day`,
        "Basic support",
      ],
    },
    {
      id: "premium-plan",
      name: PLAN.name,
      price: `$${PLAN.priceUsd}`,
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
