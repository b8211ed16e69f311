// What the API answers. The routes build these bodies by hand, so their shapes live here, as zod
// schemas turned into the document's JSON Schema (the conformance test holds every answer to them).
import { DEVICE_PLATFORMS } from "../auth/device-codes";
import { DEVICE_AUTH, SESSION } from "../constants";
import { formatDuration } from "../format";
import { z } from "../zod";

/** JSON Schema (2020-12, as OpenAPI 3.1 uses) of what a client sends, or of what it receives. */
export function schemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  return json;
}

/** The API's plain error: components.schemas.Error. */
export const errorBody = z.object({ error: z.string().meta({ description: "Words the app can show" }) }).meta({ title: "Error" });

export const tokensBody = z.object({
  token_type: z.literal("Bearer"),
  access_token: z.string().meta({ description: `JWT, valid ${formatDuration(SESSION.accessTokenTtlMs, "minute")}` }),
  expires_in: z
    .number()
    .int()
    .meta({ example: SESSION.accessTokenTtlMs / 1000 }),
  refresh_token: z.string().meta({ description: "Single use: each refresh returns a new one" }),
  user: z.object({ id: z.string(), email: z.string() }),
});
export const grantedTokensBody = tokensBody.extend({
  device: z
    .object({
      id: z.string().meta({ description: "The device key's id: the session the dashboard lists and can revoke" }),
      name: z.string(),
      platform: z.enum(DEVICE_PLATFORMS),
      app_version: z.string(),
    })
    .optional()
    .meta({ description: "Device code grant only: the device this key belongs to" }),
  team: z.object({ slug: z.string(), name: z.string() }).nullable().optional().meta({
    description:
      "Device code grant only: the team this key reports under, chosen by the user on the /device page (personal or one of their teams; one per key), or null for personal. A team key's usage counts for the user and, while they are a member, for the team.",
  }),
});

export const deviceAuthorizationBody = z.object({
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
export const oauthErrorBody = (codes: readonly [string, ...string[]]) =>
  z.object({ error: z.enum(codes), error_description: z.string().meta({ description: "Words the app can show" }) });

const TOKEN_GRANT_ERRORS = [
  "authorization_pending",
  "slow_down",
  "access_denied",
  "expired_token",
  "invalid_grant",
  "invalid_request",
  "unsupported_grant_type",
] as const;
export const tokenGrantErrorBody = oauthErrorBody(TOKEN_GRANT_ERRORS).extend({
  interval: z
    .number()
    .int()
    .optional()
    .meta({
      description: `With slow_down only: the new polling interval in seconds (RFC 8628 3.5: ${DEVICE_AUTH.slowDownSeconds} s more for every slow_down), to keep for the rest of this code's life`,
    }),
});

const sessionEndedCode = z.literal("session_ended").optional().meta({
  description:
    "The device's key was revoked (in the dashboard, by a password reset, or replaced by a new sign-in of the same installation): show the error text and start the device sign-in again; refreshing will not help",
});
export const bearerAuthErrorBody = z.object({ error: z.string(), code: sessionEndedCode });
/** A token that may not do this (RFC 6750 3.1): a personal API key anywhere but the read API, or a key without its scope. */
export const scopeErrorBody = z.object({ error: z.string(), code: z.literal("insufficient_scope") });

export const accountBody = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  has_active_subscription: z.boolean(),
  has_early_access: z.boolean(),
  early_access_expires_at: z.string().nullable().meta({ description: "ISO 8601, while early access is active" }),
  account_activated: z.boolean().meta({ description: "Early access or an active subscription: what unlocks the app" }),
});

/** Every 400 of the usage routes: the problems, one per field (path "" for the body as a whole). */
export const problemsBody = z.object({
  error: z.string(),
  problems: z.array(
    z.object({
      index: z.number().int().nullable().meta({ description: "The report's index in a batch; null for a single report or the body as a whole" }),
      path: z.string().meta({ description: 'The field, e.g. "tokens_used"; "" for the body as a whole' }),
      message: z.string(),
    }),
  ),
});
export const acceptedBody = z.object({ accepted: z.number().int().meta({ description: "Reports accepted for storage" }) });

const IN_ACCOUNT_ZONE = 'ISO 8601 with the offset of the account\'s time zone (time_zone; "Z" for UTC)';

