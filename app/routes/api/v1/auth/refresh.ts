// POST /api/v1/auth/refresh: a refresh token → a new access token and a new refresh token. Kept
// for app versions from before the token endpoint took grant_type=refresh_token (issue 30).
import { REFRESH_REFUSALS } from "~/lib/auth/oauth";
import { apiRefreshRequestSchema } from "~/lib/auth/validation";
import type { Route } from "./+types/refresh";
import { refreshSession } from "~/lib/auth/session.server";
import { sessionKeys } from "~/lib/keys";
import { app } from "~/server/context.server";
import { tokenResponse } from "~/server/oauth.server";
import { readJson } from "~/server/requests.server";
import { jsonError, methodNotAllowed, postOnly } from "~/server/responses.server";

export const loader = postOnly;

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const parsed = apiRefreshRequestSchema.safeParse(await readJson(request));
  if (!parsed.success) return jsonError(400, parsed.error.issues[0]?.message ?? "Invalid request body");
  const deps = app(context);
  const result = await refreshSession(deps, sessionKeys(deps.env), parsed.data.refresh_token);
  if (!result.ok) return jsonError(401, REFRESH_REFUSALS[result.reason]);
  // A concurrent refresh already rotated this token: the caller must use the newer one.
  if (!result.refreshToken) return jsonError(409, REFRESH_REFUSALS.rotated);
  return tokenResponse({ ...result, refreshToken: result.refreshToken }, { id: result.auth.user.id, email: result.auth.user.email });
}
