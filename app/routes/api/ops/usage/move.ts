// POST /api/ops/usage/move: one bounded step of moving D1's usage history into the accounts'
// ledgers (lib/usage/move.server.ts, ADR 0020); answers { moved, remaining }. For operators only
// (Authorization: Bearer <OPS_TOKEN>); `npm run usage:move` calls it until nothing remains.
import type { Route } from "./+types/move";
import { moveLegacyUsage } from "~/lib/usage/move.server";
import { app } from "~/server/context.server";
import { jsonError, methodNotAllowed } from "~/server/responses.server";
import { opsNotFound, opsRefusal } from "~/server/ops-auth.server";
import { log } from "~/lib/log/log.server";

export function loader({ context }: Route.LoaderArgs) {
  return app(context).env.OPS_TOKEN ? methodNotAllowed() : opsNotFound();
}

export async function action({ request, context }: Route.ActionArgs) {
  const ctx = app(context);
  const refusal = await opsRefusal(request, ctx.env);
  if (refusal) return refusal;
  if (request.method !== "POST") return methodNotAllowed();
  try {
    // A POST's D1 session starts at the primary (server/d1-session.ts): each step reads what the last one left.
    return Response.json(await moveLegacyUsage(ctx.db, ctx.ledgers), { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    // Nothing of the failed step left D1: the next call moves the same rows again.
    log.error("usage_move_failed", {}, error);
    return jsonError(503, "The move step failed; nothing was lost. Call again.", { "Retry-After": "5" });
  }
}
