// POST /billing/checkout: create a Stripe Checkout Session and send the browser to it.
// The checkout modal posts here with a fetcher; without JavaScript this page shows the error.
import { data, redirect } from "react-router";
import type { Route } from "./+types/checkout";
import { StripeRedirectPage } from "~/components/stripe-redirect-page";
import { createCheckout } from "~/lib/billing/billing.server";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { pageMeta } from "~/lib/site/meta";

export const meta = () => pageMeta("Checkout | Modelify");

export async function action({ context }: Route.ActionArgs) {
  const { user } = getAuth(context);
  if (!user) throw redirect("/auth?mode=signin&from=pricing&subscribe=true");
  const result = await createCheckout(app(context), user);
  if (!result.ok) return data({ error: result.error }, { status: result.status });
  throw redirect(result.url);
}

// Shown without JavaScript (the modal's fetcher handles these states otherwise).
export default function CheckoutPage({ actionData }: Route.ComponentProps) {
  return (
    <StripeRedirectPage
      error={actionData?.error}
      title="Checkout"
      subtitle="Continue to Stripe's secure payment page to start your subscription."
      button="Continue to Checkout"
      errorTitle="Payment Error"
      back={{ to: "/pricing?checkout=open", label: "Try Again" }}
    />
  );
}
