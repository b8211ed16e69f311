// POST /api/v1/usage/secure-report: the fallback aggregate report the app sends when single reports could not be delivered,
// deduplicated on report_hash per user.
import type { Route } from "./+types/secure-report";
import { enqueue, type SecureUsageMessage } from "~/lib/queue";
import { app } from "~/server/context.server";
import { postOnly } from "~/server/responses.server";
import { authorizeUsageRequest } from "~/server/usage-api.server";
import { problemsFrom, secureReportSchema } from "~/lib/usage/report";

const schema = secureReportSchema();

export const loader = postOnly;

export async function action({ request, context }: Route.ActionArgs) {
  const ctx = app(context);
  const authorized = await authorizeUsageRequest(request, ctx);
  if (authorized instanceof Response) return authorized;
  const { user, teamId, body } = authorized;
  const parsed = schema.safeParse(body);
  if (!parsed.success) return Response.json({ error: "Invalid secure usage report", problems: problemsFrom(parsed.error, false) }, { status: 400 });
  const message: SecureUsageMessage = { type: "usage.secure", userId: user.id, receivedAt: Date.now(), report: parsed.data, ...(teamId && { teamId }) };
  await enqueue(ctx.queue, message);
  return Response.json({ accepted: 1 }, { status: 202 });
}
