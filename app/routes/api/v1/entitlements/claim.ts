// POST /api/v1/entitlements/claim: the desktop app asks before each model call (ADR 0017, 0032). A
// free account's claim, and any claim of an account with hard caps, is decided and counted by its
// usage ledger, one claim at a time, so parallel claims from all its devices get exactly the grants
// its limits and caps allow: 200 with `granted: true` and a `claim_id` (the call's report sends it
// back, which ends the claim's hold on the caps), else 429 with `granted: false` and the real wait
// in Retry-After (the end of the last exhausted window, or the refusing cap's reset). Other
// subscribers and early-access members are granted at once. The body is optional: the call's
// estimated cost, model and provider. No per-device rate limit, like GET /api/v1/entitlements: a
// claim costs what that read costs.
import type { Route } from "./+types/claim";
import { ENTITLEMENTS, FREE_TIER } from "~/lib/constants";
import type { CapEntitlement } from "~/lib/usage/caps";
import { claimBodySchema, claimTarget } from "~/lib/usage/claim";
import { claimEntitlement } from "~/lib/usage/entitlements.server";
import { problemsFrom } from "~/lib/usage/report";
import { requireApiSession } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readOptionalJson } from "~/server/requests.server";
import { withProblems } from "~/server/usage-api.server";
import { methodNotAllowed, postOnly, retryAfter } from "~/server/responses.server";

export const loader = postOnly;

const FREE_TIER_REACHED = `The free plan's limit is reached (${FREE_TIER.perMinute} requests a minute, ${FREE_TIER.perHour} an hour, ${FREE_TIER.perDay} a day, ${FREE_TIER.requestsPerMonth} requests and ${FREE_TIER.tokensPerMonth} tokens a month). Try again after the time in Retry-After, or upgrade.`;

function capReached(cap: CapEntitlement): string {
  if (cap.team !== undefined) {
    const what = cap.kind === "member" ? "your own spending in the team" : `the team's ${cap.kind} budget`;
    return `The hard cap of $${cap.limit_usd} on ${what} (team ${cap.team}) is reached, or this call's estimate does not fit under it. Try again after the time in Retry-After (${cap.resets_at}), or ask the team's owner or an admin to raise it.`;
  }
  const what = cap.kind === "model" ? `model ${cap.model} (${cap.provider})` : cap.kind === "device" ? "this device" : `${cap.kind} budget`;
  return `The hard cap of $${cap.limit_usd} on your ${what} is reached, or this call's estimate does not fit under it. Try again after the time in Retry-After (${cap.resets_at}), or raise the cap in the dashboard.`;
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const ctx = app(context);
  const { user, session } = await requireApiSession(request, ctx);
  // Every 400 carries `problems`, as the usage routes' do: a body that is no JSON too.
  const body = await readOptionalJson(request, ENTITLEMENTS.claimMaxBodyBytes).catch(async (error: unknown) => {
    throw await withProblems(error);
  });
  const parsed = claimBodySchema.safeParse(body === undefined ? {} : body);
  if (!parsed.success) {
    const problems = problemsFrom(parsed.error, false);
    return Response.json({ error: `Invalid claim: ${problems[0]!.message}`, problems }, { status: 400, headers: { "Cache-Control": "no-store" } });
  }
  const target = claimTarget(parsed.data, session.client === "desktop" ? session.id : null);
  // A team device key's claim also meets its team's hard caps (ADR 0039).
  const outcome = await claimEntitlement(ctx, user.id, user.profile, Date.now(), target, session.client === "desktop" ? session.teamId : null);
  if (outcome.granted) {
    return Response.json({ granted: true, claim_id: outcome.claimId, ...outcome.entitlements }, { headers: { "Cache-Control": "no-store" } });
  }
  return Response.json(
    {
      error: outcome.refusedBy ? capReached(outcome.refusedBy) : FREE_TIER_REACHED,
      granted: false,
      ...(outcome.refusedBy && { cap: outcome.refusedBy }),
      ...outcome.entitlements,
    },
    { status: 429, headers: { "Cache-Control": "no-store", ...retryAfter(outcome.retryAfterSeconds ?? 1) } },
  );
}
