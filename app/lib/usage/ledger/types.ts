// What an account's usage ledger takes and gives back (ADR 0020): the shapes of store.ts's calls,
// which the Durable Object (workers/usage-ledger.ts), its RPC stub (api.ts) and their callers share.
import type { CapState, ClaimTarget, HardCap } from "../caps";
import type { UsageCounts } from "../windows";
import type { reports, secureReports } from "./tables";

/** `memberId`: set in a team's ledger only (ADR 0038); an account's own leaves it out. */
type OfMember<T extends { memberId: string | null }> = Omit<T, "memberId"> & { memberId?: string | null };

/** One model call's report, as the consumer hands it over (the API validated it). */
export type LedgerUsage = OfMember<typeof reports.$inferSelect>;

/** A fallback aggregate report (POST /api/v1/usage/secure-report). */
export type LedgerSecure = OfMember<typeof secureReports.$inferSelect>;

/**
 * How an ingest call treats its reports: `importing` is the move of D1's history (any age, no
 * alerts); `zone` the account's time zone as the caller read it (a ledger on another one redraws
 * its zone rows for it first); `claimIds` the claims whose reports these are (their hard-cap
 * reservations end, ADR 0032).
 */
export type IngestOptions = { importing?: boolean; zone?: string; rules?: HealthRule[]; claimIds?: string[] };
/** A model health rule of the account (D1 alert_rules): error rate in percent, or average latency in ms. */
export type HealthRule = { id: string; kind: "error_rate" | "latency"; threshold: number };
/**
 * A rule newly broken by one model over the hour [windowStart, windowEnd): `value` is the error
 * rate (percent) or the average latency (ms), over `requests` requests (timed ones for latency).
 */
export type HealthAlert = {
  ruleId: string;
  kind: HealthRule["kind"];
  threshold: number;
  modelName: string;
  modelProvider: string;
  value: number;
  requests: number;
  windowStart: number;
  windowEnd: number;
  at: number;
  zone: string;
};
/** A budget alert sent in the past (the move carries D1's budget_alerts over). */
export type SentAlert = { kind: "monthly" | "daily"; period: string; sentAt: number };

/**
 * A budget newly crossed: `period` is the account zone's month or day, `at` when the call that
 * crossed it was decided, `threshold` the highest of the budget's thresholds the call passed.
 */
export type BudgetAlert = { kind: "monthly" | "daily"; period: string; limit: number; spent: number; threshold: number; at: number; zone: string };
/** An account's whole totals of one UTC day: what the cross-account rollup in D1 stores. */
export type DayTotals = { date: string; requests: number; tokens: number; costMicros: number };

export type IngestResult = {
  stored: number;
  duplicates: number;
  /** Reports older than the retention window: never stored (their first copy may be archived). */
  expired: number;
  alerts: BudgetAlert[];
  /** Model health rules newly broken by the call's reports (absent from ledgers of older code). */
  health?: HealthAlert[];
  /** The whole totals of every day the call's reports fall on, stored or not (a retried batch re-sends them). */
  days: DayTotals[];
  /** Grows with every call that stored something: the rollup keeps the newest figures. */
  version: number;
  /** When the account's first report was received (the funnel's usage step). */
  firstReceivedAt: number | null;
};

export type DailyRow = {
  date: string;
  modelName: string;
  modelProvider: string;
  totalRequests: number;
  successCount: number;
  totalTokens: number;
  tokensInput: number;
  tokensOutput: number;
  totalCostMicros: number;
  totalDurationMs: number;
  timedRequests: number;
  lastUsedAt: number;
};
/** One day's figures summed over its models (the pages' charts and totals). */
export type DateTotalsRow = Omit<DailyRow, "modelName" | "modelProvider" | "lastUsedAt">;
/** One model's figures summed over the days asked for (the pages' model lists). */
export type ModelTotalsRow = Omit<DailyRow, "date">;
/** One local hour of the account's zone: `start` its first instant, `date` and `hour` its day and hour on the clock. */
export type HourlyRow = { start: number; date: string; hour: number; totalRequests: number; totalTokens: number; totalCostMicros: number };
export type RecentReport = {
  id: string;
  modelName: string;
  modelProvider: string;
  requestType: string;
  tokens: number;
  costMicros: number;
  durationMs: number;
  success: boolean;
  occurredAt: number;
  deviceId: string | null;
};

/**
 * What a page asks of the ledger, in one call: each part is read only when asked for. Day and
 * month keys are the account zone's (ADR 0030).
 */
