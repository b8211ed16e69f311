// The request's log line: one per request, written by the Worker entry when the answer is ready.
// It answers "what happened to this request?" (its id is in the answer's X-Request-Id, so a user
// or a support mail can quote it) and "what is slow or failing?" (route, status, time, D1
// statements), for one account (a salted hash) or all. See lib/log for what a line may carry.
import { log, type LogScope } from "~/lib/log/log.server";
import { KNOWN_METHODS } from "./responses.server";

const REQUEST_ID_HEADER = "X-Request-Id";

// Cloudflare's edge sets CF-Ray on every request it passes to the Worker (a client's own value is
// replaced), so in production the request id is the ray id the dashboard and Cloudflare's support
// know. Locally there is none, and anything not of its shape is not trusted: a fresh id instead.
const CF_RAY = /^[0-9a-f]{16}(-[A-Z]{3})?$/;

export function requestIdOf(request: Request): string {
  const ray = request.headers.get("CF-Ray");
  return ray && CF_RAY.test(ray) ? ray : crypto.randomUUID();
}

export type RequestOutcome = {
  status: number;
  /** Until the answer's headers are ready (a streamed page's body may still be on its way). */
  durationMs: number;
  d1Statements: number;
  ledgerCalls: number;
  /** The route when the router did not match one: the page cache's copy, the usage shortcut. */
  fallbackRoute: string;
  /** "hit" when the page cache answered. */
  cache?: "hit";
};

/**
 * Writes the request's line: an error line for a 5xx, a warning for a refusal that came with an
 * error (React Router's own cross-site check), each with the error and its stack.
 */
export function logRequest(scope: LogScope, request: Request, outcome: RequestOutcome): void {
  const fields = {
    method: KNOWN_METHODS.has(request.method) ? request.method : "OTHER",
    // The matched pattern (/profile-images/:userId/:file), never the URL with its ids and tokens.
    route: scope.route ?? outcome.fallbackRoute,
    status: outcome.status,
    durationMs: Math.round(outcome.durationMs),
    d1Statements: outcome.d1Statements,
    ledgerCalls: outcome.ledgerCalls,
    userId: scope.accountId,
    ...(outcome.cache ? { cache: outcome.cache } : {}),
  };
  if (outcome.status >= 500) log.error("request", fields, scope.error);
  else if (scope.error !== undefined) log.warn("request", fields, scope.error);
  else log.info("request", fields);
}

/** The answer with its request id (a copy when its headers are immutable). */
export function withRequestId(response: Response, id: string): Response {
  try {
    response.headers.set(REQUEST_ID_HEADER, id);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set(REQUEST_ID_HEADER, id);
    return copy;
  }
}
