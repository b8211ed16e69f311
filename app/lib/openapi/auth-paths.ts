// The desktop sign-in in the API description: the device grant (RFC 8628), its token endpoint
// (with the refresh token grant and the LEGACY password grant) and the JSON refresh route.
import { DEVICE_CODE_GRANT } from "../auth/device-codes";
import { deviceAuthorizationRequestSchema, deviceTokenRequestSchema } from "../auth/device-requests";
import { apiRefreshRequestSchema, apiTokenRequestSchema, refreshTokenGrantRequestSchema } from "../auth/validation";
import { DEVICE_AUTH, REQUEST_BODY, TWO_FACTOR } from "../constants";
import { formatDuration } from "../format";
import { z } from "../zod";
import { answer, bodyRefusals, type Examples, ERROR, jsonRequest, oauthRequest, RETRY_AFTER, TOKEN_CACHE_HEADERS, UNAVAILABLE } from "./parts";
import { deviceAuthorizationBody, grantedTokensBody, oauthErrorBody, schemaOf, tokenGrantErrorBody, tokensBody } from "./schemas";

const OAUTH_TYPES = "application/x-www-form-urlencoded or application/json";
const BASIC_CHALLENGE = { description: "With invalid_client when the client id came by HTTP Basic (RFC 6749 5.2)", schema: { type: "string" } };
const CLIENT_ID = DEVICE_AUTH.clientId;

// The legacy grant, as the token route reads it: no grant_type, or "password".
const passwordGrantRequestSchema = apiTokenRequestSchema.extend({ grant_type: z.literal("password").optional() }).meta({
  title: "Password grant (LEGACY, deprecated)",
  description:
    "LEGACY: kept for app versions released before the device grant; new versions must use the device grant: the app never sees the password, and each device gets its own revocable key. Sent as JSON.",
  deprecated: true,
});
const deviceGrantRequestSchema = deviceTokenRequestSchema.meta({
  title: "Device code grant",
  description: `RFC 8628 3.4: poll with the device_code from /api/v1/auth/device every interval seconds; client_id is "${CLIENT_ID}".`,
});
// RFC 6749 6: the token route's own schema, with the words a reader needs.
const refreshGrantRequestSchema = refreshTokenGrantRequestSchema
  .extend({
    client_id: refreshTokenGrantRequestSchema.shape.client_id.meta({
      description: `"${CLIENT_ID}", here or by HTTP Basic (Authorization: Basic with "${CLIENT_ID}:" in base64, RFC 6749 2.3.1)`,
    }),
  })
  .meta({ title: "Refresh token grant", description: "RFC 6749 6: a refresh token for a new access token and a new refresh token (each usable once)." });

const DEVICE_EXAMPLE = {
  client_id: CLIENT_ID,
  device_name: "Ada's MacBook Pro",
  platform: "macos",
  app_version: "1.4.2",
  app_instance_id: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
};
const deviceExamples: Examples = { device: { summary: "A Mac asks to sign in", value: DEVICE_EXAMPLE } };
const TOKEN_EXAMPLES = {
  deviceGrant: {
    summary: "Device code grant: poll for the tokens",
    value: { grant_type: DEVICE_CODE_GRANT, device_code: "GmRhmhcxhwAzkoEqiMEg_DnyEysNkuNhszIySk9eS", client_id: CLIENT_ID },
  },
  refreshGrant: {
    summary: "Refresh token grant: new tokens for the refresh token",
    value: { grant_type: "refresh_token", refresh_token: "rt_8xLOxBtZp8", client_id: CLIENT_ID },
  },
} satisfies Examples;
const passwordExample: Examples = {
  passwordGrant: { summary: "LEGACY password grant (deprecated)", value: { email: "ada@example.com", password: "correct horse battery staple" } },
};

function deviceOperation() {
  return {
    operationId: "startDeviceAuthorization",
    tags: ["Sign-in"],
    summary: "Start the desktop sign-in: device authorization request (RFC 8628 3.1)",
    description: `The app names the device and gets a device code to poll /api/v1/auth/token with, and a user code the user enters on the /device page in the browser. The page shows the user when the code was requested and from which country (the request's, as Cloudflare sees it), so ask for codes only when the user starts a sign-in. At most ${DEVICE_AUTH.requestsPerIp.max} requests per client address in ${formatDuration(DEVICE_AUTH.requestsPerIp.windowMs, "minute")}.`,
    security: [],
    requestBody: oauthRequest(
      { schema: schemaOf(deviceAuthorizationRequestSchema, "input"), examples: deviceExamples },
      { schema: schemaOf(deviceAuthorizationRequestSchema, "input"), examples: deviceExamples },
    ),
    responses: {
      "200": answer("Codes", deviceAuthorizationBody, { "Cache-Control": TOKEN_CACHE_HEADERS["Cache-Control"]! }),
      "400": answer(
        "invalid_request: a field is missing or invalid, the body is not JSON or not a JSON object, or a form field is repeated",
        oauthErrorBody(["invalid_request"]),
      ),
      "401": answer(`invalid_client: client_id is not "${CLIENT_ID}"`, oauthErrorBody(["invalid_client"]), { "WWW-Authenticate": BASIC_CHALLENGE }),
      ...bodyRefusals(REQUEST_BODY.jsonMaxBytes, OAUTH_TYPES, oauthErrorBody(["invalid_request"])),
      "429": answer(
        `rate_limited: over ${DEVICE_AUTH.requestsPerIp.max} requests per client address in ${formatDuration(DEVICE_AUTH.requestsPerIp.windowMs, "minute")}; see Retry-After`,
        oauthErrorBody(["rate_limited"]),
        { "Retry-After": RETRY_AFTER },
      ),
      "503": UNAVAILABLE,
    },
  };
}

