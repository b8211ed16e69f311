// The API's fast path for the report every model call sends: usageReportSchema's rules (report.ts,
// the one rule set) read by hand first. zod without its compiler (no `new Function` on Workers)
// spends about ten times as long: measured inside workerd on 100 typical reports (one request's
// worth), about 580 µs through the zod batch schema and about 65 µs through this reader (about
// 5.8 µs against 0.65 µs a report). Remove it when zod comes within a factor of two.
//
// It accepts only reports the schema accepts, and returns what the schema would; anything else
// (an ISO occurred_at, a report it cannot judge outright) goes to the schema (INVALID), which
// decides and says why. report-reader.test.ts proves it equal to zod field by field.
import { MS, USAGE_API } from "../constants";
import { z } from "../zod";
import { MAX, USAGE_REPORT_KEYS, type UsageReport, usageReportSchema } from "./report";

/** usageReportSchema, read by hand first (readUsageReport). */
export function usageReportReader(now: () => number = Date.now) {
  return z.withParser(usageReportSchema(now), (input) => readUsageReport(input, now()));
}

const UUID = z.regexes.uuid();
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= USAGE_API.maxTokens;
const isInt = (v: unknown, min: number, max: number): v is number => Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;
const isOptionalText = (v: unknown, max: number) => v == null || (typeof v === "string" && v.length <= max);
const trimmed = (v: unknown, max: number) => {
  if (typeof v !== "string") return null;
  const text = v.trim();
  return text.length >= 1 && text.length <= max ? text : null;
};

/** The schema's rules by hand, for a report the app sent: the schema's defaults filled in, then each field. */
export function readUsageReport(input: unknown, now: number): UsageReport | typeof z.INVALID {
  if (!isObject(input)) return z.INVALID;
  const { occurred_at, request_type, tokens_input = 0, tokens_output = 0, tokens_used } = input;
  if (occurred_at !== undefined && !isInt(occurred_at, Math.max(1, now - USAGE_API.maxAgeDays * MS.DAY), now + USAGE_API.maxFutureSkewMs)) return z.INVALID;
  if (tokens_used === undefined && !(isCount(tokens_input) && isCount(tokens_output))) return z.INVALID;
  return readFields({
    ...input,
    request_type: request_type === undefined ? "chat" : request_type,
    tokens_input,
    tokens_output,
    tokens_used: tokens_used === undefined ? (tokens_input as number) + (tokens_output as number) : tokens_used,
  });
}

/** Every field with its default in place; occurred_at, when present, already checked. */
function readFields(r: Record<string, unknown>): UsageReport | typeof z.INVALID {
  for (const key in r) if (!USAGE_REPORT_KEYS.has(key)) return z.INVALID;
  const model_name = trimmed(r.model_name, MAX.modelName);
  const model_provider = trimmed(r.model_provider, MAX.provider);
  const request_type = trimmed(r.request_type, MAX.requestType);
  if (
    typeof r.report_id !== "string" ||
    !UUID.test(r.report_id) ||
    model_name === null ||
    model_provider === null ||
    request_type === null ||
    !isCount(r.tokens_used) ||
    !isCount(r.tokens_input) ||
    !isCount(r.tokens_output) ||
    r.tokens_used < r.tokens_input + r.tokens_output ||
    typeof r.cost_usd !== "number" ||
    !(r.cost_usd >= 0 && r.cost_usd <= USAGE_API.maxCostUsd) ||
    !isInt(r.request_duration_ms, 0, USAGE_API.maxDurationMs) ||
    typeof r.success !== "boolean" ||
    !isOptionalText(r.error_message, MAX.errorMessage) ||
    !isOptionalText(r.app_version, MAX.appVersion) ||
    !isOptionalText(r.app_instance_id, MAX.appInstanceId) ||
    (r.claim_id !== undefined && (typeof r.claim_id !== "string" || !UUID.test(r.claim_id)))
  ) {
    return z.INVALID;
  }
  const report: UsageReport = {
    report_id: r.report_id,
    model_name,
    model_provider,
    request_type,
    tokens_used: r.tokens_used,
    tokens_input: r.tokens_input,
    tokens_output: r.tokens_output,
    cost_usd: r.cost_usd,
    request_duration_ms: r.request_duration_ms,
    success: r.success,
  };
  // zod leaves an omitted optional field out, so the reader does too.
  if (r.occurred_at !== undefined) report.occurred_at = r.occurred_at as number;
  const metadata = r.metadata;
  if (metadata != null) {
    if (Object.getPrototypeOf(metadata) !== Object.prototype || !isObject(metadata)) return z.INVALID;
    // zod's record leaves out an own "__proto__" key; zod decides those.
    for (const key in metadata) if (key.length > MAX.metadataKey || key === "__proto__") return z.INVALID;
    if (JSON.stringify(metadata).length > USAGE_API.maxMetadataBytes) return z.INVALID;
    report.metadata = { ...metadata };
  } else if (metadata === null) report.metadata = null;
  if (r.error_message !== undefined) report.error_message = r.error_message as string | null;
  if (r.app_version !== undefined) report.app_version = r.app_version as string | null;
  if (r.app_instance_id !== undefined) report.app_instance_id = r.app_instance_id as string | null;
  if (r.claim_id !== undefined) report.claim_id = r.claim_id as string;
  return report;
}
