// The aggregate statements that turn one ingest batch of raw rows into the dashboard's tables,
// and the raw table's columns in the schema's order. ?1 is the batch id. Shared by the consumer
// and the local seed (scripts/seed.mjs), so seeded history is stored and aggregated exactly like
// reported usage.

export const USAGE_COLUMNS = [
  "id",
  "user_id",
  "model_name",
  "model_provider",
  "request_type",
  "tokens_used",
  "tokens_input",
  "tokens_output",
  "cost_micros",
  "request_duration_ms",
  "success",
  "error_message",
  "metadata",
  "conversation_id",
  "app_version",
  "app_instance_id",
  "device_id",
  "occurred_at",
  "received_at",
  "ingest_batch",
];

export const USAGE_AGGREGATES = [
  `        INSERT INTO daily_usage_summary (user_id, date, model_name, model_provider, total_requests, success_count, total_tokens,
          tokens_input, tokens_output, total_cost_micros, total_duration_ms, timed_requests, last_used_at)
        SELECT user_id, strftime('%Y-%m-%d', occurred_at / 1000, 'unixepoch'), model_name, model_provider, count(*), sum(success),
          sum(tokens_used), sum(tokens_input), sum(tokens_output), sum(cost_micros), sum(request_duration_ms), count(*), max(occurred_at)
        FROM model_usage WHERE ingest_batch = ?1 GROUP BY 1, 2, 3, 4
        ON CONFLICT (user_id, date, model_name, model_provider) DO UPDATE SET
          total_requests = total_requests + excluded.total_requests, success_count = success_count + excluded.success_count,
          total_tokens = total_tokens + excluded.total_tokens, tokens_input = tokens_input + excluded.tokens_input,
          tokens_output = tokens_output + excluded.tokens_output, total_cost_micros = total_cost_micros + excluded.total_cost_micros,
          total_duration_ms = total_duration_ms + excluded.total_duration_ms, timed_requests = timed_requests + excluded.timed_requests,
          last_used_at = max(last_used_at, excluded.last_used_at)`,
  `        INSERT INTO hourly_usage (user_id, date, hour, total_requests, total_tokens, total_cost_micros)
        SELECT user_id, strftime('%Y-%m-%d', occurred_at / 1000, 'unixepoch'), CAST(strftime('%H', occurred_at / 1000, 'unixepoch') AS INTEGER),
          count(*), sum(tokens_used), sum(cost_micros)
        FROM model_usage WHERE ingest_batch = ?1 GROUP BY 1, 2, 3
        ON CONFLICT (user_id, date, hour) DO UPDATE SET total_requests = total_requests + excluded.total_requests,
          total_tokens = total_tokens + excluded.total_tokens, total_cost_micros = total_cost_micros + excluded.total_cost_micros`,
  // Only the last two hours (ENTITLEMENTS.minuteRowsKeptMs): older minutes no limit looks at, and
  // the seed's month of history would otherwise fill the table until the next sweep.
  `        INSERT INTO minute_usage (user_id, minute, total_requests, total_tokens)
        SELECT user_id, occurred_at / 60000, count(*), sum(tokens_used)
        FROM model_usage WHERE ingest_batch = ?1 AND occurred_at >= (CAST(strftime('%s', 'now') AS INTEGER) - 7200) * 1000 GROUP BY 1, 2
        ON CONFLICT (user_id, minute) DO UPDATE SET total_requests = total_requests + excluded.total_requests,
          total_tokens = total_tokens + excluded.total_tokens`,
  `        INSERT OR IGNORE INTO conversations (user_id, month, conversation_id)
        SELECT user_id, strftime('%Y-%m', occurred_at / 1000, 'unixepoch'), conversation_id
        FROM model_usage WHERE ingest_batch = ?1 AND conversation_id IS NOT NULL GROUP BY 1, 2, 3`,
];

export const SECURE_AGGREGATES = [
  `        INSERT INTO daily_usage_summary (user_id, date, model_name, model_provider, total_requests, success_count, total_tokens,
          total_cost_micros, last_used_at)
        SELECT user_id, strftime('%Y-%m-%d', report_timestamp / 1000, 'unixepoch'), model_name, provider, sum(request_count), sum(success_count),
          sum(tokens_used), sum(cost_micros), max(report_timestamp)
        FROM secure_usage_reports WHERE ingest_batch = ?1 GROUP BY 1, 2, 3, 4
        ON CONFLICT (user_id, date, model_name, model_provider) DO UPDATE SET
          total_requests = total_requests + excluded.total_requests, success_count = success_count + excluded.success_count,
          total_tokens = total_tokens + excluded.total_tokens, total_cost_micros = total_cost_micros + excluded.total_cost_micros,
          last_used_at = max(last_used_at, excluded.last_used_at)`,
];
