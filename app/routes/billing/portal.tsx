// POST /billing/portal: open Stripe's customer portal, returning to the billing tab.
import { data, redirect } from "react-router";
import type { Route } from "./+types/portal";
import { StripeRedirectPage } from "~/components/stripe-redirect-page";
import { createPortal } from "~/lib/billing/billing.server";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { pageMeta } from "~/lib/site/meta";

export const meta = () => pageMeta("Customer Portal | Modelify");

export function loader({ context }: Route.LoaderArgs) {
  requireUser(context);
  return null;
}

export async function action({ context }: Route.ActionArgs) {
  const user = requireUser(context);
  const result = await createPortal(app(context), user.id);
  if (!result.ok) return data({ error: result.error }, { status: result.status });
  throw redirect(result.url);
}

export default function PortalPage({ actionData }: Route.ComponentProps) {
  return (
    <StripeRedirectPage
      error={actionData?.error}
      title="Manage with Stripe"
      subtitle="Update your card, download receipts or cancel in Stripe's customer portal."
      button="Continue to Stripe"
      errorTitle="Failed to open Stripe Customer Portal"
      back={{ to: "/dashboard/billing", label: "Back to Billing" }}
    />
  );
}
