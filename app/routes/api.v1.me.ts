// GET /api/v1/me: who the desktop app is signed in as, and whether the subscription is active.
import type { Route } from "./+types/api.v1.me";
import { getOnly, requireApiUser } from "~/lib/api.server";
import { getCloudflare } from "~/lib/auth/request.server";
import { getDb } from "~/lib/db.server";
import { hasActiveSubscription } from "~/lib/subscriptions.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireApiUser(request, context);
  const active = await hasActiveSubscription(getDb(getCloudflare(context).env.DB), user.id);
  return Response.json(
    { id: user.id, email: user.email, first_name: user.firstName, last_name: user.lastName, has_active_subscription: active },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export const action = getOnly;
