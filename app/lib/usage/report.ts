// The usage report the desktop app sends for every model call (spec accounts §3), validated
// with sane bounds. Money arrives in USD and is stored as integer micro-dollars.
import { z } from "../zod";
import { MS, USAGE_API } from "../constants";

const count = z.number().int().nonnegative().max(USAGE_API.maxTokens);
const shortText = (max: number) => z.string().trim().min(1).max(max);

const metadataSchema = z
  .record(z.string().max(100), z.unknown())
  .refine((m) => JSON.stringify(m).length <= USAGE_API.maxMetadataBytes, { message: `metadata must be at most ${USAGE_API.maxMetadataBytes} bytes of JSON` });

export function occurredAtSchema(now: () => number) {
  return z
    .union([z.iso.datetime({ offset: true }), z.number().int().positive()])
    .transform((v) => (typeof v === "number" ? v : Date.parse(v)))
    .refine((t) => t <= now() + USAGE_API.maxFutureSkewMs, { message: "occurred_at is in the future" })
    .refine((t) => t >= now() - USAGE_API.maxAgeDays * MS.DAY, { message: `occurred_at is older than ${USAGE_API.maxAgeDays} days` });
}

// The fields of one report. `occurred_at` differs by where the report is: the API takes an ISO
// time or epoch ms within the allowed age; a queued report carries epoch ms the API already
// accepted, so the consumer never re-applies rules relative to "now" (a delayed retry would fail).
function reportSchema<T extends z.ZodType<number | undefined>>(occurredAt: T) {
  return z
    .object({
      report_id: z.uuid({ message: "report_id must be a UUID" }),
      model_name: shortText(200),
      model_provider: shortText(100),
      request_type: shortText(50).default("chat"),
      // The call's total tokens. Providers count tokens outside input and output (reasoning,
      // cache, tool use), so the total may exceed input + output but never fall short of it;
      // when omitted it is input + output.
      tokens_used: count.optional(),
      tokens_input: count.default(0),
      tokens_output: count.default(0),
      cost_usd: z.number().nonnegative().max(USAGE_API.maxCostUsd),
      request_duration_ms: z.number().int().nonnegative().max(USAGE_API.maxDurationMs),
      success: z.boolean(),
      error_message: z.string().max(2000).nullish(),
      metadata: metadataSchema.nullish(),
      app_version: z.string().max(50).nullish(),
      app_instance_id: z.string().max(100).nullish(),
      occurred_at: occurredAt,
    })
    .strict()
    .refine((r) => r.tokens_used === undefined || r.tokens_used >= r.tokens_input + r.tokens_output, {
      message: "tokens_used must be at least tokens_input + tokens_output",
      path: ["tokens_used"],
      // Only once every field is valid: a negative count already has its own problem.
      when: (payload) => payload.issues.length === 0,
    })
    .transform((r) => ({ ...r, tokens_used: r.tokens_used ?? r.tokens_input + r.tokens_output }));
}

/** A report as the desktop app sends it. */
export function usageReportSchema(now: () => number = Date.now) {
  return reportSchema(occurredAtSchema(now).optional());
}

/** A report as the API enqueued it: occurred_at is set, in epoch ms. */
export const queuedUsageReportSchema = reportSchema(z.number().int().positive());

export type UsageReport = z.output<ReturnType<typeof usageReportSchema>>;

function secureSchema<T extends z.ZodType<number>>(timestamp: T) {
  return z
    .object({
      report_hash: z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, { message: "report_hash must be 16 to 128 letters, digits, - or _" }),
      model_name: shortText(200),
      provider: shortText(100),
      tokens_used: count,
      cost: z.number().nonnegative().max(USAGE_API.maxCostUsd),
      request_count: z.number().int().positive().max(USAGE_API.maxSecureRequestCount),
      success_count: z.number().int().nonnegative().max(USAGE_API.maxSecureRequestCount),
      error_count: z.number().int().nonnegative().max(USAGE_API.maxSecureRequestCount),
      report_timestamp: timestamp,
      app_version: z.string().max(50).nullish(),
      app_instance_id: z.string().max(100).nullish(),
    })
    .strict()
    .refine((r) => r.success_count + r.error_count <= r.request_count, { message: "success_count + error_count exceeds request_count", path: ["request_count"] });
}

/** The fallback aggregate report as the desktop app sends it. */
export function secureReportSchema(now: () => number = Date.now) {
  return secureSchema(occurredAtSchema(now));
}

/** The fallback report as the API enqueued it (report_timestamp in epoch ms). */
export const queuedSecureReportSchema = secureSchema(z.number().int().positive());

export type SecureReport = z.output<ReturnType<typeof secureReportSchema>>;

export function toMicros(usd: number): number {
  return Math.round(usd * 1_000_000);
}

export type Problem = { index: number | null; path: string; message: string };

/** zod issues as the API's problem list: which report (index) and which field. */
export function problemsFrom(error: z.ZodError, indexed: boolean): Problem[] {
  return error.issues.map((issue) => {
    const path = [...issue.path];
    const index = indexed && typeof path[0] === "number" ? (path.shift() as number) : null;
    return { index, path: path.map(String).join("."), message: issue.message };
  });
}
