// The tables inside one account's usage ledger (a SQLite-backed Durable Object, ADR 0020). The
// ledger holds one account, so no table has a user column. Applied in order on first use; the
// version in `meta` says how many are applied.
import { MEMBER_MIGRATION, SLICE_VALUES_MIGRATION, SLICES_MIGRATION } from "./slices";
import { RANKING_MIGRATION } from "./team-ranking";

/** The columns of a `quarters` row (and of a `daily` one, with `date` for `start`), in insert order. */
export const QUARTER_COLUMNS =
  "start, model_name, model_provider, total_requests, success_count, total_tokens, tokens_input, tokens_output, total_cost_micros, total_duration_ms, timed_requests, last_used_at";
/** What an upsert of `quarters` or `daily` adds to the row already there. */
export const QUARTER_SUMS = `total_requests = total_requests + excluded.total_requests, success_count = success_count + excluded.success_count,
    total_tokens = total_tokens + excluded.total_tokens, tokens_input = tokens_input + excluded.tokens_input,
    tokens_output = tokens_output + excluded.tokens_output, total_cost_micros = total_cost_micros + excluded.total_cost_micros,
    total_duration_ms = total_duration_ms + excluded.total_duration_ms, timed_requests = timed_requests + excluded.timed_requests,
    last_used_at = max(last_used_at, excluded.last_used_at)`;
