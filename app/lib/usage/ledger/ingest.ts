// The write half of a ledger's ingest (store.ts runs it in one storage transaction): each report
// stored once, and exactly the stored ones added to the aggregates the dashboard reads.
import { ENTITLEMENTS, LEDGER, MS } from "../../constants";
import { dayKey, monthKey } from "../dates";
import type { DailyRow, IngestOptions, LedgerSecure, LedgerUsage } from "./types";
import { columnNames, reports, secureReports } from "./tables";

// storeReports binds each row's values in these orders: the tables' definition order (tables.ts).
const REPORT_COLUMNS = columnNames(reports);
const SECURE_COLUMNS = columnNames(secureReports);
const INSERT_REPORT = `INSERT INTO reports (${REPORT_COLUMNS.join(", ")}) VALUES (${REPORT_COLUMNS.map(() => "?").join(", ")}) ON CONFLICT DO NOTHING`;
const INSERT_SECURE = `INSERT INTO secure_reports (${SECURE_COLUMNS.join(", ")}) VALUES (${SECURE_COLUMNS.map(() => "?").join(", ")}) ON CONFLICT DO NOTHING`;

const UPSERT_DAILY = `INSERT INTO daily (date, model_name, model_provider, total_requests, success_count, total_tokens, tokens_input, tokens_output,
    total_cost_micros, total_duration_ms, timed_requests, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (date, model_name, model_provider) DO UPDATE SET
    total_requests = total_requests + excluded.total_requests, success_count = success_count + excluded.success_count,
    total_tokens = total_tokens + excluded.total_tokens, tokens_input = tokens_input + excluded.tokens_input,
    tokens_output = tokens_output + excluded.tokens_output, total_cost_micros = total_cost_micros + excluded.total_cost_micros,
    total_duration_ms = total_duration_ms + excluded.total_duration_ms, timed_requests = timed_requests + excluded.timed_requests,
    last_used_at = max(last_used_at, excluded.last_used_at)`;
const UPSERT_HOURLY = `INSERT INTO hourly (date, hour, total_requests, total_tokens, total_cost_micros) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (date, hour) DO UPDATE SET total_requests = total_requests + excluded.total_requests,
    total_tokens = total_tokens + excluded.total_tokens, total_cost_micros = total_cost_micros + excluded.total_cost_micros`;
const UPSERT_MINUTE = `INSERT INTO minutes (minute, total_requests, total_tokens) VALUES (?, ?, ?)
  ON CONFLICT (minute) DO UPDATE SET total_requests = total_requests + excluded.total_requests, total_tokens = total_tokens + excluded.total_tokens`;
const UPSERT_DEVICE = `INSERT INTO device_months (month, device_id, requests, cost_micros) VALUES (?, ?, ?, ?)
  ON CONFLICT (month, device_id) DO UPDATE SET requests = requests + excluded.requests, cost_micros = cost_micros + excluded.cost_micros`;

type DailyDelta = Omit<DailyRow, "date" | "modelName" | "modelProvider">;
const emptyDaily = (): DailyDelta => ({
  totalRequests: 0,
  successCount: 0,
  totalTokens: 0,
  tokensInput: 0,
  tokensOutput: 0,
  totalCostMicros: 0,
  totalDurationMs: 0,
  timedRequests: 0,
  lastUsedAt: 0,
});

/**
 * What one call stored, added up in memory first so each aggregate row is written once per call
 * instead of once per report.
 */
export type Tally = {
  daily: Map<string, DailyDelta & { date: string; modelName: string; modelProvider: string }>;
  hourly: Map<string, { date: string; hour: number; requests: number; tokens: number; cost: number }>;
  minutes: Map<number, { requests: number; tokens: number }>;
  devices: Map<string, { month: string; deviceId: string; requests: number; cost: number }>;
  conversations: Set<string>;
  /** Every day the call's reports fall on, stored or not (a retried batch re-sends them). */
  touchedDays: Set<string>;
  stored: number;
  duplicates: number;
  expired: number;
};

function bump<K, V>(map: Map<K, V>, key: K, make: () => V, apply: (v: V) => void) {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  apply(value);
}

/** Stores the reports not seen before and writes exactly those into the aggregates. */
export function storeReports(sql: SqlStorage, usage: LedgerUsage[], secure: LedgerSecure[], now: number, options: IngestOptions): Tally {
  // Imported rows (the move from D1) are stored whatever their age: the archive takes the old
  // ones to R2 at its next run. Reported ones past retention are not stored.
  const oldest = options.importing ? Number.NEGATIVE_INFINITY : now - LEDGER.rawRetentionDays * MS.DAY;
  const minuteFloor = Math.floor((now - ENTITLEMENTS.minuteRowsKeptMs) / MS.MINUTE);
  const tally: Tally = {
    daily: new Map(),
    hourly: new Map(),
    minutes: new Map(),
    devices: new Map(),
    conversations: new Set(),
    touchedDays: new Set(),
    stored: 0,
    duplicates: 0,
    expired: 0,
  };
  for (const r of usage) storeUsage(sql, r, oldest, minuteFloor, tally);
  for (const s of secure) storeSecure(sql, s, oldest, tally);
  writeAggregates(sql, tally, minuteFloor);
  return tally;
}

