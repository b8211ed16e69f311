import { useEffect } from "react";
import { useLocation, useNavigate } from "react-router";
import type { Route } from "./+types/overview";
import { OverviewTab } from "~/components/dashboard/overview-tab";
import { TabError } from "~/components/dashboard/tab-error";
import { accountOverview } from "~/lib/account/overview.server";
import { overviewUsage } from "~/lib/usage/analytics.server";
import { requireUser } from "~/server/auth";
import { app } from "~/server/context";

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = app(context);
  const [account, usage] = await Promise.all([accountOverview(db, user), overviewUsage(db, user.id)]);
  return { account, usage };
}

export default function Overview({ loaderData }: Route.ComponentProps) {
  const { hash } = useLocation();
  const navigate = useNavigate();
  const subscribed = loaderData.account.subscription.active;
  // Spec: /dashboard#downloads with an active subscription opens the downloads tab (the hash never reaches the server).
  useEffect(() => {
    if (hash === "#downloads" && subscribed) navigate("/dashboard/downloads", { replace: true });
  }, [hash, subscribed, navigate]);
  return <OverviewTab account={loaderData.account} usage={loaderData.usage} />;
}

export const ErrorBoundary = TabError;
