// The OAuth endpoints' answers and the grants of the token endpoint (RFC 6749, RFC 8628): tokens
// and errors never stored by any cache, invalid_client with its Basic challenge, and the client's
// name read from the body or from HTTP Basic. The routes (api/v1/auth/*) only dispatch to these.
import { signIn } from "~/lib/auth/accounts.server";
import { pollDeviceAuthorization } from "~/lib/auth/device-authorization.server";
import { DEVICE_ERRORS } from "~/lib/auth/device-codes";
import { deviceTokenRequestSchema } from "~/lib/auth/device-requests";
import { identifyClient, OAUTH_REALM, REFRESH_REFUSALS } from "~/lib/auth/oauth";
import { refreshSession } from "~/lib/auth/session.server";
import { findUserById } from "~/lib/auth/users.server";
import { apiTokenRequestSchema, refreshTokenGrantRequestSchema } from "~/lib/auth/validation";
import { sessionKeys } from "~/lib/keys";
import type { AppContext } from "./context.server";
import { jsonError, oauthError, retryAfter } from "./responses.server";

/** RFC 6749 5.1: token answers must not be stored; Pragma for HTTP/1.0 caches that ignore Cache-Control. */
const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" } as const;

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
    { headers: NO_STORE },
  );
}

/**
 * An OAuth endpoint's answer, returned or thrown (a body too large, of the wrong type), marked
 * never to be stored: the legacy grant's `{ error }` answers and the body reader's too.
 */
export async function uncached(answer: () => Promise<Response>): Promise<Response> {
  let response: Response;
  try {
    response = await answer();
  } catch (error) {
    if (!(error instanceof Response)) throw error;
    response = error;
  }
  const copy = new Response(response.body, response);
  for (const [name, value] of Object.entries(NO_STORE)) copy.headers.set(name, value);
  return copy;
}

/** RFC 6749 5.2: invalid_client is a 401 with a challenge in the scheme a client may authenticate with. */
function invalidClient(description: string): Response {
  return oauthError(401, "invalid_client", description, {}, { "WWW-Authenticate": `Basic realm="${OAUTH_REALM}"` });
}

/**
 * The body with the client named in it (RFC 6749 2.3.1: client_id in the body, or HTTP Basic
 * with an empty password, merged into client_id), or the refusal when the client is not ours.
 */
export function withClient(request: Request, body: Record<string, unknown>): Record<string, unknown> | Response {
  const client = identifyClient(request.headers.get("Authorization"), body.client_id);
  if (!client.ok) return client.error === "invalid_client" ? invalidClient(client.description) : oauthError(400, "invalid_request", client.description);
  return client.clientId === null ? body : { ...body, client_id: client.clientId };
}

/** RFC 8628 3.4: the app polls with its device code until the user approved it on /device. */
export async function deviceCodeGrant(ctx: AppContext, body: Record<string, unknown>): Promise<Response> {
  const parsed = deviceTokenRequestSchema.safeParse(body);
  if (!parsed.success) return oauthError(400, "invalid_request", parsed.error.issues[0]?.message ?? "Invalid request body");
  const outcome = await pollDeviceAuthorization(ctx, sessionKeys(ctx.env), parsed.data.device_code);
  if (!outcome.ok) return oauthError(400, outcome.error, DEVICE_ERRORS[outcome.error], outcome.interval ? { interval: outcome.interval } : {});
  const user = await findUserById(ctx.db, outcome.userId);
  return tokenResponse(outcome.tokens, { id: outcome.userId, email: user?.email ?? "" }, { device: outcome.device, team: outcome.team });
}

/**
 * RFC 6749 6: a refresh token for new tokens, rotated exactly as /api/v1/auth/refresh rotates it.
 * Every refusal is invalid_grant (the app signs in again), a concurrent rotation included: the
 * request that won it holds the newest refresh token.
 */
export async function refreshTokenGrant(ctx: AppContext, body: Record<string, unknown>): Promise<Response> {
  const parsed = refreshTokenGrantRequestSchema.safeParse(body);
  if (!parsed.success) return oauthError(400, "invalid_request", parsed.error.issues[0]?.message ?? "Invalid request body");
  const result = await refreshSession(ctx, sessionKeys(ctx.env), parsed.data.refresh_token);
  if (!result.ok) return oauthError(400, "invalid_grant", REFRESH_REFUSALS[result.reason]);
  if (!result.refreshToken) return oauthError(400, "invalid_grant", REFRESH_REFUSALS.rotated);
  return tokenResponse({ ...result, refreshToken: result.refreshToken }, { id: result.auth.user.id, email: result.auth.user.email });
}

/** LEGACY (ADR 0018): e-mail and password, for app versions from before the device grant. */
export async function passwordGrant(ctx: AppContext, body: Record<string, unknown>): Promise<Response> {
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
