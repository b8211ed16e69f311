// POST /api/v1/usage/secure-report: the fallback aggregate report (spec accounts §3),
// deduplicated on report_hash per user.
import type { Route } from "./+types/api.v1.usage.secure-report";
import { postOnly } from "~/lib/api.server";
import { readJson } from "~/lib/http.server";
import type { SecureUsageMessage } from "~/lib/queue";
import { authorizeUsageRequest, enqueueAll } from "~/lib/usage/api.server";
import { problemsFrom, secureReportSchema } from "~/lib/usage/report";

const schema = secureReportSchema();

export const loader = postOnly;

export async function action({ request, context }: Route.ActionArgs) {
  const authorized = await authorizeUsageRequest(request, context);
  if (authorized instanceof Response) return authorized;
  const { user, env } = authorized;
  const parsed = schema.safeParse(await readJson(request));
  if (!parsed.success) return Response.json({ error: "Invalid secure usage report", problems: problemsFrom(parsed.error, false) }, { status: 400 });
  const message: SecureUsageMessage = { type: "usage.secure", userId: user.id, receivedAt: Date.now(), report: parsed.data };
  await enqueueAll(env.EVENTS, [message]);
  return Response.json({ accepted: 1 }, { status: 202 });
}
