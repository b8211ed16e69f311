// POST /api/v1/usage: the desktop app reports model calls. Validates, authenticates and
// enqueues; the consumer Worker writes (idempotent on report_id).
import type { Route } from "./+types/api.v1.usage";
import { USAGE_API } from "~/lib/constants";
import { enqueueAll, type UsageMessage } from "~/lib/queue";
import { problemsFrom, usageBatchSchema, usageReportSchema } from "~/lib/usage/report";
import { app } from "~/server/context";
import { postOnly, requestCountry } from "~/server/http";
import { authorizeUsageRequest } from "~/server/usage-api";

const report = usageReportSchema();
const batchSchema = usageBatchSchema(report);

export const loader = postOnly;

export async function action({ request, context }: Route.ActionArgs) {
  const ctx = app(context);
  const authorized = await authorizeUsageRequest(request, ctx, USAGE_API.maxBodyBytes);
  if (authorized instanceof Response) return authorized;
  const { user, deviceId, body } = authorized;

  const isBatch = typeof body === "object" && body !== null && !Array.isArray(body) && "reports" in body;
  const parsed = isBatch ? batchSchema.safeParse(body) : report.safeParse(body);
  if (!parsed.success) {
    // The batch is refused whole: nothing is stored when any report is invalid.
    const problems = problemsFrom(parsed.error, false);
    return Response.json({ error: "Invalid usage report", problems: isBatch ? problems.map(fixBatchPath) : problems }, { status: 400 });
  }
  const reports = "reports" in parsed.data ? parsed.data.reports : [parsed.data];
  const receivedAt = Date.now();
  const country = requestCountry(request);
  const messages: UsageMessage[] = reports.map((r) => ({
    type: "usage.report",
    userId: user.id,
    receivedAt,
    report: { ...r, occurred_at: r.occurred_at ?? receivedAt },
    deviceId,
    country,
  }));
  await enqueueAll(ctx.queue, messages);
  return Response.json({ accepted: reports.length }, { status: 202 });
}

// zod paths of a batch start with "reports.<index>": report the index separately.
function fixBatchPath(p: { index: number | null; path: string; message: string }) {
  const match = /^reports\.(\d+)(?:\.(.*))?$/.exec(p.path);
  return match ? { index: Number(match[1]), path: match[2] ?? "", message: p.message } : p;
}
