// POST /api/v1/auth/token: the desktop app's tokens (RFC 6749 3.2). The device code grant
// (RFC 8628): the app polls here until the user approves it on /device. The refresh grant
// (RFC 6749 6), as standard OAuth libraries refresh. Legacy: e-mail + password, for app versions
// from before the device grant (documented as deprecated in the OpenAPI file).
import type { Route } from "./+types/token";
import { DEVICE_CODE_GRANT, DEVICE_ERRORS } from "~/lib/auth/device-codes";
import { PASSWORD_GRANT, REFRESH_TOKEN_GRANT } from "~/lib/auth/oauth";
import { app } from "~/server/context.server";
import { deviceCodeGrant, passwordGrant, refreshTokenGrant, uncached, withClient } from "~/server/oauth.server";
import { readOAuthBody } from "~/server/requests.server";
import { methodNotAllowed, oauthError, postOnly } from "~/server/responses.server";

export const loader = postOnly;

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  return uncached(async () => {
    const body = withClient(request, await readOAuthBody(request));
    if (body instanceof Response) return body;
    const ctx = app(context);
    if (body.grant_type === DEVICE_CODE_GRANT) return deviceCodeGrant(ctx, body);
    if (body.grant_type === REFRESH_TOKEN_GRANT) return refreshTokenGrant(ctx, body);
    if (body.grant_type === undefined || body.grant_type === PASSWORD_GRANT) return passwordGrant(ctx, body);
    return oauthError(400, "unsupported_grant_type", DEVICE_ERRORS.unsupported_grant_type);
  });
}
