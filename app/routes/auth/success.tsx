// /auth/success?session_id=…: the page after Stripe Checkout. The server asks Stripe about the
// session and shows subscription details only for a complete session of the signed-in user.
import { redirect, type ShouldRevalidateFunctionArgs, useLocation, Link } from "react-router";
import type { Route } from "./+types/success";
import { withParam } from "~/components/modal";
import { PostPaymentDialog } from "~/components/post-payment-dialog";
import { SiteFooter } from "~/components/site-footer";
import { Alert, Card, CheckIcon, LinkButton } from "~/components/ui";
import { checkoutDetails, type CheckoutDetails } from "~/lib/billing/billing.server";
import { PLAN } from "~/lib/constants";
import { detectDevice, optionById } from "~/lib/downloads/options";
import { currentReleases } from "~/lib/downloads/releases.server";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { pageMeta } from "~/lib/site/meta";
import { useFormat } from "~/components/format";

export const meta = () => pageMeta("Welcome to Modelify");

export async function loader({ request, context }: Route.LoaderArgs) {
  const sessionId = new URL(request.url).searchParams.get("session_id");
  if (!sessionId) return { details: null, download: null };
  const { user } = getAuth(context);
  if (!user) throw redirect("/auth?mode=signin");
  const ctx = app(context);
  const details = await checkoutDetails(ctx, user.id, sessionId.slice(0, 255));
  if (details.state !== "confirmed") return { details, download: null };
  // A confirmed payment opens the download dialog with the build for this computer; on a phone or
  // tablet, with the offer to e-mail the Downloads page instead.
  const detected = detectDevice(ctx.userAgent);
  const option = detected.kind === "desktop" ? (optionById(detected.optionId) ?? null) : null;
  const release = option ? ((await currentReleases(ctx.db)).find((r) => r.optionId === option.id) ?? null) : null;
  return { details, download: { detected, option, release, email: user.email } };
}

// Opening and closing the download dialog (?download=) does not need Stripe asked again.
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (!formMethod && currentUrl.pathname === nextUrl.pathname && currentUrl.searchParams.get("session_id") === nextUrl.searchParams.get("session_id"))
    return false;
  return defaultShouldRevalidate;
}

const NOT_CONFIRMED: Record<Exclude<CheckoutDetails["state"], "confirmed">, string> = {
  pending: "Stripe has not confirmed this payment yet. Refresh this page in a moment; your dashboard updates as soon as it is confirmed.",
  "not-yours": "This checkout session belongs to another account, so its details are not shown.",
  invalid: "This checkout session does not exist. If you just paid, open your dashboard to see your subscription.",
  unavailable: "We could not reach Stripe to confirm this payment. Your dashboard updates as soon as it is confirmed.",
};

