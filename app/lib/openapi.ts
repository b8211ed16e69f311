// The desktop API, described for the app's developers (served at /api/v1/openapi.json).
// Request bodies are generated from the very zod schemas the routes validate with, so the
// description cannot drift from what the API accepts; rules across fields, which JSON Schema
// cannot express, are in those schemas' descriptions.
import { z } from "./zod";
import { DEVICE_CODE_GRANT, DEVICE_PLATFORMS, deviceAuthorizationRequestSchema, deviceTokenRequestSchema } from "./auth/device-codes";
import { apiRefreshRequestSchema, apiTokenRequestSchema } from "./auth/validation";
import { DEVICE_AUTH, ENTITLEMENTS, FREE_TIER, SESSION, USAGE_API } from "./constants";
import { secureReportSchema, usageBatchSchema, usageReportSchema } from "./usage/report";

// What the routes answer. They build these bodies by hand, so the shapes live here.
const errorBody = z.object({ error: z.string() });
const tokensBody = z.object({
  token_type: z.literal("Bearer"),
  access_token: z.string().meta({ description: `JWT, valid ${SESSION.accessTokenTtlMs / 60_000} minutes` }),
  expires_in: z
    .number()
    .int()
    .meta({ example: SESSION.accessTokenTtlMs / 1000 }),
  refresh_token: z.string().meta({ description: "Single use: each refresh returns a new one" }),
  user: z.object({ id: z.string(), email: z.string() }),
});
const grantedTokensBody = tokensBody.extend({
  device: z
    .object({
      id: z.string().meta({ description: "The device key's id: the session the dashboard lists and can revoke" }),
      name: z.string(),
      platform: z.enum(DEVICE_PLATFORMS),
      app_version: z.string(),
    })
    .optional()
    .meta({ description: "Device code grant only: the device this key belongs to" }),
});
const deviceAuthorizationBody = z.object({
  device_code: z.string().meta({ description: "Secret: the app keeps it, polls /api/v1/auth/token with it and never shows it" }),
  user_code: z.string().meta({
    description: `What the user enters on the /device page: ${DEVICE_AUTH.userCodeLength} letters shown as XXXX-XXXX (case, spaces and dashes don't matter)`,
    example: "BCDF-GHJK",
  }),
  verification_uri: z.string().meta({ description: "The /device page: the app shows it with the user code, or opens it in the browser" }),
  verification_uri_complete: z.string().meta({
    description:
      "The /device page with the user code filled in (?code=…). Open it in the browser straight from the app (not through another web page): the page then shows the device at once and the user only checks the code and approves. Reached from another site, the page only fills the code in and the user confirms it first, so that no site can spend the user's wrong-code attempts.",
  }),
  expires_in: z
    .number()
    .int()
    .meta({ description: "Seconds both codes stay valid", example: DEVICE_AUTH.codeTtlMs / 1000 }),
  interval: z.number().int().meta({ description: "Seconds to wait between polls of /api/v1/auth/token", example: DEVICE_AUTH.pollIntervalSeconds }),
});
/** RFC 6749 5.2 errors of the OAuth endpoints: a code to act on and words the app can show. */
const oauthErrorBody = (codes: readonly [string, ...string[]]) =>
  z.object({ error: z.enum(codes), error_description: z.string().meta({ description: "Words the app can show" }) });
