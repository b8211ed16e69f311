import type { Route } from "./+types/billing";
import { BillingTab } from "~/components/dashboard/billing-tab";
import { TabError } from "~/components/dashboard/tab-error";
import { billingTab, parseBillingView } from "~/lib/billing/billing-tab.server";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  return { billing: await billingTab(app(context), user, parseBillingView(new URL(request.url).searchParams.get("view"))) };
}

export default function Billing({ loaderData }: Route.ComponentProps) {
  return <BillingTab billing={loaderData.billing} />;
}

export const ErrorBoundary = TabError;
