import { data } from "react-router";
import type { Route } from "./+types/downloads";
import { DownloadsTab } from "~/components/dashboard/downloads-tab";
import { TabError } from "~/components/dashboard/tab-error";
import { DOWNLOAD } from "~/lib/constants";
import { emailDownloadLink, emailLinkFormSchema } from "~/lib/downloads/email-link.server";
import { downloadErrorMessage, EMAIL_LINK_MESSAGES } from "~/lib/downloads/messages";
import { detectDevice, PLATFORMS, type Platform } from "~/lib/downloads/options";
import { currentReleases, recentDownloads } from "~/lib/downloads/releases.server";
import { userActivation } from "~/lib/early-access/activation.server";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm } from "~/server/requests.server";
import { keepRetryAfter, retryAfter } from "~/server/responses.server";
import { pageMeta } from "~/lib/site/meta";

export const meta = () => pageMeta("Downloads | Modelify");
export const headers = keepRetryAfter;

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
    detected: detectDevice(userAgent),
    email: user.email,
    releases,
    history: history.slice(0, DOWNLOAD.historyShown),
  };
}

/**
 * "E-mail me the link" (a phone or tablet): the answer is the page again with what happened, with
 * or without JavaScript; the post-payment dialog and the landing page post here too.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const read = await readForm(request);
  if (!read.ok) return data({ ok: false as const, message: read.message }, { status: read.status });
  if (!emailLinkFormSchema.safeParse(Object.fromEntries(read.formData)).success)
    return data({ ok: false as const, message: EMAIL_LINK_MESSAGES.invalid }, { status: 400 });
  const outcome = await emailDownloadLink(app(context), user.id);
  if (outcome.ok) return { ok: true as const, message: EMAIL_LINK_MESSAGES.sent(outcome.to) };
  if (outcome.reason === "unconfirmed") return data({ ok: false as const, message: EMAIL_LINK_MESSAGES.unconfirmed }, { status: 403 });
  return data({ ok: false as const, message: EMAIL_LINK_MESSAGES.tooMany }, { status: 429, headers: retryAfter(outcome.retryAfterSeconds) });
}

export default function Downloads({ loaderData, actionData }: Route.ComponentProps) {
  return <DownloadsTab data={loaderData} mailed={actionData} />;
}

export const ErrorBoundary = TabError;