export const LEDGER_MIGRATIONS: string[][] = [
  [
    `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    // Raw reports (within LEDGER.rawRetentionDays). id: the report_id, lower case: the one place
    // that decides whether a report was seen.
    `CREATE TABLE reports (
      id TEXT PRIMARY KEY,
      occurred_at INTEGER NOT NULL,
      received_at INTEGER NOT NULL,
      model_name TEXT NOT NULL,
      model_provider TEXT NOT NULL,
      request_type TEXT NOT NULL,
      tokens_used INTEGER NOT NULL,
      tokens_input INTEGER NOT NULL,
      tokens_output INTEGER NOT NULL,
      cost_micros INTEGER NOT NULL,
      request_duration_ms INTEGER NOT NULL,
      success INTEGER NOT NULL,
      error_message TEXT,
      metadata TEXT,
      conversation_id TEXT,
      app_version TEXT,
      app_instance_id TEXT,
      device_id TEXT
    ) WITHOUT ROWID`,
    `CREATE INDEX reports_time ON reports (occurred_at)`,
    // Fallback aggregate reports, deduplicated by their hash.
    `CREATE TABLE secure_reports (
      report_hash TEXT PRIMARY KEY,
      model_name TEXT NOT NULL,
      provider TEXT NOT NULL,
      tokens_used INTEGER NOT NULL,
      cost_micros INTEGER NOT NULL,
      request_count INTEGER NOT NULL,
      success_count INTEGER NOT NULL,
      error_count INTEGER NOT NULL,
      report_timestamp INTEGER NOT NULL,
      app_version TEXT,
      app_instance_id TEXT,
      received_at INTEGER NOT NULL
    ) WITHOUT ROWID`,
    `CREATE INDEX secure_reports_time ON secure_reports (report_timestamp)`,
    `CREATE TABLE daily (
      date TEXT NOT NULL,
      model_name TEXT NOT NULL,
      model_provider TEXT NOT NULL,
      total_requests INTEGER NOT NULL DEFAULT 0,
      success_count INTEGER NOT NULL DEFAULT 0,
      total_tokens INTEGER NOT NULL DEFAULT 0,
      tokens_input INTEGER NOT NULL DEFAULT 0,
      tokens_output INTEGER NOT NULL DEFAULT 0,
      total_cost_micros INTEGER NOT NULL DEFAULT 0,
      total_duration_ms INTEGER NOT NULL DEFAULT 0,
      timed_requests INTEGER NOT NULL DEFAULT 0,
      last_used_at INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (date, model_name, model_provider)
    ) WITHOUT ROWID`,
    `CREATE TABLE hourly (
      date TEXT NOT NULL,
      hour INTEGER NOT NULL,
      total_requests INTEGER NOT NULL DEFAULT 0,
      total_tokens INTEGER NOT NULL DEFAULT 0,
      total_cost_micros INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (date, hour)
    ) WITHOUT ROWID`,
    // Reported requests per epoch minute: only the last ENTITLEMENTS.minuteRowsKeptMs.
    `CREATE TABLE minutes (minute INTEGER PRIMARY KEY, total_requests INTEGER NOT NULL DEFAULT 0, total_tokens INTEGER NOT NULL DEFAULT 0)`,
    `CREATE TABLE conversations (month TEXT NOT NULL, conversation_id TEXT NOT NULL, PRIMARY KEY (month, conversation_id)) WITHOUT ROWID`,
    // Requests and cost per device key and month (the profile's sessions card).
    `CREATE TABLE device_months (month TEXT NOT NULL, device_id TEXT NOT NULL, requests INTEGER NOT NULL DEFAULT 0, cost_micros INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (month, device_id)) WITHOUT ROWID`,
    `CREATE TABLE budget_alerts (kind TEXT NOT NULL, period TEXT NOT NULL, sent_at INTEGER NOT NULL, PRIMARY KEY (kind, period)) WITHOUT ROWID`,
    // Granted claims (POST /api/v1/entitlements/claim) per window: minute, hour, day, month, each
    // keyed by the window's start (epoch ms).
    `CREATE TABLE claims (window TEXT NOT NULL, start INTEGER NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (window, start)) WITHOUT ROWID`,
    // Raw rows already written to R2, per month: the archive object holds exactly these.
    `CREATE TABLE archived_months (month TEXT PRIMARY KEY, rows INTEGER NOT NULL, archived_at INTEGER NOT NULL) WITHOUT ROWID`,
  ],
  // Raw reports in a rowid table, with the report id in a unique index: keyed by the (random)
  // report id itself, every insert landed in a random place among whole rows, and an ingest of
  // 5,000 took 190 ms in an empty ledger but 480 ms near 1,000,000 rows (bench/results.md,
  // "Usage ledger"); now only the small index entry lands at random and rows are appended.
  [
    `CREATE TABLE reports_by_rowid (
      id TEXT NOT NULL,
      occurred_at INTEGER NOT NULL,
      received_at INTEGER NOT NULL,
      model_name TEXT NOT NULL,
      model_provider TEXT NOT NULL,
      request_type TEXT NOT NULL,
      tokens_used INTEGER NOT NULL,
      tokens_input INTEGER NOT NULL,
      tokens_output INTEGER NOT NULL,
      cost_micros INTEGER NOT NULL,
      request_duration_ms INTEGER NOT NULL,
      success INTEGER NOT NULL,
      error_message TEXT,
      metadata TEXT,
      conversation_id TEXT,
      app_version TEXT,
      app_instance_id TEXT,
      device_id TEXT
    )`,
    `INSERT INTO reports_by_rowid SELECT id, occurred_at, received_at, model_name, model_provider, request_type, tokens_used, tokens_input,
      tokens_output, cost_micros, request_duration_ms, success, error_message, metadata, conversation_id, app_version, app_instance_id, device_id
      FROM reports ORDER BY occurred_at`,
    `DROP TABLE reports`,
    `ALTER TABLE reports_by_rowid RENAME TO reports`,
    `CREATE UNIQUE INDEX reports_id ON reports (id)`,
    `CREATE INDEX reports_time ON reports (occurred_at)`,
  ],
  // Each model the account has used, kept as reports arrive: the overview counts them, and a
  // DISTINCT over `daily` read every day of the account's history for that (2 years of eight
  // models: about 0.45 ms of SQLite a view, 5 years 1.2 ms; here one row a model).
  [
    `CREATE TABLE models (model_name TEXT NOT NULL, model_provider TEXT NOT NULL, PRIMARY KEY (model_name, model_provider)) WITHOUT ROWID`,
    `INSERT INTO models (model_name, model_provider) SELECT DISTINCT model_name, model_provider FROM daily`,
  ],
  // The account's time zone (ADR 0030): `quarters` keeps every report's figures per UTC quarter
  // hour and model, from which the days and hours of any zone are exact sums; `daily` and `hourly`
  // become the account zone's rows (hourly keyed by the local hour's first instant, so a day has
  // 23, 24 or 25 of them) and `utc_days` keeps the UTC days the free tier and the rollup count.
  // The zone is UTC here (meta 'zone' unset), so daily, conversations and device_months stay as
  // they are. Quarters come from the raw reports; what `daily` holds beyond them (reports already
  // archived to R2, which no longer say their time) goes into the day's 00:00 UTC quarter.
  [
    `CREATE TABLE quarters (
      start INTEGER NOT NULL,
      model_name TEXT NOT NULL,
      model_provider TEXT NOT NULL,
      total_requests INTEGER NOT NULL DEFAULT 0,
      success_count INTEGER NOT NULL DEFAULT 0,
      total_tokens INTEGER NOT NULL DEFAULT 0,
      tokens_input INTEGER NOT NULL DEFAULT 0,
      tokens_output INTEGER NOT NULL DEFAULT 0,
      total_cost_micros INTEGER NOT NULL DEFAULT 0,
      total_duration_ms INTEGER NOT NULL DEFAULT 0,
      timed_requests INTEGER NOT NULL DEFAULT 0,
      last_used_at INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (start, model_name, model_provider)
    ) WITHOUT ROWID`,
    `INSERT INTO quarters (${QUARTER_COLUMNS})
      SELECT occurred_at - occurred_at % 900000, model_name, model_provider, count(*), sum(success), sum(tokens_used), sum(tokens_input),
        sum(tokens_output), sum(cost_micros), sum(request_duration_ms), count(*), max(occurred_at)
      FROM reports GROUP BY 1, 2, 3`,
    `INSERT INTO quarters (${QUARTER_COLUMNS})
      SELECT report_timestamp - report_timestamp % 900000, model_name, provider, sum(request_count), sum(success_count), sum(tokens_used), 0, 0,
        sum(cost_micros), 0, 0, max(report_timestamp)
      FROM secure_reports WHERE true GROUP BY 1, 2, 3
      ON CONFLICT (start, model_name, model_provider) DO UPDATE SET ${QUARTER_SUMS}`,
    `INSERT INTO quarters (${QUARTER_COLUMNS})
      SELECT CAST(strftime('%s', d.date) AS INTEGER) * 1000, d.model_name, d.model_provider,
        d.total_requests - coalesce(q.total_requests, 0), d.success_count - coalesce(q.success_count, 0), d.total_tokens - coalesce(q.total_tokens, 0),
        d.tokens_input - coalesce(q.tokens_input, 0), d.tokens_output - coalesce(q.tokens_output, 0),
        d.total_cost_micros - coalesce(q.total_cost_micros, 0), d.total_duration_ms - coalesce(q.total_duration_ms, 0),
        d.timed_requests - coalesce(q.timed_requests, 0), d.last_used_at
      FROM daily AS d LEFT JOIN (
        SELECT strftime('%Y-%m-%d', start / 1000, 'unixepoch') AS date, model_name, model_provider, sum(total_requests) AS total_requests,
          sum(success_count) AS success_count, sum(total_tokens) AS total_tokens, sum(tokens_input) AS tokens_input, sum(tokens_output) AS tokens_output,
          sum(total_cost_micros) AS total_cost_micros, sum(total_duration_ms) AS total_duration_ms, sum(timed_requests) AS timed_requests
        FROM quarters GROUP BY 1, 2, 3
      ) AS q ON q.date = d.date AND q.model_name = d.model_name AND q.model_provider = d.model_provider
      WHERE d.total_requests <> coalesce(q.total_requests, 0) OR d.total_tokens <> coalesce(q.total_tokens, 0)
        OR d.total_cost_micros <> coalesce(q.total_cost_micros, 0) OR d.total_duration_ms <> coalesce(q.total_duration_ms, 0)
      ON CONFLICT (start, model_name, model_provider) DO UPDATE SET ${QUARTER_SUMS}`,
    `CREATE TABLE utc_days (
      date TEXT PRIMARY KEY,
      total_requests INTEGER NOT NULL DEFAULT 0,
      total_tokens INTEGER NOT NULL DEFAULT 0,
      total_cost_micros INTEGER NOT NULL DEFAULT 0
    ) WITHOUT ROWID`,
    `INSERT INTO utc_days (date, total_requests, total_tokens, total_cost_micros)
      SELECT date, sum(total_requests), sum(total_tokens), sum(total_cost_micros) FROM daily GROUP BY date`,
    `CREATE TABLE hourly_by_start (
      start INTEGER PRIMARY KEY,
      date TEXT NOT NULL,
      hour INTEGER NOT NULL,
      total_requests INTEGER NOT NULL DEFAULT 0,
      total_tokens INTEGER NOT NULL DEFAULT 0,
      total_cost_micros INTEGER NOT NULL DEFAULT 0
    )`,
    `INSERT INTO hourly_by_start (start, date, hour, total_requests, total_tokens, total_cost_micros)
      SELECT CAST(strftime('%s', date) AS INTEGER) * 1000 + hour * 3600000, date, hour, total_requests, total_tokens, total_cost_micros FROM hourly`,
    `DROP TABLE hourly`,
    `ALTER TABLE hourly_by_start RENAME TO hourly`,
  ],
  // Usage by model, provider, device, request type and status, per quarter hour and per day of the
  // account's zone (issue 49, slices.ts): any filter and grouping of any range without raw rows.
  SLICES_MIGRATION,
  // Hard caps (ADR 0032): what each granted claim holds against the caps until its report (same
  // claim_id) arrives or it expires; `day` and `month` are the account zone's when it was granted.
  [
    `CREATE TABLE cap_reservations (
      claim_id TEXT PRIMARY KEY,
      expires_at INTEGER NOT NULL,
      cost_micros INTEGER NOT NULL,
      day TEXT NOT NULL,
      month TEXT NOT NULL,
      model_name TEXT,
      model_provider TEXT,
      device_id TEXT
    ) WITHOUT ROWID`,
  ],
  // Issue 49: a budget has several thresholds, each alerted once per period, so an alert's key
  // gains its threshold. An alert sent before (one per period, at the one threshold of then) is
  // kept with threshold 0: it stands for the lowest threshold of the list (alerts.ts). Model health
  // alerts are kept per rule and model, by the end of the hour they were about.
  [
    `CREATE TABLE budget_alerts_by_threshold (
      kind TEXT NOT NULL,
      period TEXT NOT NULL,
      threshold INTEGER NOT NULL,
      sent_at INTEGER NOT NULL,
      PRIMARY KEY (kind, period, threshold)
    ) WITHOUT ROWID`,
    `INSERT INTO budget_alerts_by_threshold (kind, period, threshold, sent_at) SELECT kind, period, 0, sent_at FROM budget_alerts`,
    `DROP TABLE budget_alerts`,
    `ALTER TABLE budget_alerts_by_threshold RENAME TO budget_alerts`,
    `CREATE TABLE health_alerts (
      rule_id TEXT NOT NULL,
      model_name TEXT NOT NULL,
      model_provider TEXT NOT NULL,
      window_end INTEGER NOT NULL,
      sent_at INTEGER NOT NULL,
      PRIMARY KEY (rule_id, model_name, model_provider, window_end)
    ) WITHOUT ROWID`,
  ],
  // The devices and request types the account has used, for the request log's filter (slices.ts).
  SLICE_VALUES_MIGRATION,
  // Issue 50 (ADR 0038): a team's ledger is this same ledger, each report kept with the member who
  // sent it and the slices keyed by the member too ('' in an account's own ledger).
  MEMBER_MIGRATION,
  // Issue 50 (ADR 0039): a team's member cap holds a claim's estimate against that member only.
  [`ALTER TABLE cap_reservations ADD COLUMN member_id TEXT`],
  // Issue 50 (ADR 0038): a team's members' table kept ranked per range asked for (team-ranking.ts),
  // so a page of it reads 26 rows of an index whatever the team's size. Empty until a range is read.
  RANKING_MIGRATION,
];

/** The schema version that added the slices (LedgerStore draws their days after applying it). */
export const SLICES_VERSION = LEDGER_MIGRATIONS.indexOf(SLICES_MIGRATION) + 1;
