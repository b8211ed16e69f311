// The read API's questions and answers (GET /api/v1/usage/summary and /requests, issue 49): the
// query strings as zod reads them (any mistake a 400 that names the parameter), the request log's
// opaque cursor, and the ledger's sums and rows in the API's words: snake_case, costs in USD,
// times as ISO 8601 with the account zone's offset (ADR 0030). No I/O here: the routes ask the
// ledger with what these give them.
import { LEDGER, READ_API } from "../constants";
import { fromBase64Url, toBase64Url } from "../crypto";
import { isoInZone } from "../time-zone";
import { z } from "../zod";
import { addDays, dayKey, dayStart } from "./dates";
import type { LogCursor, LogQuery, LogRow, SliceQuery, SliceRow, UsageFilter } from "./ledger/types";

export const SUMMARY_GROUPS = ["model", "provider", "device", "request_type", "date"] as const;
export type SummaryGroup = (typeof SUMMARY_GROUPS)[number];

const DAY_MESSAGE = "must be a date as YYYY-MM-DD, between 2000-01-01 and 2099-12-31";
const day = z.string().refine((value) => {
  if (!/^20\d\d-\d\d-\d\d$/.test(value)) return false;
  const [y, m, d] = value.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10) === value;
}, DAY_MESSAGE);
const filterText = z.string().min(1, "must not be empty").max(READ_API.maxFilterLength, `must be at most ${READ_API.maxFilterLength} characters`);

const range = { from: day.optional(), to: day.optional() };

export const summaryQuerySchema = z.strictObject(
  {
    ...range,
    group_by: z.enum(SUMMARY_GROUPS, { error: `must be one of ${SUMMARY_GROUPS.join(", ")}` }).default("model"),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `Unknown parameter: ${issue.keys.join(", ")}` : undefined) },
);

// A usage row's key is its rowid; a fallback row's, its report hash.
const cursorShape = z.discriminatedUnion("kind", [
  z.strictObject({ at: z.number().int().nonnegative(), kind: z.literal("usage"), key: z.string().regex(/^\d{1,15}$/) }),
  z.strictObject({ at: z.number().int().nonnegative(), kind: z.literal("fallback"), key: z.string().min(1).max(200) }),
]);

/** The request log's cursor: base64url of the LogCursor's JSON. Opaque to clients; anything else is refused. */
const cursor = z.string().transform((text, ctx): LogCursor => {
  try {
    if (text.length > 400 || !/^[A-Za-z0-9_-]+$/.test(text)) throw new Error("shape");
    return cursorShape.parse(JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(fromBase64Url(text))));
  } catch {
    ctx.addIssue({ code: "custom", message: "is not a cursor this API gave: pass next_cursor from the previous page as it was" });
    return z.NEVER;
  }
});

export const requestsQuerySchema = z.strictObject(
  {
    ...range,
    model: filterText.optional(),
    provider: filterText.optional(),
    device: z.string().max(READ_API.maxFilterLength).optional(),
    request_type: filterText.optional(),
    status: z.enum(["success", "error"], { error: "must be success or error" }).optional(),
    limit: z.coerce
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(READ_API.maxPageSize, `must be at most ${READ_API.maxPageSize}`)
      .default(READ_API.defaultPageSize),
    cursor: cursor.optional(),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `Unknown parameter: ${issue.keys.join(", ")}` : undefined) },
);

export type ParsedQuery<T> = { ok: true; value: T } | { ok: false; error: string; problems: Array<{ parameter: string; message: string }> };

/** A query string through a schema: each parameter once, every problem named with its parameter. */
export function parseQuery<S extends z.ZodType>(params: URLSearchParams, schema: S): ParsedQuery<z.output<S>> {
  const seen = new Set<string>();
  const problems: Array<{ parameter: string; message: string }> = [];
  for (const key of params.keys()) {
    if (seen.has(key)) problems.push({ parameter: key, message: "is given more than once" });
    seen.add(key);
  }
  const parsed = schema.safeParse(Object.fromEntries(params));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const parameter = issue.path.length ? String(issue.path[0]) : "";
      problems.push({ parameter, message: issue.message });
    }
  }
  if (problems.length || !parsed.success) {
    const error = problems.map((p) => (p.parameter ? `${p.parameter} ${p.message}` : p.message)).join("; ");
    return { ok: false, error: `Invalid query: ${error}`, problems };
  }
  return { ok: true, value: parsed.data };
}

/** A range of the account zone's days, both ends inclusive; the current month to today when left out. */
export type DayRange = { from: string; to: string };

/**
 * The range asked for, or why it cannot be answered: `to` before `from`, longer than `maxDays`, or
 * (`earliest`) starting before the first day still kept.
 */