function storeUsage(sql: SqlStorage, r: LedgerUsage, oldest: number, minuteFloor: number, tally: Tally) {
  const date = dayKey(r.occurredAt);
  tally.touchedDays.add(date);
  if (r.occurredAt < oldest) {
    tally.expired += 1;
    return;
  }
  const cursor = sql.exec(
    INSERT_REPORT,
    r.id.toLowerCase(),
    r.occurredAt,
    r.receivedAt,
    r.modelName,
    r.modelProvider,
    r.requestType,
    r.tokensUsed,
    r.tokensInput,
    r.tokensOutput,
    r.costMicros,
    r.durationMs,
    r.success ? 1 : 0,
    r.errorMessage,
    r.metadata,
    r.conversationId,
    r.appVersion,
    r.appInstanceId,
    r.deviceId,
  );
  if (cursor.rowsWritten === 0) {
    tally.duplicates += 1;
    return;
  }
  tally.stored += 1;
  addUsage(tally, r, date, minuteFloor);
}

function addUsage(tally: Tally, r: LedgerUsage, date: string, minuteFloor: number) {
  bump(
    tally.daily,
    `${date}\u0000${r.modelName}\u0000${r.modelProvider}`,
    () => ({ ...emptyDaily(), date, modelName: r.modelName, modelProvider: r.modelProvider }),
    (d) => {
      d.totalRequests += 1;
      d.successCount += r.success ? 1 : 0;
      d.totalTokens += r.tokensUsed;
      d.tokensInput += r.tokensInput;
      d.tokensOutput += r.tokensOutput;
      d.totalCostMicros += r.costMicros;
      d.totalDurationMs += r.durationMs;
      d.timedRequests += 1;
      d.lastUsedAt = Math.max(d.lastUsedAt, r.occurredAt);
    },
  );
  const hour = new Date(r.occurredAt).getUTCHours();
  bump(
    tally.hourly,
    `${date}\u0000${hour}`,
    () => ({ date, hour, requests: 0, tokens: 0, cost: 0 }),
    (h) => {
      h.requests += 1;
      h.tokens += r.tokensUsed;
      h.cost += r.costMicros;
    },
  );
  const minute = Math.floor(r.occurredAt / MS.MINUTE);
  if (minute >= minuteFloor) {
    bump(
      tally.minutes,
      minute,
      () => ({ requests: 0, tokens: 0 }),
      (m) => {
        m.requests += 1;
        m.tokens += r.tokensUsed;
      },
    );
  }
  if (r.deviceId) {
    const month = monthKey(r.occurredAt);
    bump(
      tally.devices,
      `${month}\u0000${r.deviceId}`,
      () => ({ month, deviceId: r.deviceId!, requests: 0, cost: 0 }),
      (d) => {
        d.requests += 1;
        d.cost += r.costMicros;
      },
    );
  }
  if (r.conversationId) tally.conversations.add(`${monthKey(r.occurredAt)}\u0000${r.conversationId}`);
}

function storeSecure(sql: SqlStorage, s: LedgerSecure, oldest: number, tally: Tally) {
  const date = dayKey(s.reportTimestamp);
  tally.touchedDays.add(date);
  if (s.reportTimestamp < oldest) {
    tally.expired += 1;
    return;
  }
  const cursor = sql.exec(
    INSERT_SECURE,
    s.reportHash,
    s.modelName,
    s.provider,
    s.tokensUsed,
    s.costMicros,
    s.requestCount,
    s.successCount,
    s.errorCount,
    s.reportTimestamp,
    s.appVersion,
    s.appInstanceId,
    s.receivedAt,
  );
  if (cursor.rowsWritten === 0) {
    tally.duplicates += 1;
    return;
  }
  tally.stored += 1;
  // A fallback report has no duration: it adds requests but no timed ones (as before).
  bump(
    tally.daily,
    `${date}\u0000${s.modelName}\u0000${s.provider}`,
    () => ({ ...emptyDaily(), date, modelName: s.modelName, modelProvider: s.provider }),
    (d) => {
      d.totalRequests += s.requestCount;
      d.successCount += s.successCount;
      d.totalTokens += s.tokensUsed;
      d.totalCostMicros += s.costMicros;
      d.lastUsedAt = Math.max(d.lastUsedAt, s.reportTimestamp);
    },
  );
}

function writeAggregates(sql: SqlStorage, tally: Tally, minuteFloor: number) {
  for (const d of tally.daily.values()) {
    sql.exec(
      UPSERT_DAILY,
      d.date,
      d.modelName,
      d.modelProvider,
      d.totalRequests,
      d.successCount,
      d.totalTokens,
      d.tokensInput,
      d.tokensOutput,
      d.totalCostMicros,
      d.totalDurationMs,
      d.timedRequests,
      d.lastUsedAt,
    );
  }
  // One insert per model of the call (a call's daily rows may span days).
  const models = new Map([...tally.daily.values()].map((d) => [`${d.modelName}\u0000${d.modelProvider}`, d]));
  for (const d of models.values()) {
    sql.exec(`INSERT INTO models (model_name, model_provider) VALUES (?, ?) ON CONFLICT DO NOTHING`, d.modelName, d.modelProvider);
  }
  for (const h of tally.hourly.values()) sql.exec(UPSERT_HOURLY, h.date, h.hour, h.requests, h.tokens, h.cost);
  for (const [minute, m] of tally.minutes) sql.exec(UPSERT_MINUTE, minute, m.requests, m.tokens);
  for (const d of tally.devices.values()) sql.exec(UPSERT_DEVICE, d.month, d.deviceId, d.requests, d.cost);
  for (const key of tally.conversations) {
    const [month, id] = key.split("\u0000") as [string, string];
    sql.exec(`INSERT INTO conversations (month, conversation_id) VALUES (?, ?) ON CONFLICT DO NOTHING`, month, id);
  }
  sql.exec(`DELETE FROM minutes WHERE minute < ?`, minuteFloor);
}
