import type { Route } from "./+types/usage";
import { TabError } from "~/components/dashboard/tab-error";
import { UsageTab } from "~/components/dashboard/usage-tab";
import { parseRange, usageTab } from "~/lib/usage/analytics.server";
import { parseUsageUi } from "~/lib/usage/usage-view";
import { requireUser } from "~/server/auth";
import { app } from "~/server/context";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const params = new URL(request.url).searchParams;
  return { email: user.email, ui: parseUsageUi(params), data: await usageTab(app(context).db, user.id, parseRange(params.get("range"))) };
}

export default function Usage({ loaderData }: Route.ComponentProps) {
  return <UsageTab data={loaderData.data} ui={loaderData.ui} email={loaderData.email} />;
}

export const ErrorBoundary = TabError;
