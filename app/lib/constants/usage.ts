// The spec's numbers for usage: budgets, the usage pages, the desktop API's limits, the free tier
// and the ledgers (part of ./index.ts).
import { SECOND, MINUTE, HOUR } from "./time.ts";

export const BUDGET_DEFAULTS = {
  monthlyBudgetUsd: 10,
  dailyBudgetUsd: 0.5,
  alertThresholdPercent: 80,
  notificationsEnabled: true,
} as const;

export const USAGE = {
  weeklyUsageWeeks: 4,
  recentActivityItems: 10,
  // Not in the spec (issue 49 replaced its "current cost × 1.1"): the overview forecasts this
  // month's spend from the average daily spend of this many complete days before today.
  forecastBasisDays: 7,
  exportDays: 30,
  ranges: { "1d": 1, "7d": 7, "30d": 30 },
  // Not in the spec (issue 49): the per-request CSV reads the request log this many rows a ledger
  // call, and holds at most this many rows (a narrower range or a filter gets the rest).
  requestsCsvPageRows: 1000,
  requestsCsvMaxRows: 100_000,
} as const;

// Limits of the usage reporting API (desktop app → /api/v1/usage).
export const USAGE_API = {
  maxReportsPerRequest: 100,
  maxBodyBytes: 1024 * 1024,
  maxMetadataBytes: 8 * 1024,
  // Spec: the public API allows 1,000 requests per minute per key, in a fixed window of 60 s
  // aligned to the clock.
  requestsPerMinute: 1000,
  rateLimitPeriodSeconds: 60,
  // Requests one allowed limiter call lets an isolate serve (app/server/rate-limit-leases.ts), so
  // wrangler.toml's [[ratelimits]] limit is requestsPerMinute / rateLimitLease = 100 (ADR 0015).
  rateLimitLease: 10,
  maxTokens: 10_000_000,
  maxCostUsd: 10_000,
  maxDurationMs: 1 * HOUR,
  maxAgeDays: 90,
  // Requests one fallback (secure) report may sum up.
  maxSecureRequestCount: 100_000,
  maxFutureSkewMs: 5 * MINUTE,
  // A desktop session found live is trusted this long by the usage routes of one Worker
  // isolate: a revoked desktop token may go on reporting usage for up to this long (ADR 0015).
  desktopSessionRecheckMs: 5 * SECOND,
  // Sessions one isolate remembers for that check; the oldest is forgotten first.
  desktopSessionCacheSize: 10_000,
} as const;

export const BUDGET = {
  alertThresholdMin: 50,
  alertThresholdMax: 95,
  alertThresholdStep: 5,
  maxBudgetUsd: 1_000_000,
  messageMs: 3 * SECOND,
} as const;

export const ACHIEVEMENTS = {
  powerUserRequests: 100,
  speedDemonMs: 1 * SECOND,
  innovatorModels: 3,
} as const;

// The entitlement call (GET /api/v1/entitlements): an account's ledger keeps per-minute counts
// this long (each write deletes older minutes, and records none older). The claim
// (POST /api/v1/entitlements/claim) takes no body: at most `{}` and some whitespace.
export const ENTITLEMENTS = { minuteRowsKeptMs: 2 * HOUR, claimMaxBodyBytes: 1024 } as const;

// Hard caps (issue 49, ADR 0032). A granted claim holds its estimated cost against the caps until
// the report with its claim_id arrives, or this long (an app that crashed never reports); an
// account keeps at most `maxPerAccount` caps of single models and devices.
export const HARD_CAPS = { reservationTimeoutMs: 10 * MINUTE, maxPerAccount: 50 } as const;

// Not in the spec: the usage tab's live sockets (issue 45). An account keeps at most this many open
// at once (the oldest closes for a new one); each belongs to a web session and ends with it.
export const LIVE_USAGE = { maxSocketsPerAccount: 10 } as const;

// The usage ledger of one account (a Durable Object, ADR 0020). Raw reports stay in it this long
// and then move to R2: longer than the API's USAGE_API.maxAgeDays (90), so a report the API can
// still accept always finds its first copy in the ledger and is stored exactly once. The
// aggregates stay for good (one row per day and model).
export const LEDGER = {
  rawRetentionDays: 100,
  // Reports one ingest call takes (a queue batch has at most 100; the move command sends more).
  maxReportsPerIngest: 5000,
  // Raw rows the hourly cron moves out of one ledger per run, and ledgers it visits per run.
  archiveRowsPerRun: 50_000,
  archiveLedgersPerRun: 200,
} as const;

export const FREE_TIER = {
  requestsPerMonth: 1000,
  tokensPerMonth: 100_000,
  perMinute: 3,
  perHour: 20,
  perDay: 100,
} as const;
