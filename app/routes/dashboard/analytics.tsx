import type { Route } from "./+types/analytics";
import { AnalyticsTab, PremiumFeature } from "~/components/dashboard/analytics-tab";
import { TabError } from "~/components/dashboard/tab-error";
import { USAGE } from "~/lib/constants";
import { userActivation } from "~/lib/early-access/activation.server";
import { modelAnalytics } from "~/lib/usage/analytics.server";
import { CATEGORIES, recommend, sortModels, SORTS } from "~/lib/usage/models";
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
  const models = await modelAnalytics(ctx, user);
  const category = pick(CATEGORIES, params.get("category"), "all");
  const sort = pick(SORTS, params.get("sort"), "usage");
  const shown = sortModels(category === "all" ? models : models.filter((m) => m.category === category), sort);
  return { locked: false as const, models, shown, category, sort, recommendations: recommend(models, USAGE.analyticsDays) };
}

export default function Analytics({ loaderData }: Route.ComponentProps) {
  if (loaderData.locked) return <PremiumFeature />;
  const { models, shown, recommendations, category, sort } = loaderData;
  return <AnalyticsTab models={models} shown={shown} recommendations={recommendations} category={category} sort={sort} />;
}

export const ErrorBoundary = TabError;
