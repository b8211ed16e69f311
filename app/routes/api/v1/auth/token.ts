// POST /api/v1/auth/token: the desktop app's tokens. The device code grant (RFC 8628): the app
// polls here until the user approves it on /device. Legacy: e-mail + password, for app versions
// from before the device grant (documented as deprecated in the OpenAPI file).
import type { Route } from "./+types/token";
import { signIn } from "~/lib/auth/accounts.server";
import { pollDeviceAuthorization } from "~/lib/auth/device-authorization.server";
import { DEVICE_CODE_GRANT, DEVICE_ERRORS, deviceTokenRequestSchema } from "~/lib/auth/device-codes";
import { findUserById } from "~/lib/auth/users.server";
import { apiTokenRequestSchema } from "~/lib/auth/validation";
import { DEVICE_AUTH } from "~/lib/constants";
import { sessionKeys } from "~/lib/keys";
import { app } from "~/server/context";
import { readOAuthBody } from "~/server/requests";
import { jsonError, methodNotAllowed, oauthError, postOnly, retryAfter } from "~/server/responses";

export const loader = postOnly;

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const body = await readOAuthBody(request);
  const ctx = app(context);

  if (body.grant_type === DEVICE_CODE_GRANT) {
    const parsed = deviceTokenRequestSchema.safeParse(body);
    if (!parsed.success) return oauthError(400, "invalid_request", parsed.error.issues[0]?.message ?? "Invalid request body");
    if (parsed.data.client_id !== DEVICE_AUTH.clientId) return oauthError(401, "invalid_client", DEVICE_ERRORS.invalid_client);
    const outcome = await pollDeviceAuthorization(ctx.db, sessionKeys(ctx.env), parsed.data.device_code);
    if (!outcome.ok) {
      return oauthError(400, outcome.error, DEVICE_ERRORS[outcome.error], outcome.interval ? { interval: outcome.interval } : {});
    }
    const user = await findUserById(ctx.db, outcome.userId);
    return tokenResponse(outcome.tokens, { id: outcome.userId, email: user?.email ?? "" }, { device: outcome.device });
  }
  if (body.grant_type !== undefined && body.grant_type !== "password") {
    return oauthError(400, "unsupported_grant_type", DEVICE_ERRORS.unsupported_grant_type);
  }

  const parsed = apiTokenRequestSchema.safeParse(body);
  if (!parsed.success) return jsonError(400, parsed.error.issues[0]?.message ?? "Invalid request body");
  const { two_factor_code: twoFactorCode, ...credentials } = parsed.data;
  const outcome = await signIn(ctx, { ...credentials, twoFactorCode, client: "desktop" });
  // Two-factor on: an OAuth-style error names what the app must ask the user for.
  if (!outcome.ok && "twoFactor" in outcome) {
    return oauthError(401, outcome.twoFactor === "required" ? "two_factor_required" : "invalid_two_factor_code", outcome.error);
  }
  if (!outcome.ok) return jsonError(outcome.status, outcome.error, outcome.retryAfterSeconds ? retryAfter(outcome.retryAfterSeconds) : undefined);
  return tokenResponse(outcome.tokens, { id: outcome.user.id, email: outcome.user.email });
}

export function tokenResponse(
  tokens: { accessToken: string; refreshToken: string; accessExpiresAt: number },
  user: { id: string; email: string },
  extra: Record<string, unknown> = {},
  now = Date.now(),
) {
  return Response.json(
    {
      token_type: "Bearer",
      access_token: tokens.accessToken,
      expires_in: Math.round((tokens.accessExpiresAt - now) / 1000),
      refresh_token: tokens.refreshToken,
      user,
      ...extra,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}
