// POST /api/v1/auth/device: RFC 8628's device authorization request. The desktop app names
// itself and gets a device code to poll /api/v1/auth/token with, and a user code for /device.
import type { Route } from "./+types/device";
import { allowCodeRequest, startDeviceAuthorization } from "~/lib/auth/device-authorization.server";
import { DEVICE_ERRORS } from "~/lib/auth/device-codes";
import { deviceAuthorizationRequestSchema } from "~/lib/auth/device-requests";
import { type AppContext, app } from "~/server/context.server";
import { uncached, withClient } from "~/server/oauth.server";
import { readOAuthBody, requestCountry } from "~/server/requests.server";
import { methodNotAllowed, oauthError, postOnly } from "~/server/responses.server";

export const loader = postOnly;

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  // Its answers carry a device code, or say why none came: no cache keeps any of them.
  return uncached(() => requestCodes(request, app(context)));
}

async function requestCodes(request: Request, ctx: AppContext): Promise<Response> {
  // The client names itself in the body or by HTTP Basic (RFC 8628 3.1, RFC 6749 2.3.1); a wrong one is refused there.
  const body = withClient(request, await readOAuthBody(request));
  if (body instanceof Response) return body;
  const parsed = deviceAuthorizationRequestSchema.safeParse(body);
  if (!parsed.success) return oauthError(400, "invalid_request", parsed.error.issues[0]?.message ?? "Invalid request body");
  const allowance = await allowCodeRequest(ctx.db, ctx.ip);
  if (!allowance.allowed) {
    return oauthError(429, "rate_limited", DEVICE_ERRORS.rate_limited, {}, { "Retry-After": String(allowance.retryAfterSeconds) });
  }
  const { device_name, platform, app_version, app_instance_id } = parsed.data;
  const grant = await startDeviceAuthorization(ctx.db, {
    deviceName: device_name,
    platform,
    appVersion: app_version,
    appInstanceId: app_instance_id,
    country: requestCountry(request),
  });
  const verificationUri = `${ctx.origin}/device`;
  return Response.json({
    device_code: grant.deviceCode,
    user_code: grant.userCode,
    verification_uri: verificationUri,
    verification_uri_complete: `${verificationUri}?code=${grant.userCode}`,
    expires_in: grant.expiresIn,
    interval: grant.interval,
  });
}
