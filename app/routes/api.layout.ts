// The JSON API (desktop app, Stripe): answers in JSON even when the Worker is misconfigured.
import type { Route } from "./+types/api.layout";
import { configErrorContext } from "~/server/context";
import { jsonError } from "~/server/http";

const apiMiddleware: Route.MiddlewareFunction = async ({ context }, next) => {
  if (context.get(configErrorContext)) return jsonError(503, "The service is not configured. Please try again later.");
  return next();
};

export const middleware: Route.MiddlewareFunction[] = [apiMiddleware];