const DEVICE_GRANT_ERRORS = [
  "authorization_pending",
  "slow_down",
  "access_denied",
  "expired_token",
  "invalid_grant",
  "invalid_request",
  "unsupported_grant_type",
] as const;
const deviceGrantErrorBody = oauthErrorBody(DEVICE_GRANT_ERRORS).extend({
  interval: z
    .number()
    .int()
    .optional()
    .meta({
      description: `With slow_down only: the new polling interval in seconds (RFC 8628 3.5: ${DEVICE_AUTH.slowDownSeconds} s more for every slow_down), to keep for the rest of this code's life`,
    }),
});
// The legacy grant, as the token route reads it: no grant_type, or "password".
const passwordGrantRequestSchema = apiTokenRequestSchema.extend({ grant_type: z.literal("password").optional() }).meta({
  title: "Password grant (LEGACY, deprecated)",
  description:
    "LEGACY: kept for app versions released before the device grant; new versions must use the device grant: the app never sees the password, and each device gets its own revocable key. Sent as JSON.",
  deprecated: true,
});
const deviceGrantRequestSchema = deviceTokenRequestSchema.meta({
  title: "Device code grant",
  description: `RFC 8628 3.4: poll with the device_code from /api/v1/auth/device every interval seconds; client_id is "${DEVICE_AUTH.clientId}".`,
});
const sessionEndedCode = z.literal("session_ended").optional().meta({
  description:
    "The device's key was revoked (in the dashboard, by a password reset, or replaced by a new sign-in of the same installation): show the error text and start the device sign-in again; refreshing will not help",
});
const bearerAuthErrorBody = z.object({ error: z.string(), code: sessionEndedCode });
const accountBody = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  has_active_subscription: z.boolean(),
  has_early_access: z.boolean(),
  early_access_expires_at: z.string().nullable().meta({ description: "ISO 8601, while early access is active" }),
  account_activated: z.boolean().meta({ description: "Early access or an active subscription: what unlocks the app" }),
});
const problemsBody = z.object({
  error: z.string(),
  problems: z.array(z.object({ index: z.number().int().nullable(), path: z.string(), message: z.string() })),
});
const acceptedBody = z.object({ accepted: z.number().int() });
const entitlementsBody = z.object({
  plan: z.enum(["free", "premium", "early_access"]),
  unlimited: z.boolean().meta({ description: "Subscribers and early-access members have no limits" }),
  allowed: z.boolean().meta({ description: "Whether a model call may be made now" }),
  retry_after_seconds: z
    .number()
    .int()
    .nullable()
    .meta({ description: "When not allowed: seconds until every exhausted window has ended (also in Retry-After)" }),
  allowed_at: z.iso.datetime().nullable(),
  windows: z.array(
    z.object({
      window: z.enum(["minute", "hour", "day", "month"]).meta({ description: "Calendar windows in UTC" }),
      unit: z.enum(["requests", "tokens"]),
      limit: z.number().int().nullable().meta({ description: "null: no limit on this plan" }),
      used: z.number().int(),
      remaining: z.number().int().nullable(),
      resets_at: z.iso.datetime(),
    }),
  ),
});
const claimGrantedBody = entitlementsBody.extend({
  granted: z.literal(true).meta({ description: "Make the model call" }),
});
const claimRefusedBody = entitlementsBody.extend({
  error: z.string().meta({ description: "Words the app can show" }),
  granted: z.literal(false).meta({ description: "Do not make the call: claim again after Retry-After seconds" }),
});

/** JSON Schema (2020-12, as OpenAPI 3.1 uses) of what a client sends, or of what it receives. */
function schemaOf(schema: z.ZodType, io: "input" | "output") {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  return json;
}
const request = (schema: z.ZodType) => ({ required: true, content: { "application/json": { schema: schemaOf(schema, "input") } } });
/** The OAuth endpoints read RFC 6749's form encoding as well as JSON. */
const oauthRequest = (json: object, form: z.ZodType) => ({
  required: true,
  content: { "application/json": { schema: json }, "application/x-www-form-urlencoded": { schema: schemaOf(form, "input") } },
});
const body = (description: string, schema?: z.ZodType) =>
  schema ? { description, content: { "application/json": { schema: schemaOf(schema, "output") } } } : { description };

const BEARER_UNAUTHORIZED =
  'Missing or invalid token; with code "session_ended", the device\'s key was revoked (in the dashboard, by a password reset, or replaced by a new sign-in of the same installation): show the error text and start the device sign-in again';
const FREE_TIER_LIMITS = `${FREE_TIER.perMinute} requests a minute, ${FREE_TIER.perHour} an hour, ${FREE_TIER.perDay} a day, ${FREE_TIER.requestsPerMonth} requests and ${FREE_TIER.tokensPerMonth} tokens a month`;
const USAGE_RATE_LIMITED = `Over ${USAGE_API.requestsPerMinute} requests per minute per device key (each signed-in device has its own; not per account); see Retry-After`;

