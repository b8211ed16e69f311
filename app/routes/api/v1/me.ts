// GET /api/v1/me: who the desktop app is signed in as, and whether the account is activated
// (an active subscription or early access, ADR 0012).
import type { Route } from "./+types/me";
import { accountActivation } from "~/lib/early-access/activation.server";
import { requireApiUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { getOnly, refuseOptions } from "~/server/responses.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  refuseOptions(request);
  const ctx = app(context);
  const user = await requireApiUser(request, ctx);
  const activation = await accountActivation(ctx.db, user.id);
  return Response.json(
    {
      id: user.id,
      email: user.email,
      first_name: user.firstName,
      last_name: user.lastName,
      has_active_subscription: activation.subscription,
      has_early_access: activation.earlyAccess,
      early_access_expires_at: activation.earlyAccessExpiresAt === null ? null : new Date(activation.earlyAccessExpiresAt).toISOString(),
      account_activated: activation.activated,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export const action = getOnly;
