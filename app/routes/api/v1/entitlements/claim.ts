// POST /api/v1/entitlements/claim: the desktop app asks before each model call (ADR 0017). A free
// account's claim is decided and counted by its usage ledger, one claim at a time, so parallel
// claims from all its devices get exactly the grants its limits allow: 200 and `granted: true`,
// else 429 with `granted: false` and the real wait in Retry-After (the end of the last exhausted
// window). Subscribers and early-access members are granted at once. No body (or `{}`); no
// per-device rate limit, like GET /api/v1/entitlements: a claim costs what that read costs.
import type { Route } from "./+types/claim";
import { ENTITLEMENTS, FREE_TIER } from "~/lib/constants";
import { claimEntitlement } from "~/lib/usage/entitlements.server";
import { requireApiUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readEmptyBody } from "~/server/requests.server";
import { methodNotAllowed, postOnly, retryAfter } from "~/server/responses.server";

export const loader = postOnly;

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const ctx = app(context);
  const user = await requireApiUser(request, ctx);
  await readEmptyBody(request, ENTITLEMENTS.claimMaxBodyBytes);
  const { granted, entitlements } = await claimEntitlement(ctx, user.id, user.profile);
  if (granted) return Response.json({ granted: true, ...entitlements }, { headers: { "Cache-Control": "no-store" } });
  const wait = entitlements.retry_after_seconds ?? 1;
  return Response.json(
    {
      error: `The free plan's limit is reached (${FREE_TIER.perMinute} requests a minute, ${FREE_TIER.perHour} an hour, ${FREE_TIER.perDay} a day, ${FREE_TIER.requestsPerMonth} requests and ${FREE_TIER.tokensPerMonth} tokens a month). Try again after the time in Retry-After, or upgrade.`,
      granted: false,
      ...entitlements,
    },
    { status: 429, headers: { "Cache-Control": "no-store", ...retryAfter(wait) } },
  );
}