/** The desktop sign-in: the device grant, its token endpoint (with the legacy password grant) and refresh. */
function authPaths() {
  return {
    "/api/v1/auth/device": {
      post: {
        summary: "Start the desktop sign-in: device authorization request (RFC 8628 3.1)",
        description: `The app names the device and gets a device code to poll /api/v1/auth/token with, and a user code the user enters on the /device page in the browser. The page shows the user when the code was requested and from which country (the request's, as Cloudflare sees it), so ask for codes only when the user starts a sign-in. At most ${DEVICE_AUTH.requestsPerIp.max} requests per client address in ${DEVICE_AUTH.requestsPerIp.windowMs / 60_000} minutes.`,
        requestBody: oauthRequest(schemaOf(deviceAuthorizationRequestSchema, "input"), deviceAuthorizationRequestSchema),
        responses: {
          "200": body("Codes", deviceAuthorizationBody),
          "400": body("invalid_request: a field is missing or invalid", oauthErrorBody(["invalid_request"])),
          "401": body(`invalid_client: client_id is not "${DEVICE_AUTH.clientId}"`, oauthErrorBody(["invalid_client"])),
          "415": body("invalid_request: the body is neither JSON nor form-encoded", oauthErrorBody(["invalid_request"])),
          "429": body(
            `rate_limited: over ${DEVICE_AUTH.requestsPerIp.max} requests per client address in ${DEVICE_AUTH.requestsPerIp.windowMs / 60_000} minutes; see Retry-After`,
            oauthErrorBody(["rate_limited"]),
          ),
        },
      },
    },
    "/api/v1/auth/token": {
      post: {
        summary: "Get tokens: the device code grant, or the LEGACY (deprecated) e-mail and password grant",
        description: `Two grants. Device code grant (RFC 8628 3.4), for every current app version: grant_type "${DEVICE_CODE_GRANT}", the device_code from /api/v1/auth/device and client_id "${DEVICE_AUTH.clientId}", form-encoded or JSON; poll every interval seconds until the user approves the device on /device. Password grant, LEGACY and deprecated: e-mail and password as JSON (and two_factor_code when the account has two-factor sign-in on), with no grant_type or grant_type "password"; kept for app versions released before the device grant; new versions must use the device grant: the app never sees the password, and each device gets its own revocable key.`,
        requestBody: oauthRequest(
          { oneOf: [schemaOf(deviceGrantRequestSchema, "input"), schemaOf(passwordGrantRequestSchema, "input")] },
          deviceGrantRequestSchema,
        ),
        responses: {
          "200": body("Tokens; with the device code grant also the device", grantedTokensBody),
          "400": body(
            `Device code grant, RFC 8628 3.5: authorization_pending (not approved yet: poll again after interval seconds), slow_down (polled too soon: the body's interval is the new interval, ${DEVICE_AUTH.slowDownSeconds} s more for every slow_down; keep it), access_denied (the user denied the device: stop), expired_token (the code expired: start again with /api/v1/auth/device), invalid_grant (unknown or already used device code: start again), invalid_request (a field is missing or invalid), unsupported_grant_type (neither grant). LEGACY password grant: { error } for an invalid body.`,
            z.union([deviceGrantErrorBody, errorBody]),
          ),
          "401": body(
            `Device code grant: invalid_client (client_id is not "${DEVICE_AUTH.clientId}"). LEGACY password grant: bad credentials, as { error }; for an account with two-factor sign-in on, the right password without two_factor_code answers two_factor_required (ask the user for the 6-digit code from the authenticator app, or a recovery code, and send the request again with it in two_factor_code), and a wrong or already used code answers invalid_two_factor_code. Wrong codes count toward the account's lock (429).`,
            z.union([oauthErrorBody(["invalid_client", "two_factor_required", "invalid_two_factor_code"]), errorBody]),
          ),
          "403": body("LEGACY password grant: e-mail not confirmed", errorBody),
          "415": body("invalid_request: the body is neither JSON nor form-encoded", oauthErrorBody(["invalid_request"])),
          "429": body("LEGACY password grant: locked; see Retry-After", errorBody),
        },
      },
    },
    "/api/v1/auth/refresh": {
      post: {
        summary: "Exchange a refresh token for new tokens",
        requestBody: request(apiRefreshRequestSchema),
        responses: {
          "200": body("Tokens", tokensBody),
          "400": body("Invalid body", errorBody),
          "401": body("Invalid, expired or signed-out session", errorBody),
          "409": body("Token was just rotated by a concurrent refresh", errorBody),
        },
      },
    },
  };
}

