import type { Route } from "./+types/index";
import { TabError } from "~/components/dashboard/tab-error";
import { UsageTab } from "~/components/dashboard/usage-tab";
import { parseRange, usageTab } from "~/lib/usage/analytics.server";
import { entitlementsFrom, planOf } from "~/lib/usage/entitlements.server";
import { capLinesOf } from "~/lib/usage/caps.server";
import { parseUsageUi } from "~/lib/usage/usage-view";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const ctx = app(context);
  const params = new URL(request.url).searchParams;
  const now = Date.now();
  // One ledger call: the figures, and the counts the desktop app gets from GET /api/v1/entitlements.
  // Hard caps (ADR 0032) are read apart, and from the ledger only when the account has any.
  const [{ counts, ...data }, plan, caps] = await Promise.all([
    usageTab(ctx, user, parseRange(params.get("range")), now),
    planOf(ctx.db, user, user.profile, now),
    capLinesOf(ctx, user, now),
  ]);
  const entitlements = entitlementsFrom(counts, plan, now, user.profile.timeZone, caps.states);
  return { email: user.email, ui: parseUsageUi(params), data, entitlements, caps: caps.lines };
}

export default function Usage({ loaderData }: Route.ComponentProps) {
  return <UsageTab data={loaderData.data} ui={loaderData.ui} email={loaderData.email} entitlements={loaderData.entitlements} caps={loaderData.caps} />;
}

export const ErrorBoundary = TabError;
