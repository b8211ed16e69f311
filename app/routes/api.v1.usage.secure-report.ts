// POST /api/v1/usage/secure-report: the fallback aggregate report (spec accounts §3),
// deduplicated on report_hash per user.
import type { Route } from "./+types/api.v1.usage.secure-report";
import { methodNotAllowed, requireApiUser } from "~/lib/api.server";
import { getCloudflare } from "~/lib/auth/request.server";
import { readJson } from "~/lib/http.server";
import type { SecureUsageMessage } from "~/lib/queue";
import { enqueueAll, rateLimited } from "~/lib/usage/api.server";
import { problemsFrom, secureReportSchema } from "~/lib/usage/report";

const schema = secureReportSchema();

export const loader = methodNotAllowed;

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireApiUser(request, context);
  const { env } = getCloudflare(context);
  const limited = await rateLimited(env, user.id);
  if (limited) return limited;
  const parsed = schema.safeParse(await readJson(request));
  if (!parsed.success) return Response.json({ error: "Invalid secure usage report", problems: problemsFrom(parsed.error, false) }, { status: 400 });
  const message: SecureUsageMessage = { type: "usage.secure", userId: user.id, receivedAt: Date.now(), report: parsed.data };
  await enqueueAll(env.EVENTS, [message]);
  return Response.json({ accepted: 1 }, { status: 202 });
}
