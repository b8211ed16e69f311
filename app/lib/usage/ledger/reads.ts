// The read half of a ledger (store.ts): the figures a page asks for in its one call, the spend the
// budget alerts compare (in the account's zone), and the window counts a free account's claims
// are decided on (UTC windows: from the quarter hours and UTC days, ADR 0030).
import { MS } from "../../constants";
import { UTC } from "../../time-zone";
import { dayKey, dayStart, monthKey } from "../dates";
import { type UsageCounts, windowBounds, type WindowName } from "../windows";
import { readLog, readReport } from "./log";
import { readSlices, readSliceValues } from "./slices";
import type { DailyRow, DateTotalsRow, DayTotals, HourlyRow, LedgerQuery, LedgerRead, ModelTotalsRow, RecentReport } from "./types";

type Row = Record<string, SqlStorageValue>;

export const num = (v: SqlStorageValue | undefined) => Number(v ?? 0);

/** The query's parts, with day keys of `zone`: the zone the ledger's rows are in. */
export function readLedger(sql: SqlStorage, q: LedgerQuery, zone: string): LedgerRead {
  const out: LedgerRead = {};
  if (q.dailyFrom !== undefined) out.daily = dailyRows(sql, q.dailyFrom);
  if (q.dateTotalsFrom !== undefined) out.dateTotals = dateTotalsRows(sql, q.dateTotalsFrom);
  if (q.modelTotalsFrom !== undefined) out.modelTotals = modelTotalsRows(sql, q.modelTotalsFrom);
  if (q.hourlyFrom !== undefined) out.hourly = hourlyRows(sql, q.hourlyFrom, zone);
  if (q.peakHours !== undefined) out.peakHours = peakHours(sql, q.peakHours.from, q.peakHours.to, zone);
  if (q.recent) out.recent = recentReports(sql, q.recent);
  if (q.conversationsIn !== undefined) {
    out.conversations = num(sql.exec(`SELECT count(*) AS n FROM conversations WHERE month = ?`, q.conversationsIn).one().n);
  }
  if (q.models) {
    out.models = sql
      .exec(`SELECT model_name, model_provider FROM models`)
      .toArray()
      .map((r) => ({ modelName: String(r.model_name), modelProvider: String(r.model_provider) }));
  }
  if (q.counts) out.counts = windowCounts(sql, q.now);
  if (q.devicesIn !== undefined) {
    out.devices = sql
      .exec(`SELECT device_id, requests, cost_micros FROM device_months WHERE month = ?`, q.devicesIn)
      .toArray()
      .map((r) => ({ deviceId: String(r.device_id), requests: num(r.requests), costMicros: num(r.cost_micros) }));
  }
  if (q.spend) out.spend = spend(sql, q.now, zone);
  if (q.slices) out.slices = q.slices.map((slice) => readSlices(sql, slice, zone));
  if (q.sliceValues) out.sliceValues = readSliceValues(sql);
  if (q.log) out.log = readLog(sql, q.log);
  if (q.report !== undefined) out.report = readReport(sql, q.report);
  if (q.archivedMonths) {
    out.archivedMonths = sql
      .exec(`SELECT month, rows FROM archived_months ORDER BY month DESC`)
      .toArray()
      .map((r) => ({ month: String(r.month), rows: num(r.rows) }));
  }
  return out;
}

// The pages sum the daily rows by day and by model: done here, a page's call carries a row per day
// and one per model instead of one per day and model (a month of eight models: 60 against 480),
// and neither side builds or copies the rest (docs/performance.md).
const SUMS = [
  "sum(total_requests) AS total_requests",
  "sum(success_count) AS success_count",
  "sum(total_tokens) AS total_tokens",
  "sum(tokens_input) AS tokens_input",
  "sum(tokens_output) AS tokens_output",
  "sum(total_cost_micros) AS total_cost_micros",
  "sum(total_duration_ms) AS total_duration_ms",
  "sum(timed_requests) AS timed_requests",
].join(", ");

/** A daily row's figures, or their sums (SUMS names them alike). */
const sums = (r: Row) => ({
  totalRequests: num(r.total_requests),
  successCount: num(r.success_count),
  totalTokens: num(r.total_tokens),
  tokensInput: num(r.tokens_input),
  tokensOutput: num(r.tokens_output),
  totalCostMicros: num(r.total_cost_micros),
  totalDurationMs: num(r.total_duration_ms),
  timedRequests: num(r.timed_requests),
});

function dailyRows(sql: SqlStorage, from: string): DailyRow[] {
  return sql
    .exec(`SELECT * FROM daily WHERE date >= ? ORDER BY date, model_name, model_provider`, from)
    .toArray()
    .map((r: Row) => ({
      date: String(r.date),
      modelName: String(r.model_name),
      modelProvider: String(r.model_provider),
      ...sums(r),
      lastUsedAt: num(r.last_used_at),
    }));
}

function dateTotalsRows(sql: SqlStorage, from: string): DateTotalsRow[] {
  return sql
    .exec(`SELECT date, ${SUMS} FROM daily WHERE date >= ? GROUP BY date ORDER BY date`, from)
    .toArray()
    .map((r: Row) => ({ date: String(r.date), ...sums(r) }));
}

function modelTotalsRows(sql: SqlStorage, from: string): ModelTotalsRow[] {
  return sql
    .exec(
      `SELECT model_name, model_provider, ${SUMS}, max(last_used_at) AS last_used_at FROM daily WHERE date >= ? GROUP BY model_name, model_provider ORDER BY model_name, model_provider`,
      from,
    )
    .toArray()
    .map((r: Row) => ({ modelName: String(r.model_name), modelProvider: String(r.model_provider), ...sums(r), lastUsedAt: num(r.last_used_at) }));
}