export default function AuthSuccess({ loaderData }: Route.ComponentProps) {
  const { details, download } = loaderData;
  const { pathname, search } = useLocation();
  const dialogOpen = download !== null && new URLSearchParams(search).get("download") !== "closed";
  return (
    <>
      <main id="main" className="bg-gradient-to-b from-brand-50 via-white to-white px-4 pb-20 pt-28">
        <Card className="mx-auto max-w-xl p-6 sm:p-8">
          <div className="text-center">
            <div className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-emerald-50 text-emerald-600" aria-hidden="true">
              <CheckIcon className="h-6 w-6" bold />
            </div>
            <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900">Welcome to Modelify!</h1>
          </div>

          <CheckoutSummary details={details} />

          <h2 className="mt-8 text-sm font-semibold text-slate-900">Next steps</h2>
          <ol className="mt-3 list-decimal space-y-2 pl-5 text-sm text-slate-700">
            <li>Install the desktop app for Windows, macOS or Linux.</li>
            <li>Add your provider API keys under Settings, then API Keys.</li>
            <li>Pick an agent or a model and start building.</li>
          </ol>
          <div className="mt-8 grid gap-3 sm:grid-cols-2">
            {download ? (
              <LinkButton to={withParam(pathname, search, "download", "open")} preventScrollReset variant="secondary">
                Download App
              </LinkButton>
            ) : (
              <LinkButton to="/dashboard/downloads" variant="secondary">
                Download App
              </LinkButton>
            )}
            <LinkButton to="/dashboard">Go to Dashboard</LinkButton>
          </div>
          {download ? (
            <p className="mt-3 text-center text-sm">
              <Link
                to={download.option ? `/dashboard/downloads?versions=${download.option.platform}` : "/dashboard/downloads"}
                className="font-medium text-brand-700 underline-offset-2 hover:underline"
              >
                Other platforms and versions
              </Link>
            </p>
          ) : null}
          <p className="mt-6 text-center text-xs text-slate-500">
            Questions? Write to{" "}
            <a className="text-brand-700 underline" href="mailto:support@modelify.dev">
              support@modelify.dev
            </a>
            .
          </p>
        </Card>
      </main>
      <SiteFooter />
      {dialogOpen && download && details?.state === "confirmed" ? (
        <PostPaymentDialog
          outcome={details.outcome}
          detected={download.detected}
          option={download.option}
          release={download.release ?? undefined}
          email={download.email}
          closeTo={withParam(pathname, search, "download", "closed")}
        />
      ) : null}
    </>
  );
}

/** What the checkout did: the subscription's facts (a trial's first charge), or why they are not shown yet. */
function CheckoutSummary({ details }: { details: Route.ComponentProps["loaderData"]["details"] }) {
  const f = useFormat();
  return (
    <>
      {details?.state === "confirmed" ? (
        <>
          {details.outcome.kind === "trial" ? <TrialStarted firstCharge={details.outcome.firstCharge} /> : null}
          <dl className="mt-6 divide-y divide-slate-100 rounded-xl border border-slate-200 text-sm" data-testid="subscription-details">
            <Row label="Plan" value={PLAN.name} />
            <Row label="Price" value={details.amount} />
            {details.trialEnds ? <Row label="Free trial" value={`${PLAN.trialDays} days, until ${f.date(details.trialEnds)}`} /> : null}
            <Row label="Status" value={details.status} />
            {details.outcome.kind === "trial" ? (
              <>
                <Row label="Charged today" value={f.usd(details.outcome.chargedUsd)} />
                <Row label="First charge" value={`${f.usd(details.outcome.firstCharge.amountUsd)} on ${f.date(details.outcome.firstCharge.date)}`} />
              </>
            ) : details.nextBilling ? (
              <Row label="Next charge" value={f.date(details.nextBilling)} />
            ) : null}
          </dl>
        </>
      ) : details ? (
        <Alert tone="info" className="mt-6">
          {NOT_CONFIRMED[details.state]}
        </Alert>
      ) : (
        <p className="mt-3 text-center text-slate-600">Thanks for joining. Here is how to get started.</p>
      )}
    </>
  );
}

/** A trial charged nothing: say so, and when the first charge comes and how much it is (Stripe's trial end). */
function TrialStarted({ firstCharge }: { firstCharge: { amountUsd: number; date: number } }) {
  const f = useFormat();
  return (
    <div className="mt-6 rounded-xl border border-brand-200 bg-brand-50 p-4 text-sm text-brand-900" data-testid="trial-started">
      <h2 className="font-semibold">Your {PLAN.trialDays}-day free trial has started</h2>
      <p className="mt-1">
        Nothing was charged today. Your first charge is {f.usd(firstCharge.amountUsd)} USD on {f.date(firstCharge.date)}, when the trial ends. Cancel before
        then and you pay nothing.
      </p>
    </div>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-4 px-4 py-3">
      <dt className="text-slate-600">{label}</dt>
      <dd className="font-semibold text-slate-900">{value}</dd>
    </div>
  );
}