const TOKEN_400 = `Device code grant, RFC 8628 3.5: authorization_pending (not approved yet: poll again after interval seconds), slow_down (polled too soon: the body's interval is the new interval, ${DEVICE_AUTH.slowDownSeconds} s more for every slow_down; keep it), access_denied (the user denied the device: stop), expired_token (the code expired: start again with /api/v1/auth/device), invalid_grant (unknown or already used device code: start again). Refresh token grant: invalid_grant (the refresh token is unknown, expired, already used or its session ended: sign in again). Any grant: invalid_request (a field is missing or invalid, or the body is not JSON), unsupported_grant_type (none of the grants). LEGACY password grant: { error } for an invalid body.`;
const TOKEN_401 = `invalid_client: client_id is not "${CLIENT_ID}" (with WWW-Authenticate when it came by HTTP Basic). LEGACY password grant: bad credentials, as { error }; for an account with two-factor sign-in on, the right password without two_factor_code answers two_factor_required (ask the user for the ${TWO_FACTOR.digits}-digit code from the authenticator app, or a recovery code, and send the request again with it in two_factor_code), and a wrong or already used code answers invalid_two_factor_code. Wrong codes count toward the account's lock (429).`;

function tokenOperation() {
  return {
    operationId: "requestTokens",
    tags: ["Sign-in"],
    summary: "Get tokens: the device code grant, the refresh token grant, or the LEGACY (deprecated) e-mail and password grant",
    description: `Device code grant (RFC 8628 3.4), for every current app version: grant_type "${DEVICE_CODE_GRANT}", the device_code from /api/v1/auth/device and client_id "${CLIENT_ID}"; poll every interval seconds until the user approves the device on /device. Refresh token grant (RFC 6749 6): grant_type "refresh_token" and the refresh token, for new tokens. Both form-encoded (as OAuth libraries send) or JSON; the client id in the body or by HTTP Basic (RFC 6749 2.3.1, an empty password). Password grant, LEGACY and deprecated: e-mail and password as JSON (and two_factor_code when the account has two-factor sign-in on), with no grant_type or grant_type "password"; kept for app versions released before the device grant; new versions must use the device grant: the app never sees the password, and each device gets its own revocable key.`,
    security: [],
    requestBody: oauthRequest(
      {
        schema: {
          oneOf: [schemaOf(deviceGrantRequestSchema, "input"), schemaOf(refreshGrantRequestSchema, "input"), schemaOf(passwordGrantRequestSchema, "input")],
        },
        examples: { ...TOKEN_EXAMPLES, ...passwordExample },
      },
      { schema: { oneOf: [schemaOf(deviceGrantRequestSchema, "input"), schemaOf(refreshGrantRequestSchema, "input")] }, examples: TOKEN_EXAMPLES },
    ),
    responses: {
      "200": answer("Tokens; with the device code grant also the device", grantedTokensBody, TOKEN_CACHE_HEADERS),
      "400": answer(TOKEN_400, z.union([tokenGrantErrorBody, z.object({ error: z.string() })])),
      "401": answer(
        TOKEN_401,
        z.union([oauthErrorBody(["invalid_client", "two_factor_required", "invalid_two_factor_code"]), z.object({ error: z.string() })]),
        {
          "WWW-Authenticate": BASIC_CHALLENGE,
        },
      ),
      "403": answer("LEGACY password grant: e-mail not confirmed", ERROR),
      ...bodyRefusals(REQUEST_BODY.jsonMaxBytes, OAUTH_TYPES, oauthErrorBody(["invalid_request"])),
      "429": answer("LEGACY password grant: locked after wrong passwords or codes; see Retry-After", ERROR, {
        "Retry-After": { ...RETRY_AFTER, required: false },
      }),
      "503": UNAVAILABLE,
    },
  };
}

function refreshOperation() {
  return {
    operationId: "refreshTokens",
    tags: ["Sign-in"],
    summary: "Exchange a refresh token for new tokens (JSON)",
    description:
      "The refresh of the app versions that call it; OAuth libraries use the token endpoint's refresh token grant (RFC 6749 6), which does the same. Each refresh token is usable once: the answer carries the next one.",
    security: [],
    requestBody: jsonRequest(apiRefreshRequestSchema, {
      refresh: { summary: "The refresh token of the last answer", value: { refresh_token: "rt_8xLOxBtZp8" } },
    }),
    responses: {
      "200": answer("Tokens", tokensBody, TOKEN_CACHE_HEADERS),
      "400": answer("Invalid body: not JSON, not an object, or refresh_token missing or too long", ERROR),
      "401": answer("Invalid, expired or signed-out session: sign in again", ERROR),
      "409": answer("The token was just rotated by a concurrent refresh: use the newest refresh token", ERROR),
      ...bodyRefusals(REQUEST_BODY.jsonMaxBytes, "application/json"),
      "503": UNAVAILABLE,
    },
  };
}

export function authPaths() {
  return {
    "/api/v1/auth/device": { post: deviceOperation() },
    "/api/v1/auth/token": { post: tokenOperation() },
    "/api/v1/auth/refresh": { post: refreshOperation() },
  };
}
