// GET /api/v1/entitlements: whether the signed-in account may make a model call now, with its
// plan's limits, what is used and left in each window, and when a refused call may be retried
// (lib/usage/entitlements.server.ts); a team device key also its team's hard caps. The desktop app asks before a call.
import type { Route } from "./+types/index";
import { accountEntitlements } from "~/lib/usage/entitlements.server";
import { requireApiSession } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { getOnly, refuseOptions } from "~/server/responses.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  refuseOptions(request);
  const ctx = app(context);
  const { user, session } = await requireApiSession(request, ctx);
  // A team device key also sees its team's hard caps (ADR 0039).
  const entitlements = await accountEntitlements(ctx, user.id, user.profile, Date.now(), session.client === "desktop" ? session.teamId : null);
  const headers: Record<string, string> = { "Cache-Control": "no-store" };
  if (entitlements.retry_after_seconds !== null) headers["Retry-After"] = String(entitlements.retry_after_seconds);
  return Response.json(entitlements, { headers });
}

export const action = getOnly;
