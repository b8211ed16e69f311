// GET /api/v1/me: who the desktop app is signed in as, and whether the subscription is active.
import type { Route } from "./+types/api.v1.me";
import { hasActiveSubscription } from "~/lib/subscriptions.server";
import { requireApiUser } from "~/server/auth";
import { app } from "~/server/context";
import { getOnly } from "~/server/http";

export async function loader({ request, context }: Route.LoaderArgs) {
  const ctx = app(context);
  const user = await requireApiUser(request, ctx);
  const active = await hasActiveSubscription(ctx.db, user.id);
  return Response.json(
    { id: user.id, email: user.email, first_name: user.firstName, last_name: user.lastName, has_active_subscription: active },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export const action = getOnly;