/** A hard cap's state (ADR 0032): the monthly or daily budget, or one model's or device's cap a month. */
const capBody = z
  .object({
    kind: z
      .enum(["monthly", "daily", "model", "device", "member"])
      .meta({ description: "monthly and daily cover every call; model and device caps are monthly; member: a team member's own monthly cap in the team" }),
    limit_usd: z.number(),
    spent_usd: z.number().meta({ description: "Reported spend in the cap's period (the account zone's day or month)" }),
    reserved_usd: z
      .number()
      .meta({ description: "Estimates of granted claims whose reports have not arrived yet (each held until its report or for a few minutes)" }),
    reached: z.boolean().meta({ description: "spent_usd + reserved_usd is at the limit: claims the cap covers are refused" }),
    resets_at: z.iso
      .datetime({ offset: true })
      .meta({ description: `When the period starts again (the account's midnight or 1st), ${IN_ACCOUNT_ZONE}`, example: "2026-12-01T00:00:00.000+09:00" }),
    model: z.string().optional().meta({ description: "A model cap's model" }),
    provider: z.string().optional().meta({ description: "A model cap's provider" }),
    device_id: z.string().optional().meta({ description: "A device cap's device key" }),
    member_id: z.string().optional().meta({ description: "A member cap's member (their account id)" }),
    team: z
      .string()
      .optional()
      .meta({ description: "A team's cap (a team device key's claim): the team's slug; its periods are UTC days and months, resets_at in UTC" }),
  })
  .meta({ title: "HardCap" });

export const entitlementsBody = z.object({
  plan: z.enum(["free", "premium", "early_access"]),
  unlimited: z.boolean().meta({ description: "Subscribers and early-access members have no limits" }),
  allowed: z.boolean().meta({ description: "Whether a model call may be made now" }),
  retry_after_seconds: z.number().int().nullable().meta({
    description: "When not allowed: seconds until every exhausted window has ended and every reached monthly or daily cap started again (also in Retry-After)",
  }),
  allowed_at: z.iso
    .datetime({ offset: true })
    .nullable()
    .meta({ description: `When not allowed: the end of the last exhausted window, ${IN_ACCOUNT_ZONE}`, example: "2026-12-01T05:45:00.000+05:45" }),
  time_zone: z.string().meta({
    description:
      "The account's time zone (IANA name, from its profile; UTC unless set): resets_at and allowed_at are written with its offset. The windows themselves are counted in UTC; the dashboard's days, hours and budgets are counted in this zone.",
    example: "Asia/Kathmandu",
  }),
  windows: z.array(
    z.object({
      window: z
        .enum(["minute", "hour", "day", "month"])
        .meta({ description: "Calendar windows in UTC (this minute, hour, day and month), whatever the account's zone" }),
      unit: z.enum(["requests", "tokens"]),
      limit: z.number().int().nullable().meta({ description: "null: no limit on this plan" }),
      used: z.number().int(),
      remaining: z.number().int().nullable(),
      resets_at: z.iso.datetime({ offset: true }).meta({ description: `When the window ends, ${IN_ACCOUNT_ZONE}`, example: "2026-12-01T05:45:00.000+05:45" }),
    }),
  ),
  caps: z.array(capBody).meta({
    description:
      "The account's hard caps (any plan; empty when none): a reached monthly or daily cap makes allowed false until it starts again; a model's or device's cap refuses only the claims it covers",
  }),
  team: z
    .object({
      slug: z.string(),
      caps: z.array(capBody),
      reached: z.boolean().meta({ description: "A team cap is reached: allowed is false until it resets (Retry-After)" }),
    })
    .optional()
    .meta({ description: "A team device key's team hard caps (the team's budgets and this member's cap), when the team has any" }),
});
export const claimGrantedBody = entitlementsBody.extend({
  granted: z.literal(true).meta({ description: "Make the model call" }),
  claim_id: z.uuid().meta({ description: "Send it as the call's report's claim_id: the report ends the claim's hold on the hard caps" }),
});
export const claimRefusedBody = entitlementsBody.extend({
  error: z.string().meta({ description: "Words the app can show" }),
  granted: z.literal(false).meta({ description: "Do not make the call: claim again after Retry-After seconds" }),
  cap: capBody
    .optional()
    .meta({ description: "The hard cap that refused the claim (absent when a free-tier limit refused it); a team's cap carries team (its slug)" }),
});

export const healthBody = z.object({ ok: z.literal(true) });
