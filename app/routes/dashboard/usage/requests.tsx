// The request log (issue 49): every report the desktop app sent, newest first, filtered by the
// URL (a GET form, so without JavaScript too), a page at a time by keyset, with the filtered calls'
// histogram and totals, a report's details in a URL dialog (?report=) and the archived months
// (?archive=). A URL it cannot read answers 400 with the page's sentence on what is wrong; a report
// or archived month the account does not have answers 404.
import { data } from "react-router";
import type { Route } from "./+types/requests";
import { RequestLogPage, RequestLogRefused } from "~/components/dashboard/request-log/page";
import { TabError } from "~/components/dashboard/tab-error";
import { pageMeta } from "~/lib/site/meta";
import { parseLogView } from "~/lib/usage/request-log-url.server";
import { requestLog } from "~/lib/usage/request-log.server";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";

export const meta = () => pageMeta("Request Log | Modelify");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const now = Date.now();
  const parsed = parseLogView(new URL(request.url).searchParams, now, user.profile.timeZone);
  if (!parsed.ok) return data({ ok: false as const, message: parsed.message }, { status: 400 });
  const log = await requestLog(app(context), user, parsed.view, now);
  return data({ ok: true as const, log }, { status: log.report === null || log.monthMissing ? 404 : 200 });
}

export default function RequestLog({ loaderData }: Route.ComponentProps) {
  return loaderData.ok ? <RequestLogPage log={loaderData.log} /> : <RequestLogRefused message={loaderData.message} />;
}

export const ErrorBoundary = TabError;
