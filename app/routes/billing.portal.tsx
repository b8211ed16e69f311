// POST /billing/portal: open Stripe's customer portal, returning to the billing tab.
import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/billing.portal";
import { AuthShell } from "~/components/auth-shell";
import { Alert, Button, LinkButton } from "~/components/ui";
import { requireUser } from "~/lib/auth/request.server";
import { createPortal } from "~/lib/billing/billing.server";
import { billingDeps } from "~/lib/billing/deps.server";

export const meta = () => [{ title: "Customer Portal | Modelify" }];

export function loader({ context }: Route.LoaderArgs) {
  requireUser(context);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const result = await createPortal(billingDeps(request, context), user.id);
  if (!result.ok) return data({ error: result.error }, { status: result.status });
  throw redirect(result.url);
}

// Shown without JavaScript, or when the portal could not be opened.
export default function PortalPage({ actionData }: Route.ComponentProps) {
  if (!actionData) {
    return (
      <AuthShell title="Manage with Stripe" subtitle="Update your card, download receipts or cancel in Stripe's customer portal.">
        <Form method="post">
          <Button type="submit" size="lg" className="w-full">
            Continue to Stripe
          </Button>
        </Form>
      </AuthShell>
    );
  }
  return (
    <AuthShell title="Failed to open Stripe Customer Portal">
      <Alert tone="error">{actionData.error}</Alert>
      <LinkButton to="/dashboard?tab=billing" className="mt-6 w-full">
        Back to Billing
      </LinkButton>
    </AuthShell>
  );
}
