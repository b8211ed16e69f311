import type { RouterContextProvider } from "react-router";
import { cloudflareContext } from "~/context";
import { jsonError, methodNotAllowed, requireApiUser } from "../api.server";
import { USAGE_API } from "../constants";
import type { SessionUser } from "../auth/session.server";

// Queues accept at most 100 messages and 256 KB per sendBatch call.
const MAX_MESSAGES = 100;
const MAX_BATCH_BYTES = 250 * 1024;

export async function enqueueAll(queue: Queue, bodies: unknown[]): Promise<void> {
  let batch: MessageSendRequest[] = [];
  let bytes = 0;
  for (const body of bodies) {
    const size = JSON.stringify(body).length + 100;
    if (batch.length === MAX_MESSAGES || (batch.length > 0 && bytes + size > MAX_BATCH_BYTES)) {
      await queue.sendBatch(batch);
      batch = [];
      bytes = 0;
    }
    batch.push({ body, contentType: "json" });
    bytes += size;
  }
  if (batch.length) await queue.sendBatch(batch);
}

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
export async function rateLimited(env: Env, userId: string, now = Date.now()): Promise<Response | null> {
  const { success } = await env.USAGE_RATE_LIMITER.limit({ key: userId });
  if (success) return null;
  return jsonError(429, "Too many requests. Please slow down and retry after the time in Retry-After.", { "Retry-After": String(secondsUntilWindowEnds(now)) });
}

/** What both usage routes check first: POST, a valid bearer token, the per-user rate. */
export async function authorizeUsageRequest(request: Request, context: Readonly<RouterContextProvider>): Promise<{ user: SessionUser; env: Env } | Response> {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireApiUser(request, context);
  const { env } = context.get(cloudflareContext);
  return (await rateLimited(env, user.id)) ?? { user, env };
}
