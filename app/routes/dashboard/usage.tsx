import type { Route } from "./+types/usage";
import { TabError } from "~/components/dashboard/tab-error";
import { UsageTab } from "~/components/dashboard/usage-tab";
import { parseRange, usageTab } from "~/lib/usage/analytics.server";
import { accountEntitlements } from "~/lib/usage/entitlements.server";
import { parseUsageUi } from "~/lib/usage/usage-view";
import { requireUser } from "~/server/auth";
import { app } from "~/server/context";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = app(context);
  const params = new URL(request.url).searchParams;
  // The same figures the desktop app gets from GET /api/v1/entitlements.
  const [data, entitlements] = await Promise.all([usageTab(db, user.id, parseRange(params.get("range"))), accountEntitlements(db, user.id, user.profile)]);
  return { email: user.email, ui: parseUsageUi(params), data, entitlements };
}

export default function Usage({ loaderData }: Route.ComponentProps) {
  return <UsageTab data={loaderData.data} ui={loaderData.ui} email={loaderData.email} entitlements={loaderData.entitlements} />;
}

export const ErrorBoundary = TabError;
