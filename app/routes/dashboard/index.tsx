import { useEffect } from "react";
import { data, useLocation, useNavigate } from "react-router";
import type { Route } from "./+types/index";
import { OverviewTab } from "~/components/dashboard/overview-tab";
import { TabError } from "~/components/dashboard/tab-error";
import { ZoneQuestion } from "~/components/dashboard/zone-question";
import { accountOverview } from "~/lib/account/overview.server";
import { formatActivationKey, normaliseActivationKey } from "~/lib/early-access/keys";
import { answerZoneQuestion, zoneAnswerSchema } from "~/lib/profile/time-zone.server";
import { overviewUsage } from "~/lib/usage/analytics.server";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { pendingKeyCookie, readCookie } from "~/server/cookies.server";
import { readForm, singleValue } from "~/server/requests.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = app(context);
  const [account, usage, waiting] = await Promise.all([accountOverview(db, user), overviewUsage(app(context), user), readCookie(pendingKeyCookie, request)]);
  const pendingKey = waiting && !account.activated ? normaliseActivationKey(waiting) : null;
  return {
    account,
    usage,
    pendingKey: pendingKey ? formatActivationKey(pendingKey) : null,
    // Whether to ask which zone to count in: never answered (the browser's zone decides whether it shows).
    askZone: user.profile.timeZoneConfirmedAt === null,
  };
}

/** The answer to the dashboard's question of the time zone (components/dashboard/zone-question.tsx). */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const read = await readForm(request);
  if (!read.ok) return data({ ok: false as const, error: read.message }, { status: read.status });
  const parsed = zoneAnswerSchema.safeParse({ answer: singleValue(read.formData, "answer"), timeZone: singleValue(read.formData, "timeZone") });
  if (!parsed.success) return data({ ok: false as const, error: parsed.error.issues[0]!.message }, { status: 400 });
  await answerZoneQuestion(app(context), user, parsed.data);
  return { ok: true as const };
}

export default function Overview({ loaderData }: Route.ComponentProps) {
  const { hash } = useLocation();
  const navigate = useNavigate();
  const subscribed = loaderData.account.activated;
  // Spec: /dashboard#downloads with an active subscription (or early access) opens the downloads tab (the hash never reaches the server).
  useEffect(() => {
    if (hash === "#downloads" && subscribed) navigate("/dashboard/downloads", { replace: true });
  }, [hash, subscribed, navigate]);
  return (
    <>
      {loaderData.askZone ? <ZoneQuestion accountZone={loaderData.usage.timeZone} /> : null}
      <OverviewTab account={loaderData.account} usage={loaderData.usage} pendingKey={loaderData.pendingKey} />
    </>
  );
}

export const ErrorBoundary = TabError;
