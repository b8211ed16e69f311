// The spec's numbers for usage: budgets, the usage pages, the desktop API's limits, the free tier
// and the ledgers (part of ./index.ts).
import { EVENTS_QUEUE } from "./site.ts";
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

// Issue 49 widens the spec's one threshold (50–95 in steps of 5) to a list: up to five whole
// percents, each alerted once per period; 100 and above alert at and past the budget itself.
export const BUDGET = {
  alertThresholdMin: 1,
  alertThresholdMax: 200,
  maxAlertThresholds: 5,
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
  // Not in the spec: the ranges of a team's members' table kept ranked in its ledger (ADR 0038):
  // each costs an ingest a row per member it holds reports of. A team's viewers ask for one range
  // per range length (7, 30, 90 days) and offset of their zones in use; past this, the oldest goes
  // and is ranked again (one sum of its slices) if asked for again.
  teamRangesKept: 12,
} as const;

export const FREE_TIER = {
  requestsPerMonth: 1000,
  tokensPerMonth: 100_000,
  perMinute: 3,
  perHour: 20,
  perDay: 100,
} as const;

// The request log (/dashboard/usage/requests, issue 49): rows a page, the days it shows when the
// URL names none, and the longest range whose histogram is drawn hour by hour (longer: by day).
// 25 rows: a page of 50 was 115 KB of HTML (1,160 elements) and Lighthouse's simulated first paint
// on a phone 1.8 s (score 98); 25 is what OpenRouter's and Helicone's logs show at first too.
export const REQUEST_LOG = { pageSize: 25, defaultDays: 7, hourlyMaxDays: 2 } as const;

// Not in the spec: personal API keys, which read one's own usage (issue 49, ADR 0034). A key is
// `mdl_live_` and `secretLength` random base62 characters (238 bits), shown once; the dashboard
// lists it by its first `shownLength` characters. An account holds at most `maxPerAccount` live
// keys. `last_used_at` is written at most once per `lastUsedIntervalMs`, so a script polling the
// API does not write D1 on every request.
export const API_KEYS = {
  prefix: "mdl_live_",
  secretLength: 40,
  shownLength: 14,
  maxPerAccount: 10,
  nameMaxLength: 60,
  lastUsedIntervalMs: 5 * MINUTE,
  scopes: ["usage:read"],
} as const;

// Not in the spec: the read API (GET /api/v1/usage/summary and /requests, issue 49). Each key (or
// device key) may make `perMinute` reads in a window of a minute from its first, counted in D1 so
// the limit is exact under a burst. A summary spans at most `maxSummaryDays` days; the request log
// answers pages of `defaultPageSize` rows (at most `maxPageSize`), over the reports the ledger
// still holds (LEDGER.rawRetentionDays).
export const READ_API = {
  perMinute: 60,
  windowMs: 1 * MINUTE,
  maxSummaryDays: 366,
  defaultPageSize: 50,
  maxPageSize: 200,
  maxFilterLength: 200,
} as const;

// Not in the spec: model health alerts (issue 49). A rule looks at one model's last hour (the four
// UTC quarter hours ending at a report's quarter) and needs at least `minRequests` in it, so one
// failed call of one is not an alert. A report whose quarter ended more than `lateMs` before it
// arrived alerts nothing: it is about an hour already past. Each rule alerts once per model per hour.
export const HEALTH_ALERTS = {
  windowQuarters: 4,
  minRequests: 10,
  lateMs: 1 * HOUR,
  maxRulesPerAccount: 10,
  errorRateMinPercent: 1,
  errorRateMaxPercent: 100,
  latencyMinMs: 1,
  latencyMaxMs: USAGE_API.maxDurationMs,
} as const;

// Not in the spec: alert webhooks (issue 49, ADR 0033). Each delivery is tried at most
// `maxAttempts` times (the events queue's first delivery and its retries), waiting
// `retryBaseSeconds` doubled each time, at most `retryMaxSeconds`.
export const WEBHOOKS = {
  maxPerAccount: 5,
  maxAttempts: EVENTS_QUEUE.maxRetries + 1,
  urlMaxLength: 2000,
  secretBytes: 32,
  timeoutMs: 10 * SECOND,
  retryBaseSeconds: 30,
  retryMaxSeconds: 3600,
  // The page shows each webhook's newest deliveries; older ones are kept this long.
  deliveriesShown: 10,
  deliveriesKeptMs: 30 * 24 * HOUR,
  errorMaxChars: 200,
} as const;

// Webhooks an account may add in a day, however many it removed meanwhile: each one mails its
// owner and is a new destination for the account's data. Apart from WEBHOOKS, which the pages'
// shared script carries (vite.config.ts, "shared"): only the server reads it.
export const WEBHOOK_ADDS_PER_ACCOUNT = { limit: 20, windowMs: 24 * HOUR } as const;
