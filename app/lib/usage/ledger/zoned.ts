// The account zone's rows of a ledger (ADR 0030): where a report falls in the zone (its local
// hour, day and month), and the rebuild of those rows from the UTC quarter hours when the zone
// changes. No raw report is rewritten: `quarters` and `utc_days` do not depend on the zone.
import { LEDGER, MS } from "../../constants";
import { offsetPeriods, wallClock } from "../../time-zone";
import { monthKey, startOfMonth, startOfNextMonth } from "../dates";
import { QUARTER_SUMS } from "./schema";
import { rebuildDaySlices } from "./slices";

/** The local hour `ms` falls in: its first instant, its local date and its hour on the clock. */
export function localHourOf(ms: number, zone: string): { start: number; date: string; hour: number } {
  const local = wallClock(ms, zone);
  const start = ms - (local.getTime() % MS.HOUR);
  return { start, date: local.toISOString().slice(0, 10), hour: local.getUTCHours() };
}

// Each statement is run once per period of one offset (?1: the offset, ?2 and ?3: the period):
// the zone's local time of a row is then its UTC time plus ?1, for SQLite's date functions.
const LOCAL = (column: string) => `CAST((${column} + ?1) / 1000 AS INTEGER), 'unixepoch'`;

const DAILY_FROM_QUARTERS = `INSERT INTO daily (date, model_name, model_provider, total_requests, success_count, total_tokens, tokens_input,
    tokens_output, total_cost_micros, total_duration_ms, timed_requests, last_used_at)
  SELECT strftime('%Y-%m-%d', ${LOCAL("start")}), model_name, model_provider, sum(total_requests), sum(success_count), sum(total_tokens),
    sum(tokens_input), sum(tokens_output), sum(total_cost_micros), sum(total_duration_ms), sum(timed_requests), max(last_used_at)
  FROM quarters WHERE start >= ?2 AND start < ?3 GROUP BY 1, 2, 3
  ON CONFLICT (date, model_name, model_provider) DO UPDATE SET ${QUARTER_SUMS}`;

// A local hour starts at its UTC instant less the minutes and seconds its local time is past the hour.
const HOURLY_FROM_QUARTERS = `INSERT INTO hourly (start, date, hour, total_requests, total_tokens, total_cost_micros)
  SELECT start - (start + ?1) % 3600000, strftime('%Y-%m-%d', ${LOCAL("start")}), CAST(strftime('%H', ${LOCAL("start")}) AS INTEGER),
    sum(total_requests), sum(total_tokens), sum(total_cost_micros)
  FROM quarters WHERE start >= ?2 AND start < ?3 GROUP BY 1
  ON CONFLICT (start) DO UPDATE SET total_requests = total_requests + excluded.total_requests,
    total_tokens = total_tokens + excluded.total_tokens, total_cost_micros = total_cost_micros + excluded.total_cost_micros`;

const DEVICES_FROM_REPORTS = `INSERT INTO device_months (month, device_id, requests, cost_micros)
  SELECT strftime('%Y-%m', ${LOCAL("occurred_at")}), device_id, count(*), sum(cost_micros)
  FROM reports WHERE device_id IS NOT NULL AND occurred_at >= ?2 AND occurred_at < ?3 GROUP BY 1, 2
  ON CONFLICT (month, device_id) DO UPDATE SET requests = requests + excluded.requests, cost_micros = cost_micros + excluded.cost_micros`;

const CONVERSATIONS_FROM_REPORTS = `INSERT INTO conversations (month, conversation_id)
  SELECT DISTINCT strftime('%Y-%m', ${LOCAL("occurred_at")}), conversation_id
  FROM reports WHERE conversation_id IS NOT NULL AND occurred_at >= ?2 AND occurred_at < ?3
  ON CONFLICT DO NOTHING`;

const bounds = (sql: SqlStorage, query: string) => {
  const row = sql.exec(query).one();
  return row.first === null ? null : { first: Number(row.first), last: Number(row.last) };
};

/**
 * Redraws the zone's rows for `zone` (the caller runs it in one storage transaction): `daily`,
 * `hourly` and `day_slices` from every quarter hour; `device_months` and `conversations` from the raw reports, for
 * the local months that start within the raw retention window (every report of those months is
 * still raw; older months keep the zone they were counted in). The ledger's stored zone is the
 * caller's to set.
 */
export function rebuildZoneRows(sql: SqlStorage, zone: string, now: number) {
  sql.exec(`DELETE FROM daily`);
  sql.exec(`DELETE FROM hourly`);
  const quarters = bounds(sql, `SELECT min(start) AS first, max(start) AS last FROM quarters`);
  if (quarters) {
    for (const p of offsetPeriods(quarters.first, quarters.last + MS.QUARTER_HOUR, zone)) {
      sql.exec(DAILY_FROM_QUARTERS, p.offset, p.start, p.end);
      sql.exec(HOURLY_FROM_QUARTERS, p.offset, p.start, p.end);
    }
  }
  rebuildDaySlices(sql, zone);
  const retained = now - LEDGER.rawRetentionDays * MS.DAY;
  const from = startOfMonth(retained, zone) === retained ? retained : startOfNextMonth(retained, zone);
  const fromMonth = monthKey(from, zone);
  sql.exec(`DELETE FROM device_months WHERE month >= ?`, fromMonth);
  sql.exec(`DELETE FROM conversations WHERE month >= ?`, fromMonth);
  const raw = bounds(sql, `SELECT min(occurred_at) AS first, max(occurred_at) AS last FROM reports`);
  if (!raw || raw.last < from) return;
  for (const p of offsetPeriods(Math.max(from, raw.first), raw.last + 1, zone)) {
    sql.exec(DEVICES_FROM_REPORTS, p.offset, p.start, p.end);
    sql.exec(CONVERSATIONS_FROM_REPORTS, p.offset, p.start, p.end);
  }
}
