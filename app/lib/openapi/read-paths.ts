// The read API in the API description (issue 49, ADR 0034): one's own usage, summed or row by row,
// for a personal API key (or the desktop app's token).
import { API_KEYS, LEDGER, READ_API } from "../constants";
import { SUMMARY_GROUPS } from "../usage/read-api";
import { z } from "../zod";
import { bearer401 } from "./account-paths";
import { answer, BEARER_CHALLENGE, ERROR, RETRY_AFTER, UNAVAILABLE } from "./parts";
import { scopeErrorBody } from "./schemas";

const READERS = [{ personalKey: [] }, { bearer: [] }];
const RATE_LIMITED = `Over ${READ_API.perMinute} reads a minute for this key (or device key), counted from its first read of the minute; see Retry-After`;
const DAYS = "Days of the account's time zone (time_zone in the answer), as YYYY-MM-DD, both ends included.";

const figures = {
  requests: z.number().int(),
  successes: z.number().int(),
  errors: z.number().int().meta({ description: "requests − successes" }),
  tokens: z.number().int(),
  tokens_input: z.number().int(),
  tokens_output: z.number().int(),
  cost_usd: z.number(),
  avg_duration_ms: z.number().int().nullable().meta({ description: "Over the requests that reported a duration; null when none did" }),
};

const summaryBody = z.object({
  time_zone: z.string().meta({ description: "The IANA zone the days are counted in (the account's)" }),
  from: z.string(),
  to: z.string(),
  group_by: z.enum(SUMMARY_GROUPS),
  totals: z.object(figures).meta({ description: "The sums of the groups: always equal to the request log's rows summed over the same range" }),
  groups: z.array(
    z.object({
      key: z.string().meta({
        description:
          'The group: a model name, a provider, a device key\'s id ("" for reports with no device), a request type ("fallback" for aggregate reports), or a date',
      }),
      provider: z.string().nullable().optional().meta({ description: "group_by=model only: the model's provider" }),
      ...figures,
    }),
  ),
});

const logBody = z.object({
  time_zone: z.string(),
  from: z.string(),
  to: z.string(),
  requests: z.array(
    z.object({
      id: z.string().meta({ description: 'The report_id, or "fallback:<report_hash>" for an aggregate report' }),
      kind: z.enum(["usage", "fallback"]),
      occurred_at: z.string().meta({ description: "ISO 8601 with the account zone's offset", example: "2026-11-29T17:45:00.000+05:45" }),
      model: z.string(),
      provider: z.string(),
      device_id: z.string().nullable(),
      request_type: z.string(),
      requests: z.number().int().meta({ description: "1, or an aggregate report's request count" }),
      status: z.enum(["success", "error"]),
      tokens: z.number().int(),
      tokens_input: z.number().int(),
      tokens_output: z.number().int(),
      cost_usd: z.number(),
      duration_ms: z.number().int().nullable(),
    }),
  ),
  next_cursor: z.string().nullable().meta({ description: "Pass as cursor for the next page (same other parameters); null on the last page" }),
});

const queryProblemsBody = z.object({
  error: z.string().meta({ description: "Every problem, in words" }),
  problems: z.array(z.object({ parameter: z.string(), message: z.string() })),
});

const query = (name: string, description: string, schema: Record<string, unknown> = { type: "string" }) => ({
  name,
  in: "query",
  required: false,
  description,
  schema,
});
const DAY_SCHEMA = { type: "string", format: "date", pattern: "^20[0-9]{2}-[0-9]{2}-[0-9]{2}$" };

function readResponses(body: z.ZodType) {
  return {
    "200": answer("The account's usage", body),
    "400": answer("A parameter that is unknown, repeated, or not valid: problems names each", queryProblemsBody),
    "401": bearer401(),
    "403": answer("The key lacks the usage:read scope", scopeErrorBody, { "WWW-Authenticate": BEARER_CHALLENGE }),
    "429": answer(RATE_LIMITED, ERROR, { "Retry-After": RETRY_AFTER }),
    "503": UNAVAILABLE,
  };
}

export function readPaths() {
  const range = [
    query("from", `The first day. ${DAYS} Default: the first day of to's month.`, DAY_SCHEMA),
    query("to", `The last day. ${DAYS} Default: today.`, DAY_SCHEMA),
  ];
  return {
    "/api/v1/usage/summary": {
      get: {
        operationId: "getUsageSummary",
        tags: ["Read"],
        summary: "Your usage over a range of days, grouped by model, provider, device, request type or date",
        description: `A range spans at most ${READ_API.maxSummaryDays} days. Costs are in US dollars, summed exactly.`,
        security: READERS,
        parameters: [...range, query("group_by", "How to group (default model)", { type: "string", enum: [...SUMMARY_GROUPS], default: "model" })],
        responses: readResponses(summaryBody),
      },
    },
    "/api/v1/usage/requests": {
      get: {
        operationId: "listUsageRequests",
        tags: ["Read"],
        summary: "Your request log: one row per report, newest first, a page at a time",
        description: `Reports of the last ${LEDGER.rawRetentionDays} days. Follow next_cursor for the next page; each page costs the same however deep.`,
        security: READERS,
        parameters: [
          ...range,
          query("model", "Only this model"),
          query("provider", "Only this provider"),
          query("device", 'Only this device key\'s id ("" for reports with no device)'),
          query("request_type", 'Only this request type ("fallback": aggregate reports)'),
          query("status", "Only successes or errors", { type: "string", enum: ["success", "error"] }),
          query(`limit`, "Rows a page", { type: "integer", minimum: 1, maximum: READ_API.maxPageSize, default: READ_API.defaultPageSize }),
          query("cursor", "next_cursor of the previous page, as it was (opaque)"),
        ],
        responses: readResponses(logBody),
      },
    },
  };
}

export const personalKeyScheme = {
  type: "http",
  scheme: "bearer",
  bearerFormat: `${API_KEYS.prefix}…`,
  description: `A personal API key, made on the dashboard's API Keys page and shown once: ${API_KEYS.prefix} and ${API_KEYS.secretLength} letters and digits. Its scope usage:read reads the account's own usage (the Read operations) and nothing else; any other operation answers 403. Revoked on the same page, it stops working at once.`,
};
