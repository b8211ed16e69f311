// POST /api/v1/usage: the desktop app reports model calls. Validates, authenticates and
// enqueues; the consumer Worker writes (idempotent on report_id). Every model call of every app
// sends one, so workers/app.ts answers it before the router (ADR 0015); the route module answers
// the same through React Router for any other spelling of the path.
import { BoundedMap } from "~/lib/bounded-map";
import { USAGE_API } from "~/lib/constants";
import { noteError } from "~/lib/log/log.server";
import { enqueue, usageReportsMessages } from "~/lib/queue";
import { problemsFrom, usageBatchSchema } from "~/lib/usage/report";
import { usageReportReader } from "~/lib/usage/report-reader";
import type { AppContext } from "./context.server";
import { requestCountry } from "./requests.server";
import { jsonError } from "./responses.server";
import { authorizeUsageRequest } from "./usage-api.server";

const report = usageReportReader();
const batchSchema = usageBatchSchema(report);

export const USAGE_REPORT_PATH = "/api/v1/usage";

export async function reportUsage(request: Request, ctx: AppContext): Promise<Response> {
  const authorized = await authorizeUsageRequest(request, ctx, USAGE_API.maxBodyBytes);
  if (authorized instanceof Response) return authorized;
  const { user, deviceId, teamId, body } = authorized;

  const isBatch = typeof body === "object" && body !== null && !Array.isArray(body) && "reports" in body;
  const parsed = isBatch ? batchSchema.safeParse(body) : report.safeParse(body);
  if (!parsed.success) {
    // The batch is refused whole: nothing is stored when any report is invalid.
    const problems = problemsFrom(parsed.error, false);
    return Response.json({ error: "Invalid usage report", problems: isBatch ? problems.map(fixBatchPath) : problems }, { status: 400 });
  }
  const reports = "reports" in parsed.data ? parsed.data.reports : [parsed.data];
  const receivedAt = Date.now();
  const country = deviceId ? deviceCountry(request, deviceId, receivedAt) : null;
  // The one place a report's occurred_at is set when the app left it out: it happened when received.
  const messages = usageReportsMessages(
    // A key of a team (ADR 0038): its reports count for the team too, if the consumer still finds the sender a member.
    { userId: user.id, receivedAt, deviceId, country, ...(teamId && { teamId }) },
    reports.map((r) => ({ ...r, occurred_at: r.occurred_at ?? receivedAt })),
  );
  await enqueue(ctx.queue, messages);
  return Response.json({ accepted: reports.length }, { status: 202 });
}

// request.cf is parsed from JSON on its first read in a request, a tenth of this route's CPU: a
// device's country is read at most once a minute per isolate (the consumer keeps the last one).
const COUNTRY_RECHECK_MS = 60_000;
const countryReadRecently = new BoundedMap<string, true>(USAGE_API.desktopSessionCacheSize);

function deviceCountry(request: Request, deviceId: string, now: number): string | null {
  if (countryReadRecently.get(deviceId, now)) return null;
  countryReadRecently.set(deviceId, true, now + COUNTRY_RECHECK_MS);
  return requestCountry(request);
}

/**
 * reportUsage outside React Router: a thrown Response (401, 413, 415…) is the answer, as the
 * router would make it; anything else is logged and answered with a JSON 500.
 */
export async function reportUsageDirectly(request: Request, ctx: AppContext): Promise<Response> {
  try {
    return await reportUsage(request, ctx);
  } catch (error) {
    if (error instanceof Response) return error;
    // The request's line carries it, with its stack.
    noteError(error);
    return jsonError(500, "The report could not be recorded. Please retry.");
  }
}

// zod paths of a batch start with "reports.<index>": report the index separately.
function fixBatchPath(p: { index: number | null; path: string; message: string }) {
  const match = /^reports\.(\d+)(?:\.(.*))?$/.exec(p.path);
  return match ? { index: Number(match[1]), path: match[2] ?? "", message: p.message } : p;
}
