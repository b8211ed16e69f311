import { data } from "react-router";
import type { Route } from "./+types/analytics";
import { AnalyticsRefused, AnalyticsTab, PremiumFeature } from "~/components/dashboard/analytics-tab";
import { TabError } from "~/components/dashboard/tab-error";
import { userActivation } from "~/lib/early-access/activation.server";
import { modelAnalytics } from "~/lib/usage/analytics.server";
import { CATEGORIES, recommend, sortModels, SORTS } from "~/lib/usage/models";
import { rangeLimits, shownView } from "~/lib/usage/usage-range";
import { parseUsageView } from "~/lib/usage/usage-range.server";
import { pick } from "~/lib/usage/usage-view";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const ctx = app(context);
  const { db } = ctx;
  // Spec: Model Analytics needs an activated account (a subscription or early access); others see the Premium Feature card.
  if (!(await userActivation(db, user)).activated) return { locked: true as const };
  const params = new URL(request.url).searchParams;
  const now = Date.now();
  const zone = user.profile.timeZone;
  const limits = rangeLimits(user.createdAt, now, zone);
  const asked = parseUsageView(params, { now, zone, createdAt: user.createdAt, fallback: "30d" });
  if (!asked.ok) return data({ locked: false as const, refused: { message: asked.message, limits } }, { status: 400 });
  const { view } = asked;
  const { models, groups, totals } = await modelAnalytics(ctx, user, view, now);
  const category = pick(CATEGORIES, params.get("category"), "all");
  const sort = pick(SORTS, params.get("sort"), "usage");
  const shown = sortModels(category === "all" ? models : models.filter((m) => m.category === category), sort);
  return {
    locked: false as const,
    refused: null,
    models,
    shown,
    category,
    sort,
    recommendations: recommend(models, view.days),
    groups,
    totals,
    limits,
    timeZone: zone,
    view: shownView(view, zone),
  };
}

export default function Analytics({ loaderData }: Route.ComponentProps) {
  if (loaderData.locked) return <PremiumFeature />;
  if (loaderData.refused) return <AnalyticsRefused {...loaderData.refused} />;
  return <AnalyticsTab {...loaderData} />;
}

export const ErrorBoundary = TabError;