/** The first instant of a day key, any day before 1970 ("0000-00-00": all of them) reading as the earliest. */
const firstInstant = (day: string, zone: string) => (day < "1970-01-02" ? Number.MIN_SAFE_INTEGER : dayStart(day, zone));

function hourlyRows(sql: SqlStorage, from: string, zone: string): HourlyRow[] {
  return sql
    .exec(`SELECT start, date, hour, total_requests, total_tokens, total_cost_micros FROM hourly WHERE start >= ? ORDER BY start`, firstInstant(from, zone))
    .toArray()
    .map((r) => ({
      start: num(r.start),
      date: String(r.date),
      hour: num(r.hour),
      totalRequests: num(r.total_requests),
      totalTokens: num(r.total_tokens),
      totalCostMicros: num(r.total_cost_micros),
    }));
}

function peakHours(sql: SqlStorage, from: string, to: string, zone: string): Array<{ hour: number; requests: number }> {
  const rows = sql
    .exec(`SELECT hour, sum(total_requests) AS requests FROM hourly WHERE start >= ? AND date <= ? GROUP BY hour ORDER BY hour`, firstInstant(from, zone), to)
    .toArray();
  return rows.map((r) => ({ hour: num(r.hour), requests: num(r.requests) }));
}

function recentReports(sql: SqlStorage, limit: number): RecentReport[] {
  return sql
    .exec(
      `SELECT id, model_name, model_provider, request_type, tokens_used, cost_micros, request_duration_ms, success, occurred_at, device_id
       FROM reports ORDER BY occurred_at DESC LIMIT ?`,
      limit,
    )
    .toArray()
    .map((r) => ({
      id: String(r.id),
      modelName: String(r.model_name),
      modelProvider: String(r.model_provider),
      requestType: String(r.request_type),
      tokens: num(r.tokens_used),
      costMicros: num(r.cost_micros),
      durationMs: num(r.request_duration_ms),
      success: num(r.success) === 1,
      occurredAt: num(r.occurred_at),
      deviceId: r.device_id === null ? null : String(r.device_id),
    }));
}

/** The whole totals of each of the UTC days `dates`, over every model (the cross-account rollup counts UTC days). */
export function dayTotals(sql: SqlStorage, dates: string[]): DayTotals[] {
  return dates.sort().map((date) => {
    const row = sql.exec(`SELECT total_requests, total_tokens, total_cost_micros FROM utc_days WHERE date = ?`, date).toArray()[0];
    return { date, requests: num(row?.total_requests), tokens: num(row?.total_tokens), costMicros: num(row?.total_cost_micros) };
  });
}

/** Spend this month and today in micro-dollars: the month and the day of `zone` (the ledger's) that hold `now`. */
export function spend(sql: SqlStorage, now: number, zone: string): { monthMicros: number; dayMicros: number } {
  const row = sql
    .exec(
      `SELECT coalesce(sum(total_cost_micros), 0) AS month, coalesce(sum(CASE WHEN date = ? THEN total_cost_micros END), 0) AS day
       FROM daily WHERE date >= ?`,
      dayKey(now, zone),
      `${monthKey(now, zone)}-01`,
    )
    .one();
  return { monthMicros: num(row.month), dayMicros: num(row.day) };
}

/**
 * Requests in each window of `now`: the greater of the reports counted and the claims granted
 * (a claimed call that has not reported yet still counts; an app that does not claim is counted
 * by its reports). Tokens only by reports.
 */
export function windowCounts(sql: SqlStorage, now: number): UsageCounts {
  const w = windowBounds(now);
  const reported = sql
    .exec(
      `SELECT
        (SELECT coalesce(sum(total_requests), 0) FROM minutes WHERE minute = ?1) AS minute,
        (SELECT coalesce(sum(total_requests), 0) FROM quarters WHERE start >= ?2 AND start < ?3) AS hour,
        (SELECT coalesce(sum(total_requests), 0) FROM utc_days WHERE date = ?4) AS day,
        (SELECT coalesce(sum(total_requests), 0) FROM utc_days WHERE date >= ?5 AND date < ?6) AS month_requests,
        (SELECT coalesce(sum(total_tokens), 0) FROM utc_days WHERE date >= ?5 AND date < ?6) AS month_tokens`,
      w.minute.start / MS.MINUTE,
      w.hour.start,
      w.hour.end,
      dayKey(now, UTC),
      dayKey(w.month.start, UTC),
      dayKey(w.month.end, UTC),
    )
    .one();
  const claimed = claimedCounts(sql, now);
  return {
    minute: Math.max(num(reported.minute), claimed.minute),
    hour: Math.max(num(reported.hour), claimed.hour),
    day: Math.max(num(reported.day), claimed.day),
    monthRequests: Math.max(num(reported.month_requests), claimed.month),
    monthTokens: num(reported.month_tokens),
  };
}

function claimedCounts(sql: SqlStorage, now: number): Record<WindowName, number> {
  const w = windowBounds(now);
  const out: Record<WindowName, number> = { minute: 0, hour: 0, day: 0, month: 0 };
  const rows = sql
    .exec(
      `SELECT window, count FROM claims WHERE (window = 'minute' AND start = ?) OR (window = 'hour' AND start = ?) OR (window = 'day' AND start = ?) OR (window = 'month' AND start = ?)`,
      w.minute.start,
      w.hour.start,
      w.day.start,
      w.month.start,
    )
    .toArray();
  for (const r of rows) out[String(r.window) as WindowName] = num(r.count);
  return out;
}
