import { data } from "react-router";
import type { Route } from "./+types/index";
import { TabError } from "~/components/dashboard/tab-error";
import { UsageTab } from "~/components/dashboard/usage-tab";
import { UsageViewRefused } from "~/components/dashboard/usage-range-form";
import { entitlementsFrom, planOf } from "~/lib/usage/entitlements.server";
import { parseUsageView, rangeLimits } from "~/lib/usage/usage-range";
import { usageTab } from "~/lib/usage/usage-tab.server";
import { parseUsageUi } from "~/lib/usage/usage-view";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const ctx = app(context);
  const params = new URL(request.url).searchParams;
  const now = Date.now();
  const zone = user.profile.timeZone;
  const ui = parseUsageUi(params);
  const view = parseUsageView(params, { now, zone, createdAt: user.createdAt, fallback: "7d" });
  // A range it cannot show: the page says why, with the range form to change it.
  const limits = rangeLimits(user.createdAt, now, zone);
  if (!view.ok) return data({ refused: { message: view.message, limits } }, { status: 400 });
  // One ledger call: the figures, and the counts the desktop app gets from GET /api/v1/entitlements.
  const [{ counts, ...usage }, plan] = await Promise.all([usageTab(ctx, user, view.view, now), planOf(ctx.db, user, user.profile, now)]);
  return { refused: null, email: user.email, ui, data: usage, limits, entitlements: entitlementsFrom(counts, plan, now, zone) };
}

export default function Usage({ loaderData }: Route.ComponentProps) {
  if (loaderData.refused) return <UsageViewRefused message={loaderData.refused.message} limits={loaderData.refused.limits} />;
  return <UsageTab data={loaderData.data} ui={loaderData.ui} limits={loaderData.limits} email={loaderData.email} entitlements={loaderData.entitlements} />;
}

export const ErrorBoundary = TabError;
