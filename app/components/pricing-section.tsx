import { useFetcher, useLocation, Link } from "react-router";
import type { PricingState } from "~/lib/billing/pricing.server";
import { useRef } from "react";
import { FREE_MONTHLY_LIMITS, FREE_RATE_LIMITS, LIMIT_WINDOWS_NOTE, PLAN_COMPARISON, PLAN_PRICE, type PlanCell } from "~/lib/billing/plan-comparison";
import { PLAN } from "~/lib/constants";
import { useSeenEvent } from "./site/marketing";
import { UrlModal, withParam } from "./modal";
import { Alert, Button, buttonClass, Card, CheckIcon, LinkButton, Spinner } from "./ui";

const FEATURES = [
  "No limits on requests or tokens",
  "160+ AI models from 12+ providers, cloud and local",
  "120+ specialised agents",
  "Unlimited conversations with persistent history",
  "Usage analytics, budgets and model insights",
  "Windows, macOS and Linux apps with updates",
  "Premium support",
];

/** What the plan includes. */
function IncludedFeatures() {
  return FEATURES.map((f) => (
    <li key={f} className="flex gap-3">
      <CheckIcon className="h-5 w-5 shrink-0 text-brand-600" />
      {f}
    </li>
  ));
}

/** `pageHeading`: the section is the page (/pricing), so its title is the page's <h1>, not a section's <h2>. */
export function PricingSection({ state, pageHeading = false }: { state: PricingState; pageHeading?: boolean }) {
  const [Title, PlanTitle] = pageHeading ? (["h1", "h2"] as const) : (["h2", "h3"] as const);
  const { pathname, search } = useLocation();
  const params = new URLSearchParams(search);
  const closeTo = (key: string) => withParam(pathname, search, key, null);
  const checkoutTo = withParam(pathname, search, "checkout", "open");
  const section = useRef<HTMLElement>(null);
  useSeenEvent(section, "PricingView");

  return (
    <section ref={section} id="pricing" className="scroll-mt-20 py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <Title className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Simple, honest pricing</Title>
          <p className="mt-4 text-lg text-slate-600">Start free, upgrade when you need more. You pay model providers directly with your own API keys.</p>
        </div>
        <div className="mx-auto mt-12 grid max-w-4xl items-stretch gap-6 md:grid-cols-2">
          <FreePlanCard state={state} PlanTitle={PlanTitle} />
          <Card className="flex flex-col p-8 ring-1 ring-brand-600">
            <div className="flex items-center justify-between">
              <PlanTitle className="text-lg font-semibold text-slate-900">{PLAN.name}</PlanTitle>
              {state.trialAvailable ? (
                <span className="rounded-full bg-brand-50 px-3 py-1 text-xs font-semibold text-brand-700" data-testid="pricing-trial-badge">
                  {PLAN.trialDays}-day free trial
                </span>
              ) : null}
            </div>
            <p className="mt-6 flex items-baseline gap-1">
              <span className="text-5xl font-extrabold tracking-tight text-slate-900">{PLAN_PRICE}</span>
              <span className="text-sm font-medium text-slate-500">per month</span>
            </p>
            <p className="mt-2 text-sm text-slate-600" data-testid="pricing-terms">
              {/* The card tells the signed-in account the truth: a spent trial is not offered again. */}
              {state.trialAvailable
                ? "Billed monthly after the trial. Cancel anytime, effective at the end of the period."
                : "Your free trial has been used, so billing starts the day you subscribe. Cancel anytime, effective at the end of the period."}
            </p>
            <ul data-testid="plan-features" className="mt-8 space-y-3 text-sm text-slate-700">
              <IncludedFeatures />
            </ul>
            <div className="mt-auto pt-8">
              <PricingAction state={state} checkoutTo={checkoutTo} />
            </div>
          </Card>
        </div>
        <div className="mx-auto mt-12 max-w-4xl" data-testid="plan-comparison">
          <PlanComparison Heading={pageHeading ? "h2" : "h3"} />
        </div>
        <p className="mt-6 text-center text-xs text-slate-500">
          <Link to={withParam(pathname, search, "terms", "open")} preventScrollReset className="underline hover:text-slate-700">
            Full Disclosure &amp; Terms
          </Link>
        </p>
      </div>

      {params.get("checkout") === "open" && state.signedIn && !state.subscribed ? (
        <CheckoutModal closeTo={closeTo("checkout")} retryTo={checkoutTo} state={state} />
      ) : null}
      {params.get("terms") === "open" ? <TermsModal closeTo={closeTo("terms")} /> : null}
    </section>
  );
}