/** The account and what it may do: /me, entitlements and the claim before each model call. */
function accountPaths() {
  return {
    "/api/v1/me": {
      get: {
        summary: "The signed-in account",
        security: [{ bearer: [] }],
        responses: { "200": body("Account", accountBody), "401": body(BEARER_UNAUTHORIZED, bearerAuthErrorBody) },
      },
    },
    "/api/v1/entitlements": {
      get: {
        summary: `What the account may do now, for display: the free tier allows ${FREE_TIER_LIMITS}. Before a model call, claim it with POST /api/v1/entitlements/claim.`,
        description:
          "Requests in each window count the greater of the calls claimed and the calls reported; tokens count the reports. Reports reach the count through the queue, about a second after they are sent. Nothing is counted by this read.",
        security: [{ bearer: [] }],
        responses: {
          "200": body("Plan, limits, use per window, and when a refused call may be retried", entitlementsBody),
          "401": body(BEARER_UNAUTHORIZED, bearerAuthErrorBody),
        },
      },
    },
    "/api/v1/entitlements/claim": {
      post: {
        summary: `Claim one model call before making it: the free tier allows ${FREE_TIER_LIMITS}; subscribers and early-access members are always granted.`,
        description: `Ask before each model call, and make the call only when granted. A free account's claims are decided and counted by its usage ledger one at a time, so parallel claims from all its devices get exactly the calls its limits allow: a granted claim counts at once in the minute, hour, day and month, before its report arrives. Each window counts the greater of the calls claimed and the calls reported (an app that reports without claiming is still counted); tokens count the reports. A refused claim counts nothing: wait Retry-After seconds (the end of the last exhausted window) and claim again. Subscribers and early-access members are granted without counting and never wait; for them the windows' used figures are not read here (GET /api/v1/entitlements shows them). Send no body, or an empty JSON object. Use GET /api/v1/entitlements to show the figures without claiming.`,
        security: [{ bearer: [] }],
        requestBody: {
          required: false,
          content: {
            "application/json": {
              schema: { type: "object", additionalProperties: false, maxProperties: 0, description: "Nothing: no body, or {}" },
            },
          },
        },
        responses: {
          "200": body(
            "Granted: make the call. The figures include this claim; allowed and retry_after_seconds say whether a next call would be granted now",
            claimGrantedBody,
          ),
          "400": body("A body other than nothing or {}", errorBody),
          "401": body(BEARER_UNAUTHORIZED, bearerAuthErrorBody),
          "413": body(`A body over ${ENTITLEMENTS.claimMaxBodyBytes} bytes`, errorBody),
          "415": body("A body that is not JSON", errorBody),
          "429": {
            ...body(
              "Refused: a free-tier limit is reached. Do not make the call; claim again after Retry-After seconds (also retry_after_seconds and allowed_at). Nothing was counted",
              claimRefusedBody,
            ),
            headers: {
              "Retry-After": {
                description: "Seconds until every exhausted window has ended (at least 1)",
                schema: { type: "integer", minimum: 1 },
              },
            },
          },
        },
      },
    },
  };
}

/** Usage reports, and the liveness check. */
function usagePaths() {
  const report = usageReportSchema();
  return {
    "/api/v1/usage": {
      post: {
        summary: `Report model calls: one report, or { reports: [...] } with up to ${USAGE_API.maxReportsPerRequest}`,
        security: [{ bearer: [] }],
        requestBody: {
          required: true,
          content: { "application/json": { schema: { oneOf: [schemaOf(report, "input"), schemaOf(usageBatchSchema(report), "input")] } } },
        },
        responses: {
          "202": body("Accepted for storage", acceptedBody),
          "400": body("Invalid: the whole batch is refused; problems lists each report index and reason", problemsBody),
          "401": body(BEARER_UNAUTHORIZED, bearerAuthErrorBody),
          "413": body(`Body over ${USAGE_API.maxBodyBytes} bytes`, errorBody),
          "429": body(USAGE_RATE_LIMITED, errorBody),
        },
      },
    },
    "/api/v1/usage/secure-report": {
      post: {
        summary: "Fallback aggregate report when individual reports could not be sent",
        security: [{ bearer: [] }],
        requestBody: request(secureReportSchema()),
        responses: {
          "202": body("Accepted", acceptedBody),
          "400": body("Invalid", problemsBody),
          "401": body(BEARER_UNAUTHORIZED, bearerAuthErrorBody),
          "429": body(USAGE_RATE_LIMITED, errorBody),
        },
      },
    },
    "/api/v1/health": { get: { summary: "Liveness", responses: { "200": { description: "OK" } } } },
  };
}

export function buildOpenApi() {
  return {
    openapi: "3.1.0",
    info: {
      title: "Modelify desktop API",
      version: "1.0.0",
      description: `Sign-in for the desktop app and model usage reporting. The desktop app signs in with the OAuth 2.0 device authorization grant (RFC 8628): it asks POST /api/v1/auth/device for codes, shows the user code and opens the /device page in the browser, where the user signs in and approves the device, and meanwhile polls POST /api/v1/auth/token with the device code until it gets its tokens. The app never sees the password, and each device gets its own key (a session the dashboard lists and can revoke). E-mail and password on /api/v1/auth/token is LEGACY and deprecated, kept for app versions released before the device grant.`,
    },
    servers: [{ url: "/" }],
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: `The access_token of /api/v1/auth/token or /api/v1/auth/refresh, valid ${SESSION.accessTokenTtlMs / 60_000} minutes. Each sign-in of the app is a device key. A 401 with code "session_ended" means the device's key was revoked (in the dashboard, by a password reset, or replaced by a new sign-in of the same installation): show the error text and start the device sign-in again; its refresh is refused too. The usage endpoints allow ${USAGE_API.requestsPerMinute} requests per minute per device key, not per account.`,
        },
      },
    },
    paths: { ...authPaths(), ...accountPaths(), ...usagePaths() },
  };
}
