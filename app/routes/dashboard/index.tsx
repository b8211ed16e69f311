import { useEffect } from "react";
import { useLocation, useNavigate } from "react-router";
import type { Route } from "./+types/index";
import { OverviewTab } from "~/components/dashboard/overview-tab";
import { TabError } from "~/components/dashboard/tab-error";
import { accountOverview } from "~/lib/account/overview.server";
import { formatActivationKey, normaliseActivationKey } from "~/lib/early-access/keys";
import { overviewUsage } from "~/lib/usage/analytics.server";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { pendingKeyCookie, readCookie } from "~/server/cookies.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = app(context);
  const [account, usage, waiting] = await Promise.all([accountOverview(db, user), overviewUsage(app(context), user), readCookie(pendingKeyCookie, request)]);
  const pendingKey = waiting && !account.activated ? normaliseActivationKey(waiting) : null;
  return { account, usage, pendingKey: pendingKey ? formatActivationKey(pendingKey) : null };
}

export default function Overview({ loaderData }: Route.ComponentProps) {
  const { hash } = useLocation();
  const navigate = useNavigate();
  const subscribed = loaderData.account.activated;
  // Spec: /dashboard#downloads with an active subscription (or early access) opens the downloads tab (the hash never reaches the server).
  useEffect(() => {
    if (hash === "#downloads" && subscribed) navigate("/dashboard/downloads", { replace: true });
  }, [hash, subscribed, navigate]);
  return <OverviewTab account={loaderData.account} usage={loaderData.usage} pendingKey={loaderData.pendingKey} />;
}

export const ErrorBoundary = TabError;