/** Where every account starts: what it may do, and the way in for whoever is looking. */
function FreePlanCard({ state, PlanTitle }: { state: PricingState; PlanTitle: "h2" | "h3" }) {
  const current = state.signedIn && !state.activated;
  return (
    <Card className="flex flex-col p-8" data-testid="free-plan">
      <div className="flex items-center justify-between">
        <PlanTitle className="text-lg font-semibold text-slate-900">Free</PlanTitle>
        {current ? <span className="rounded-full bg-slate-100 px-3 py-1 text-xs font-semibold text-slate-700">Your current plan</span> : null}
      </div>
      <p className="mt-6 flex items-baseline gap-1">
        <span className="text-5xl font-extrabold tracking-tight text-slate-900">$0</span>
        <span className="text-sm font-medium text-slate-500">per month</span>
      </p>
      <p className="mt-2 text-sm text-slate-600">Every new account starts here. No card needed.</p>
      <ul className="mt-8 space-y-3 text-sm text-slate-700">
        {["Your account, usage dashboard and budget alerts", FREE_RATE_LIMITS, FREE_MONTHLY_LIMITS, "Basic support"].map((f) => (
          <li key={f} className="flex gap-3">
            <CheckIcon className="h-5 w-5 shrink-0 text-slate-400" />
            {f}
          </li>
        ))}
      </ul>
      <p className="mt-4 text-sm text-slate-500">Downloading the desktop app needs {PLAN.name} or early access.</p>
      <div className="mt-auto pt-8">
        {!state.signedIn ? (
          <LinkButton to="/auth?mode=signup" variant="secondary" className="w-full" size="lg">
            Create Free Account
          </LinkButton>
        ) : current ? (
          <LinkButton to="/dashboard/usage" variant="secondary" className="w-full" size="lg">
            See Your Usage and Limits
          </LinkButton>
        ) : null}
      </div>
    </Card>
  );
}

