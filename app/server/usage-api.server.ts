// What both usage routes check first: POST, a valid bearer token, the per-user request rate.
import { authenticateUsageToken } from "~/lib/auth/session.server";
import { USAGE_API } from "~/lib/constants";
import { sessionKeys } from "~/lib/keys";
import { noteAccount } from "~/lib/log/log.server";
import type { AppContext } from "./context.server";
import { requireBearer } from "./auth.server";
import { readJson } from "./requests.server";
import { jsonError, methodNotAllowed } from "./responses.server";
import { RateLimitLeases } from "./rate-limit-leases.server";

// Per isolate: most reports are allowed from a lease without a round trip to the limiter.
const leases = new RateLimitLeases(USAGE_API.rateLimitLease, USAGE_API.rateLimitPeriodSeconds * 1000);

/**
 * Seconds until the current window of the platform's rate limiter ends. The Workers rate-limit
 * binding counts in fixed windows of `period` seconds aligned to the clock (minute 12:34:00 to
 * 12:35:00 for period 60), so a client refused at 12:34:50 may try again in 10 s, not 60.
 */
export function secondsUntilWindowEnds(now: number, periodSeconds = USAGE_API.rateLimitPeriodSeconds): number {
  const periodMs = periodSeconds * 1000;
  return Math.max(1, Math.ceil((periodMs - (now % periodMs)) / 1000));
}

/** A JSON 429 with the real wait in Retry-After when the user is over the per-minute limit, else null. */
async function rateLimited(limiter: RateLimit, userId: string, now = Date.now()): Promise<Response | null> {
  const allowed = await leases.allow(userId, async (key) => (await limiter.limit({ key })).success, now);
  if (allowed) return null;
  return jsonError(429, "Too many requests. Please slow down and retry after the time in Retry-After.", { "Retry-After": String(secondsUntilWindowEnds(now)) });
}

/**
 * The reporting user and the request's JSON body. The rate limit is asked while the body is read
 * (the limiter is a round trip); its refusal still comes first, and nothing is enqueued before it.
 */
export async function authorizeUsageRequest(
  request: Request,
  app: AppContext,
  maxBytes?: number,
): Promise<{ user: { id: string }; deviceId: string | null; teamId: string | null; body: unknown } | Response> {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireBearer(request, (token) => authenticateUsageToken(app.db, sessionKeys(app.env), token));
  noteAccount(user.id);
  // Spec: 1,000 requests per minute per API key. A desktop app's key is its device session.
  const [limited, body] = await Promise.all([
    rateLimited(app.usageLimiter, user.deviceId ?? user.id),
    readJson(request, maxBytes).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    ),
  ]);
  if (limited) return limited;
  if (!body.ok) throw await withProblems(body.error);
  return { user: { id: user.id }, deviceId: user.deviceId, teamId: user.teamId, body: body.value };
}

/**
 * readJson's 400 (a body that is not JSON, or none) in the usage routes' own 400 shape: every 400
 * of these routes carries `problems` (here one, for the whole body: path ""), as the API
 * description says, so a client reads all of them one way.
 */
export async function withProblems(error: unknown): Promise<unknown> {
  if (!(error instanceof Response) || error.status !== 400) return error;
  const { error: message } = await error.json<{ error: string }>();
  return Response.json({ error: message, problems: [{ index: null, path: "", message }] }, { status: 400 });
}
