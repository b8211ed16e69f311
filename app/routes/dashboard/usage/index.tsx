import { data } from "react-router";
import type { Route } from "./+types/index";
import { TabError } from "~/components/dashboard/tab-error";
import { UsageTab } from "~/components/dashboard/usage-tab";
import { UsageViewRefused } from "~/components/dashboard/usage-range-form";
import { entitlementsFrom, planOf } from "~/lib/usage/entitlements.server";
import { capLinesOf } from "~/lib/usage/caps.server";
import { rangeLimits } from "~/lib/usage/usage-range";
import { parseUsageView } from "~/lib/usage/usage-range.server";
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
  // Hard caps (ADR 0032) are read apart, and from the ledger only when the account has any.
  const [{ counts, ...usage }, plan, caps] = await Promise.all([
    usageTab(ctx, user, view.view, now),
    planOf(ctx.db, user, user.profile, now),
    capLinesOf(ctx, user, now),
  ]);
  const entitlements = entitlementsFrom(counts, plan, now, zone, caps.states);
  return { refused: null, email: user.email, ui, data: usage, limits, entitlements, caps: caps.lines };
}

export default function Usage({ loaderData }: Route.ComponentProps) {
  if (loaderData.refused) return <UsageViewRefused message={loaderData.refused.message} limits={loaderData.refused.limits} />;
  const { data, ui, limits, email, entitlements, caps } = loaderData;
  return <UsageTab data={data} ui={ui} limits={limits} email={email} entitlements={entitlements} caps={caps} />;
}

export const ErrorBoundary = TabError;
