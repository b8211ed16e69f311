// POST /events: the browser's first-party marketing events (page views only; see
// lib/marketing/events.ts). No cookie is set or needed; the signed-in user's id is taken from the
// session, never from the body. Answers 204, or a JSON error for anything else.
import type { Route } from "./+types/events";
import { ipSubject } from "~/lib/auth/lockout";
import { MARKETING } from "~/lib/constants";
import { overCap } from "~/lib/limits/counters.server";
import { browserEventSchema } from "~/lib/marketing/browser-event";
import { recordMarketingEvents } from "~/lib/marketing/events.server";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readJson } from "~/server/requests.server";
import { jsonError, postOnly } from "~/server/responses.server";

export const loader = postOnly;

// An event is a few dozen bytes.
const MAX_BYTES = 1024;

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = browserEventSchema.safeParse(await readJson(request, MAX_BYTES));
  if (!parsed.success) return jsonError(400, "Not a marketing event this site records");
  const { db, queue, ip } = app(context);
  const wait = ip ? await overCap(db, `events:ip:${ipSubject(ip)}`, MARKETING.browserEventsPerIp) : null;
  if (wait !== null) return jsonError(429, "Too many events", { "Retry-After": String(wait) });
  await recordMarketingEvents(queue, [{ ...parsed.data, userId: getAuth(context).user?.id ?? null }]);
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}