/** Free against Pro, row by row. */
function PlanComparison({ Heading }: { Heading: "h2" | "h3" }) {
  return (
    <>
      <Heading className="text-center text-xl font-semibold text-slate-900">Free vs {PLAN.name}</Heading>
      <Card className="mt-6 overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead className="border-b border-slate-200 bg-slate-50 text-slate-900">
            <tr>
              <th scope="col" className="px-4 py-3 font-medium text-slate-500 sm:px-6">
                <span className="sr-only">Feature</span>
              </th>
              <th scope="col" className="px-4 py-3 font-semibold sm:px-6">
                Free
              </th>
              <th scope="col" className="px-4 py-3 font-semibold sm:px-6">
                {PLAN.name}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {PLAN_COMPARISON.map((row) => (
              <tr key={row.feature}>
                <th scope="row" className="px-4 py-3 font-medium text-slate-700 sm:px-6">
                  {row.feature}
                </th>
                <td className="px-4 py-3 text-slate-900 sm:px-6">
                  <PlanCellContent cell={row.free} />
                </td>
                <td className="px-4 py-3 text-slate-900 sm:px-6">
                  <PlanCellContent cell={row.pro} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      <p className="mt-3 text-center text-xs text-slate-500">{LIMIT_WINDOWS_NOTE}</p>
    </>
  );
}

function PlanCellContent({ cell }: { cell: PlanCell }) {
  if (typeof cell === "string") return cell;
  return cell ? (
    <>
      <CheckIcon className="h-5 w-5 text-brand-600" />
      <span className="sr-only">Included</span>
    </>
  ) : (
    <>
      <span aria-hidden="true" className="text-slate-400">
        —
      </span>
      <span className="sr-only">Not included</span>
    </>
  );
}

/** The card's call to action: sign up, manage, check out, or say that payments are not set up. */
function PricingAction({ state, checkoutTo }: { state: PricingState; checkoutTo: string }) {
  if (!state.signedIn) {
    return (
      <>
        <LinkButton to="/auth?mode=signup&from=pricing&subscribe=true" className="w-full" size="lg">
          Sign Up to Start
        </LinkButton>
        <p className="mt-4 text-center text-sm text-slate-600">
          Already have an account?{" "}
          <Link to="/auth?mode=signin&from=pricing&subscribe=true" className="font-semibold text-brand-700 hover:text-brand-800">
            Sign In to Subscribe
          </Link>
        </p>
      </>
    );
  }
  if (state.subscribed) {
    return (
      <LinkButton to="/dashboard/billing" className="w-full" size="lg">
        Manage Subscription
      </LinkButton>
    );
  }
  if (state.paymentConfigured) {
    return (
      <LinkButton to={checkoutTo} preventScrollReset className="w-full" size="lg">
        {state.trialAvailable ? "Start Free Trial" : "Subscribe"}
      </LinkButton>
    );
  }
  return (
    <Button className="w-full" size="lg" disabled>
      Payment System Not Configured
    </Button>
  );
}

function CheckoutModal({ closeTo, state }: { closeTo: string; retryTo: string; state: PricingState }) {
  const fetcher = useFetcher<{ error?: string }>({ key: "checkout" });
  const busy = fetcher.state !== "idle";
  const error = fetcher.state === "idle" ? fetcher.data?.error : undefined;

  if (busy) {
    return (
      <div className="fixed inset-0 z-[60] flex flex-col items-center justify-center bg-white/95" role="status" aria-live="polite">
        <Spinner className="h-10 w-10 text-brand-600" label="Redirecting to Checkout" />
        <p className="mt-4 text-lg font-semibold text-slate-900">Redirecting to Checkout</p>
        <p className="mt-1 text-sm text-slate-600">Taking you to Stripe's secure payment page...</p>
      </div>
    );
  }

  return (
    <UrlModal closeTo={closeTo} labelledBy="checkout-title">
      {error ? (
        <>
          <h2 id="checkout-title" className="text-xl font-semibold text-slate-900">
            Payment Error
          </h2>
          <Alert tone="error" className="mt-4">
            {error || "An unexpected error occurred during checkout. Please try again."}
          </Alert>
          <div className="mt-6 flex gap-3">
            <Button variant="secondary" className="flex-1" onClick={() => fetcher.reset()}>
              Try Again
            </Button>
            <Link to={closeTo} replace preventScrollReset className={buttonClass("ghost", "md", "flex-1")}>
              Close
            </Link>
          </div>
        </>
      ) : (
        <>
          <h2 id="checkout-title" className="text-xl font-semibold text-slate-900">
            Start your {PLAN.name} subscription
          </h2>
          <dl className="mt-5 space-y-3 rounded-xl bg-slate-50 p-4 text-sm">
            <div className="flex justify-between">
              <dt className="text-slate-600">Plan</dt>
              <dd className="font-semibold text-slate-900">Modelify {PLAN.name}</dd>
            </div>
            <div className="flex justify-between">
              <dt className="text-slate-600">Price</dt>
              <dd className="font-semibold text-slate-900">{PLAN_PRICE} / month</dd>
            </div>
            <div className="flex justify-between">
              <dt className="text-slate-600">Free trial</dt>
              <dd className="font-semibold text-slate-900">{state.trialAvailable ? `${PLAN.trialDays} days` : "Already used"}</dd>
            </div>
          </dl>
          <p className="mt-4 text-sm text-slate-600">
            {state.trialAvailable
              ? `Payment details are required. You won't be charged until the ${PLAN.trialDays}-day trial ends; cancel before then and you pay nothing.`
              : "Your free trial was used before, so billing starts today."}{" "}
            Cancel anytime, effective at the end of the billing period. No refunds for partial months.
          </p>
          <fetcher.Form method="post" action="/billing/checkout" className="mt-6">
            <Button type="submit" size="lg" className="w-full" data-autofocus>
              Continue to Checkout
            </Button>
          </fetcher.Form>
          <p className="mt-3 text-center text-xs text-slate-500">Secure payment by Stripe.</p>
        </>
      )}
    </UrlModal>
  );
}

function TermsModal({ closeTo }: { closeTo: string }) {
  return (
    <UrlModal closeTo={closeTo} labelledBy="terms-title" wide>
      <h2 id="terms-title" className="text-xl font-semibold text-slate-900">
        Full Disclosure &amp; Terms
      </h2>
      <div className="mt-4 space-y-3 text-sm leading-6 text-slate-700">
        <p>
          <strong>Price.</strong> Modelify {PLAN.name} costs {PLAN_PRICE} USD per month. New subscribers get a {PLAN.trialDays}-day free trial; payment details
          are required to start it, and the first charge happens when the trial ends unless you cancel before.
        </p>
        <p>
          <strong>Renewal and cancellation.</strong> The subscription renews automatically every month. You can cancel anytime from the dashboard; the
          cancellation takes effect at the end of the current billing period. There are no refunds for partial months.
        </p>
        <p>
          <strong>Model costs are separate.</strong> You use your own API keys and pay each AI provider directly at their prices. Modelify does not resell model
          access.
        </p>
        <p>
          <strong>Your data.</strong> Conversations and API keys stay on your device. The desktop app reports usage figures (tokens, cost, duration) to your
          account so you can follow your spending in the dashboard.
        </p>
        <p>
          <strong>Price changes.</strong> We give at least 30 days' notice before any price change.
        </p>
      </div>
      <Link to={closeTo} replace preventScrollReset className={buttonClass("primary", "md", "mt-6 w-full")} data-autofocus>
        I Understand
      </Link>
    </UrlModal>
  );
}