export type LedgerQuery = {
  now: number;
  /**
   * The account's time zone as the page read it: a ledger still on another one redraws its rows
   * for this one before it answers (a change it missed).
   */
  zone?: string;
  /** Daily rows from this day (inclusive, 'YYYY-MM-DD'). */
  dailyFrom?: string;
  /** Each day's figures from this day, models summed: a row a day instead of one per day and model. */
  dateTotalsFrom?: string;
  /** Each model's figures from this day, days summed. */
  modelTotalsFrom?: string;
  hourlyFrom?: string;
  /** Requests per hour of the clock (0-23) over these days (inclusive): the usage tab's peak hours, 24 rows whatever the range. */
  peakHours?: { from: string; to: string };
  recent?: number;
  /** Distinct conversations of this month ('YYYY-MM'). */
  conversationsIn?: string;
  /** Every model the account ever used. */
  models?: boolean;
  counts?: boolean;
  /** Requests and cost per device key in this month. */
  devicesIn?: string;
  /** Spend this month and today, in the account's zone (the budget tab). */
  spend?: boolean;
  /** Sums of any range of days, grouped and filtered (issue 49); one result per query, in order. */
  slices?: SliceQuery[];
  /** Every device and request type the account has reported with (the request log's filter). */
  sliceValues?: boolean;
  /** A page of the request log (raw reports still in the ledger: the retention window). */
  log?: LogQuery;
  /** One report in full, by its id (a LogRow's id). */
  report?: string;
  /** The UTC months whose raw reports were moved to R2 (the request log lists them). */
  archivedMonths?: boolean;
  /** The state of these hard caps now, in the account's zone (ADR 0032). */
  caps?: HardCap[];
};

export type LedgerRead = {
  daily?: DailyRow[];
  dateTotals?: DateTotalsRow[];
  modelTotals?: ModelTotalsRow[];
  hourly?: HourlyRow[];
  peakHours?: Array<{ hour: number; requests: number }>;
  recent?: RecentReport[];
  conversations?: number;
  models?: Array<{ modelName: string; modelProvider: string }>;
  counts?: UsageCounts;
  devices?: Array<{ deviceId: string; requests: number; costMicros: number }>;
  spend?: { monthMicros: number; dayMicros: number };
  slices?: SliceRow[][];
  sliceValues?: SliceValues;
  log?: LogPage;
  report?: ReportDetail | null;
  /** Newest first, with how many raw reports each holds. */
  archivedMonths?: Array<{ month: string; rows: number }>;
  caps?: CapState[];
};

/**
 * A claim (POST /api/v1/entitlements/claim), decided in one ledger call: `free` applies the free
 * tier's windows, `caps` the account's hard caps (ADR 0032); a granted claim with caps reserves
 * its estimate under `claimId`. `zone`: the account's, as the caller read it.
 */
export type ClaimInput = { now: number; zone: string; free: boolean; caps: HardCap[]; target: ClaimTarget; claimId: string };
/** `caps`: every cap's state when decided (a grant's reservation included); `refusedBy`: the cap that refused it. */
export type ClaimResult = { granted: boolean; counts: UsageCounts; caps: CapState[]; refusedBy: CapState | null };

/**
 * The dimensions usage can be sliced by (issue 49): the ledger keeps `day_slices` and
 * `quarter_slices` keyed by all of them, so any filter and any grouping is a sum of rows, never a
 * scan of raw reports. A fallback (secure) report counts as one row of request type "fallback",
 * with no device, and is an error row when any of its requests failed.
 */
type SliceDimension = "model" | "provider" | "device" | "request_type" | "status";
/** A slice's grouping: one of the dimensions, or time (each local day, or each local hour). */
export type SliceGroup = SliceDimension | "date" | "hour";
type UsageStatus = "success" | "error";
/** What a view is narrowed to; each part unset means "any". `device: ""` means reports with no device. */
export type UsageFilter = { model?: string; provider?: string; device?: string; requestType?: string; status?: UsageStatus };
/** A range of the account zone's days, both ends inclusive ('YYYY-MM-DD'). */
export type SliceQuery = { from: string; to: string; groupBy: SliceGroup; filter?: UsageFilter };
/**
 * One group's sums. `key` is the group's value: a model name ("model": with `provider`), a provider,
 * a device id ("" for none), a request type, "success"/"error", a date, or a local hour's first
 * instant as a decimal string ("hour").
 */
export type SliceRow = Omit<DailyRow, "date" | "modelName" | "modelProvider" | "lastUsedAt"> & { key: string; provider?: string };

/** Values of a dimension with their requests over the account's whole history, most used first. */
export type SliceValues = { devices: Array<{ value: string; requests: number }>; requestTypes: Array<{ value: string; requests: number }> };

/**
 * A position in the request log, newest first: the last row's time, then its kind and key (a
 * usage report's rowid, a fallback report's hash), so the next page starts just after it.
 */
export type LogCursor = { at: number; kind: "usage" | "fallback"; key: string };
/** A page of the request log: raw reports in [fromMs, toMs), filtered, after `after`. */
export type LogQuery = { fromMs: number; toMs: number; filter?: UsageFilter; after?: LogCursor; limit: number };
export type LogRow = {
  /** The report's id (usage), or "fallback:<hash>". */
  id: string;
  kind: "usage" | "fallback";
  occurredAt: number;
  modelName: string;
  modelProvider: string;
  deviceId: string | null;
  requestType: string;
  /** 1 for a usage report; a fallback report's request count. */
  requests: number;
  tokens: number;
  tokensInput: number;
  tokensOutput: number;
  costMicros: number;
  /** null for a fallback report (it has no duration). */
  durationMs: number | null;
  success: boolean;
};
export type LogPage = { rows: LogRow[]; next: LogCursor | null };
/** One report in full (the request log's detail view). */
export type ReportDetail = LogRow & {
  receivedAt: number;
  errorMessage: string | null;
  metadata: unknown;
  conversationId: string | null;
  appVersion: string | null;
  appInstanceId: string | null;
  /** A fallback report's counts. */
  successCount: number;
  errorCount: number;
};
