// The tables inside one account's usage ledger (a SQLite-backed Durable Object, ADR 0020). The
// ledger holds one account, so no table has a user column. Applied in order on first use; the
// version in `meta` says how many are applied.
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
];
