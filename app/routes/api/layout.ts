// The JSON API (desktop app, Stripe): answers in JSON even when the Worker is misconfigured.
import type { Route } from "./+types/layout";
import { app, configErrorContext } from "~/server/context.server";
import { API_BOOKMARK_HEADER, apiBookmark } from "~/server/d1-session.server";
import { jsonError } from "~/server/responses.server";

const apiMiddleware: Route.MiddlewareFunction = async ({ request, context }, next) => {
  if (context.get(configErrorContext)) return jsonError(503, "The service is not configured. Please try again later.");
  const response = await next();
  // The D1 bookmark after this request: a client that sends it back on its next request reads at
  // least what this one wrote, e.g. its new session after a token exchange (ADR 0019).
  const bookmark = apiBookmark(request, response, app(context).d1);
  if (!bookmark) return response;
  try {
    response.headers.set(API_BOOKMARK_HEADER, bookmark);
    return response;
  } catch {
    // Immutable headers (e.g. Response.redirect): copy once.
    const copy = new Response(response.body, response);
    copy.headers.set(API_BOOKMARK_HEADER, bookmark);
    return copy;
  }
};

export const middleware: Route.MiddlewareFunction[] = [apiMiddleware];
