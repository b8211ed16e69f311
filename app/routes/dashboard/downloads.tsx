import type { Route } from "./+types/downloads";
import { DownloadsTab } from "~/components/dashboard/downloads-tab";
import { TabError } from "~/components/dashboard/tab-error";
import { DOWNLOAD } from "~/lib/constants";
import { downloadErrorMessage } from "~/lib/downloads/messages";
import { detectOption, PLATFORMS, type Platform } from "~/lib/downloads/options";
import { currentReleases, recentDownloads } from "~/lib/downloads/releases.server";
import { userActivation } from "~/lib/early-access/activation.server";
import { requireUser } from "~/server/auth";
import { app } from "~/server/context";
import { pageMeta } from "~/lib/site/meta";

export const meta = () => pageMeta("Downloads | Modelify");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, userAgent } = app(context);
  const params = new URL(request.url).searchParams;
  // ?error=<code> is why a download failed without JavaScript (POST /downloads/prepare sends it back here).
  const error = downloadErrorMessage(params.get("error"));
  const asked = params.get("versions");
  const versions = PLATFORMS.find((p): p is Platform => p === asked) ?? null;
  if (!(await userActivation(db, user)).activated) return { subscribed: false as const, error };
  const [releases, history] = await Promise.all([currentReleases(db), recentDownloads(db, user.id)]);
  return {
    subscribed: true as const,
    error,
    versions,
    detected: detectOption(userAgent).id,
    releases,
    history: history.slice(0, DOWNLOAD.historyShown),
  };
}

export default function Downloads({ loaderData }: Route.ComponentProps) {
  return <DownloadsTab data={loaderData} />;
}

export const ErrorBoundary = TabError;
