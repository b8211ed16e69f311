// POST /api/v1/auth/refresh: a refresh token → a new access token and a new refresh token.
import { apiRefreshRequestSchema } from "~/lib/auth/validation";
import type { Route } from "./+types/refresh";
import { refreshSession } from "~/lib/auth/session.server";
import { sessionKeys } from "~/lib/keys";
import { app } from "~/server/context";
import { readJson } from "~/server/requests";
import { jsonError, methodNotAllowed, postOnly } from "~/server/responses";
import { tokenResponse } from "./token";

const REASONS = {
  unknown: "Invalid refresh token",
  revoked: "Session has been signed out",
  expired: "Session has expired. Please sign in again.",
  inactive: "Signed out after 30 days without a sign-in. Please sign in again.",
  reused: "Refresh token was already used; the session has been signed out for safety",
} as const;

export const loader = postOnly;

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const parsed = apiRefreshRequestSchema.safeParse(await readJson(request));
  if (!parsed.success) return jsonError(400, parsed.error.issues[0]?.message ?? "Invalid request body");
  const { db, env } = app(context);
  const result = await refreshSession(db, sessionKeys(env), parsed.data.refresh_token);
  if (!result.ok) return jsonError(401, REASONS[result.reason]);
  // A concurrent refresh already rotated this token: the caller must use the newer one.
  if (!result.refreshToken) return jsonError(409, "Refresh token was just rotated by another request; use the newest refresh token");
  return tokenResponse({ ...result, refreshToken: result.refreshToken }, { id: result.auth.user.id, email: result.auth.user.email });
}