export function resolveRange(
  query: { from?: string; to?: string },
  now: number,
  zone: string,
  limits: { maxDays: number; earliest?: string },
): { ok: true; range: DayRange } | { ok: false; error: string } {
  const today = dayKey(now, zone);
  const to = query.to ?? (query.from && query.from > today ? query.from : today);
  const from = query.from ?? `${to.slice(0, 8)}01`;
  if (to < from) return { ok: false, error: `Invalid query: to (${to}) is before from (${from})` };
  if (addDays(from, limits.maxDays - 1) < to) return { ok: false, error: `Invalid query: a range spans at most ${limits.maxDays} days` };
  if (limits.earliest && from < limits.earliest) {
    return {
      ok: false,
      error: `Invalid query: the request log keeps the last ${LEDGER.rawRetentionDays} days of reports; from must be ${limits.earliest} or later`,
    };
  }
  return { ok: true, range: { from, to } };
}

/** The first day the request log can still answer for (the ledger keeps raw reports this long). */
export function earliestLogDay(now: number, zone: string): string {
  return addDays(dayKey(now, zone), -(LEDGER.rawRetentionDays - 1));
}

export function sliceQueryOf(range: DayRange, group: SummaryGroup): SliceQuery {
  return { from: range.from, to: range.to, groupBy: group };
}

export function logQueryOf(range: DayRange, zone: string, query: z.output<typeof requestsQuerySchema>): LogQuery {
  const filter: UsageFilter = {
    ...(query.model !== undefined && { model: query.model }),
    ...(query.provider !== undefined && { provider: query.provider }),
    ...(query.device !== undefined && { device: query.device }),
    ...(query.request_type !== undefined && { requestType: query.request_type }),
    ...(query.status !== undefined && { status: query.status }),
  };
  return {
    fromMs: dayStart(range.from, zone),
    toMs: dayStart(addDays(range.to, 1), zone),
    filter,
    ...(query.cursor && { after: query.cursor }),
    limit: query.limit,
  };
}

export function encodeCursor(next: LogCursor): string {
  return toBase64Url(new TextEncoder().encode(JSON.stringify({ at: next.at, kind: next.kind, key: next.key })));
}

type Figures = {
  requests: number;
  successes: number;
  errors: number;
  tokens: number;
  tokens_input: number;
  tokens_output: number;
  cost_usd: number;
  avg_duration_ms: number | null;
};

type Sums = { requests: number; successes: number; tokens: number; tokensIn: number; tokensOut: number; costMicros: number; durationMs: number; timed: number };

const sumsOf = (r: SliceRow): Sums => ({
  requests: r.totalRequests,
  successes: r.successCount,
  tokens: r.totalTokens,
  tokensIn: r.tokensInput,
  tokensOut: r.tokensOutput,
  costMicros: r.totalCostMicros,
  durationMs: r.totalDurationMs,
  timed: r.timedRequests,
});

const figuresOf = (s: Sums): Figures => ({
  requests: s.requests,
  successes: s.successes,
  errors: s.requests - s.successes,
  tokens: s.tokens,
  tokens_input: s.tokensIn,
  tokens_output: s.tokensOut,
  // Summed in micro-dollars and divided once, so the total is exactly the sum of its parts.
  cost_usd: s.costMicros / 1e6,
  avg_duration_ms: s.timed > 0 ? Math.round(s.durationMs / s.timed) : null,
});

/** The summary's answer: the groups as the ledger summed them, and their totals (their sum, so they always agree). */
export function summaryBody(rows: SliceRow[], range: DayRange, group: SummaryGroup, zone: string) {
  const total: Sums = { requests: 0, successes: 0, tokens: 0, tokensIn: 0, tokensOut: 0, costMicros: 0, durationMs: 0, timed: 0 };
  const groups = rows.map((row) => {
    const s = sumsOf(row);
    for (const k of Object.keys(total) as Array<keyof Sums>) total[k] += s[k];
    return { key: row.key, ...(group === "model" && { provider: row.provider ?? null }), ...figuresOf(s) };
  });
  return { time_zone: zone, from: range.from, to: range.to, group_by: group, totals: figuresOf(total), groups };
}

/** One row of the request log as the API answers it. */
export function logRowBody(row: LogRow, zone: string) {
  return {
    id: row.id,
    kind: row.kind,
    occurred_at: isoInZone(row.occurredAt, zone),
    model: row.modelName,
    provider: row.modelProvider,
    device_id: row.deviceId,
    request_type: row.requestType,
    requests: row.requests,
    status: row.success ? ("success" as const) : ("error" as const),
    tokens: row.tokens,
    tokens_input: row.tokensInput,
    tokens_output: row.tokensOutput,
    cost_usd: row.costMicros / 1e6,
    duration_ms: row.durationMs,
  };
}
