// The desktop API, described for the app's developers (served at /api/v1/openapi.json).
// Request bodies are generated from the very zod schemas the routes validate with, so the
// description cannot drift from what the API accepts; rules across fields, which JSON Schema
// cannot express, are in those schemas' descriptions.
import { z } from "./zod";
import { apiRefreshRequestSchema, apiTokenRequestSchema } from "./auth/validation";
import { FREE_TIER, SESSION, USAGE_API } from "./constants";
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

/** JSON Schema (2020-12, as OpenAPI 3.1 uses) of what a client sends, or of what it receives. */
function schemaOf(schema: z.ZodType, io: "input" | "output") {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  return json;
}
const request = (schema: z.ZodType) => ({ required: true, content: { "application/json": { schema: schemaOf(schema, "input") } } });
const body = (description: string, schema?: z.ZodType) =>
  schema ? { description, content: { "application/json": { schema: schemaOf(schema, "output") } } } : { description };

export function buildOpenApi() {
  const report = usageReportSchema();
  return {
    openapi: "3.1.0",
    info: { title: "Modelify desktop API", version: "1.0.0", description: "Sign-in for the desktop app and model usage reporting." },
    servers: [{ url: "/" }],
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
    paths: {
      "/api/v1/auth/token": {
        post: {
          summary: "Sign in with e-mail and password",
          requestBody: request(apiTokenRequestSchema),
          responses: {
            "200": body("Tokens", tokensBody),
            "400": body("Invalid body", errorBody),
            "401": body("Bad credentials", errorBody),
            "403": body("E-mail not confirmed", errorBody),
            "429": body("Locked; see Retry-After", errorBody),
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
      "/api/v1/me": {
        get: {
          summary: "The signed-in account",
          security: [{ bearer: [] }],
          responses: { "200": body("Account", accountBody), "401": body("Not signed in", errorBody) },
        },
      },
      "/api/v1/entitlements": {
        get: {
          summary: `What the account may do now: the free tier allows ${FREE_TIER.perMinute} requests a minute, ${FREE_TIER.perHour} an hour, ${FREE_TIER.perDay} a day, ${FREE_TIER.requestsPerMonth} requests and ${FREE_TIER.tokensPerMonth} tokens a month; ask before a model call. Counted from stored reports, about a second behind.`,
          security: [{ bearer: [] }],
          responses: {
            "200": body("Plan, limits, use per window, and when a refused call may be retried", entitlementsBody),
            "401": body("Not signed in", errorBody),
          },
        },
      },
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
            "401": body("Missing or invalid token", errorBody),
            "413": body(`Body over ${USAGE_API.maxBodyBytes} bytes`, errorBody),
            "429": body(`Over ${USAGE_API.requestsPerMinute} requests per minute; see Retry-After`, errorBody),
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
            "401": body("Missing or invalid token", errorBody),
            "429": body(`Over ${USAGE_API.requestsPerMinute} requests per minute; see Retry-After`, errorBody),
          },
        },
      },
      "/api/v1/health": { get: { summary: "Liveness", responses: { "200": { description: "OK" } } } },
    },
  };
}
