// Usage reports and the liveness check in the API description.
import { REQUEST_BODY, USAGE_API } from "../constants";
import { secureReportSchema, usageBatchSchema, usageReportSchema } from "../usage/report";
import { bearer401 } from "./account-paths";
import { answer, bodyRefusals, type Examples, ERROR, jsonRequest, RETRY_AFTER, UNAVAILABLE, personalKey403 } from "./parts";
import { acceptedBody, healthBody, problemsBody, schemaOf } from "./schemas";

// ADR 0030: which zone a day is counted in.
const DAYS_IN_ACCOUNT_ZONE =
  "A report is counted on the day and in the hour its time (occurred_at, report_timestamp) falls on in the account's time zone, the one its profile names (UTC unless set; GET /api/v1/entitlements says it as time_zone): the dashboard's days, hours, budgets and CSV export. The time is an instant, so any offset it is written with gives the same day. Changing the zone counts every report again in the new one.";
const USAGE_RATE_LIMITED = `Over ${USAGE_API.requestsPerMinute} requests per minute per device key (each signed-in device has its own; not per account); see Retry-After`;

const REPORT = {
  report_id: "3b241101-e2bb-4255-8caf-4136c566a962",
  model_name: "gpt-4o",
  model_provider: "openai",
  request_type: "chat",
  tokens_input: 900,
  tokens_output: 300,
  cost_usd: 0.0042,
  request_duration_ms: 850,
  success: true,
  metadata: { conversation_id: "c-42" },
  app_version: "1.4.2",
};
const usageExamples: Examples = {
  single: { summary: "One model call (occurred_at left out: it happened when received)", value: REPORT },
  batch: {
    summary: "Several calls at once",
    value: {
      reports: [
        REPORT,
        { ...REPORT, report_id: "8f14e45f-ceea-4e67-a2f4-6c0b2e2a7d11", success: false, error_message: "rate limited by the provider", tokens_output: 0 },
      ],
    },
  },
};
// A fixed time goes out of the accepted window 90 days after it was written: tools that send the
// examples (the conformance test) must move it to the present.
const secureExamples: Examples = {
  aggregate: {
    summary: `A day's calls of one model, summed up (report_timestamp must be within the last ${USAGE_API.maxAgeDays} days)`,
    value: {
      report_hash: "f3b1c2d4e5f60718293a4b5c",
      model_name: "claude-sonnet-4",
      provider: "anthropic",
      tokens_used: 48_000,
      cost: 0.72,
      request_count: 12,
      success_count: 11,
      error_count: 1,
      report_timestamp: "2026-11-20T09:30:00Z",
      app_version: "1.4.2",
    },
  },
};

function usageOperation() {
  const report = usageReportSchema();
  return {
    operationId: "reportUsage",
    tags: ["Usage"],
    summary: `Report model calls: one report, or { reports: [...] } with up to ${USAGE_API.maxReportsPerRequest}`,
    description: `Each report is stored once per report_id, so a report sent again after an error or a timeout is not counted twice. The batch is refused whole when any report is invalid. ${DAYS_IN_ACCOUNT_ZONE}`,
    security: [{ bearer: [] }],
    requestBody: jsonRequest(
      {
        oneOf: [
          { title: "One report", ...schemaOf(report, "input") },
          { title: `A batch: { reports: [...] }, 1 to ${USAGE_API.maxReportsPerRequest} reports`, ...schemaOf(usageBatchSchema(report), "input") },
        ],
      },
      usageExamples,
    ),
    responses: {
      "202": answer("Accepted for storage", acceptedBody),
      "400": answer(
        'Invalid: the whole batch is refused; problems lists each report index and reason (path "" and index null: the body as a whole, e.g. not JSON)',
        problemsBody,
      ),
      "401": bearer401(),
      "403": personalKey403(),
      ...bodyRefusals(USAGE_API.maxBodyBytes, "application/json"),
      "429": answer(USAGE_RATE_LIMITED, ERROR, { "Retry-After": RETRY_AFTER }),
      "500": answer("The reports could not be queued for storage: nothing was accepted; send them again (each report_id is stored once)", ERROR),
      "503": UNAVAILABLE,
    },
  };
}

function secureReportOperation() {
  return {
    operationId: "sendSecureReport",
    tags: ["Usage"],
    summary: "Fallback aggregate report when individual reports could not be sent",
    description: `Stored once per report_hash for the account. ${DAYS_IN_ACCOUNT_ZONE}`,
    security: [{ bearer: [] }],
    requestBody: jsonRequest(secureReportSchema(), secureExamples),
    responses: {
      "202": answer("Accepted", acceptedBody),
      "400": answer('Invalid: problems lists each field and reason (path "": the body as a whole, e.g. not JSON)', problemsBody),
      "401": bearer401(),
      "403": personalKey403(),
      ...bodyRefusals(REQUEST_BODY.jsonMaxBytes, "application/json"),
      "429": answer(USAGE_RATE_LIMITED, ERROR, { "Retry-After": RETRY_AFTER }),
      "503": UNAVAILABLE,
    },
  };
}

export function usagePaths() {
  return {
    "/api/v1/usage": { post: usageOperation() },
    "/api/v1/usage/secure-report": { post: secureReportOperation() },
    "/api/v1/health": {
      get: {
        operationId: "getHealth",
        tags: ["Service"],
        summary: "Liveness: whether the site answers and is configured",
        description: "For monitors. Takes nothing, so it has no 4xx answer.",
        security: [],
        responses: { "200": answer("Up", healthBody), "503": UNAVAILABLE },
      },
    },
  };
}
