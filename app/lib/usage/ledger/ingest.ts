// The write half of a ledger's ingest (store.ts runs it in one storage transaction): each report
// stored once, and exactly the stored ones added to the aggregates the dashboard reads: its UTC
// quarter hour (any zone's source, ADR 0030), its UTC day (the free tier, the rollup), and its
// day, hour and month in the account's zone; in a team's ledger also its member's ranked ranges.
import { ENTITLEMENTS, LEDGER, MS } from "../../constants";
import { UTC } from "../../time-zone";
import { dayKey, monthKey } from "../dates";
import { QUARTER_COLUMNS, QUARTER_SUMS } from "./schema";
import type { DailyRow, IngestOptions, LedgerSecure, LedgerUsage } from "./types";
import { columnNames, reports, secureReports } from "./tables";
import { addToSlices, emptySliceFigures, emptySliceTally, FALLBACK_TYPE, type SliceTally, writeSlices } from "./slices";
import { addToRankings } from "./team-ranking";
import { localHourOf } from "./zoned";

// storeReports binds each row's values in these orders: the tables' definition order (tables.ts).
const REPORT_COLUMNS = columnNames(reports);
const SECURE_COLUMNS = columnNames(secureReports);
const INSERT_REPORT = `INSERT INTO reports (${REPORT_COLUMNS.join(", ")}) VALUES (${REPORT_COLUMNS.map(() => "?").join(", ")}) ON CONFLICT DO NOTHING`;
const INSERT_SECURE = `INSERT INTO secure_reports (${SECURE_COLUMNS.join(", ")}) VALUES (${SECURE_COLUMNS.map(() => "?").join(", ")}) ON CONFLICT DO NOTHING`;

const VALUES_12 = "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
const UPSERT_DAILY = `INSERT INTO daily (${QUARTER_COLUMNS.replace("start", "date")}) ${VALUES_12}
  ON CONFLICT (date, model_name, model_provider) DO UPDATE SET ${QUARTER_SUMS}`;
const UPSERT_QUARTER = `INSERT INTO quarters (${QUARTER_COLUMNS}) ${VALUES_12}
  ON CONFLICT (start, model_name, model_provider) DO UPDATE SET ${QUARTER_SUMS}`;
const UPSERT_HOURLY = `INSERT INTO hourly (start, date, hour, total_requests, total_tokens, total_cost_micros) VALUES (?, ?, ?, ?, ?, ?)
  ON CONFLICT (start) DO UPDATE SET total_requests = total_requests + excluded.total_requests,
    total_tokens = total_tokens + excluded.total_tokens, total_cost_micros = total_cost_micros + excluded.total_cost_micros`;
const UPSERT_UTC_DAY = `INSERT INTO utc_days (date, total_requests, total_tokens, total_cost_micros) VALUES (?, ?, ?, ?)
  ON CONFLICT (date) DO UPDATE SET total_requests = total_requests + excluded.total_requests,
    total_tokens = total_tokens + excluded.total_tokens, total_cost_micros = total_cost_micros + excluded.total_cost_micros`;
const UPSERT_MINUTE = `INSERT INTO minutes (minute, total_requests, total_tokens) VALUES (?, ?, ?)
  ON CONFLICT (minute) DO UPDATE SET total_requests = total_requests + excluded.total_requests, total_tokens = total_tokens + excluded.total_tokens`;
const UPSERT_DEVICE = `INSERT INTO device_months (month, device_id, requests, cost_micros) VALUES (?, ?, ?, ?)
  ON CONFLICT (month, device_id) DO UPDATE SET requests = requests + excluded.requests, cost_micros = cost_micros + excluded.cost_micros`;

type DailyDelta = Omit<DailyRow, "date" | "modelName" | "modelProvider">;
type ModelDelta = DailyDelta & { modelName: string; modelProvider: string };
const emptyDaily = (): DailyDelta => ({ ...emptySliceFigures(), lastUsedAt: 0 });

/**
 * What one call stored, added up in memory first so each aggregate row is written once per call
 * instead of once per report.
 */
export type Tally = {
  daily: Map<string, ModelDelta & { date: string }>;
  quarters: Map<string, ModelDelta & { start: number }>;
  hourly: Map<number, { date: string; hour: number; requests: number; tokens: number; cost: number }>;
  utcDays: Map<string, { requests: number; tokens: number; cost: number }>;
  minutes: Map<number, { requests: number; tokens: number }>;
  devices: Map<string, { month: string; deviceId: string; requests: number; cost: number }>;
  conversations: Set<string>;
  /** Each stored report's quarter hour and local day, by model, provider, device, request type and status. */
  slices: SliceTally;
  /** Every UTC day the call's reports fall on, stored or not (a retried batch re-sends them to the rollup). */
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

/** Stores the reports not seen before and writes exactly those into the aggregates (local ones in `zone`, the ledger's). */
export function storeReports(sql: SqlStorage, usage: LedgerUsage[], secure: LedgerSecure[], now: number, zone: string, options: IngestOptions): Tally {
  // Imported rows (the move from D1) are stored whatever their age: the archive takes the old
  // ones to R2 at its next run. Reported ones past retention are not stored.
  const oldest = options.importing ? Number.NEGATIVE_INFINITY : now - LEDGER.rawRetentionDays * MS.DAY;
  const minuteFloor = Math.floor((now - ENTITLEMENTS.minuteRowsKeptMs) / MS.MINUTE);
  const tally: Tally = {
    daily: new Map(),
    quarters: new Map(),
    hourly: new Map(),
    utcDays: new Map(),
    minutes: new Map(),
    devices: new Map(),
    conversations: new Set(),
    slices: emptySliceTally(),
    touchedDays: new Set(),
    stored: 0,
    duplicates: 0,
    expired: 0,
  };
  for (const r of usage) storeUsage(sql, r, oldest, minuteFloor, zone, tally);
  for (const s of secure) storeSecure(sql, s, oldest, zone, tally);
  writeAggregates(sql, tally, minuteFloor, now);
  return tally;
}

function storeUsage(sql: SqlStorage, r: LedgerUsage, oldest: number, minuteFloor: number, zone: string, tally: Tally) {
  tally.touchedDays.add(dayKey(r.occurredAt, UTC));
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
    r.memberId ?? "",
  );
  if (cursor.rowsWritten === 0) {
    tally.duplicates += 1;
    return;
  }
  tally.stored += 1;
  addUsage(tally, r, zone, minuteFloor);
}

/** Adds a report's figures to its day, quarter and UTC day (each keyed by `date`, `start`, `utcDate`), and returns them. */
function addFigures(
  tally: Tally,
  at: { date: string; start: number; utcDate: string },
  model: { modelName: string; modelProvider: string },
  apply: (d: DailyDelta) => void,
): DailyDelta {
  const key = `\u0000${model.modelName}\u0000${model.modelProvider}`;
  bump(tally.daily, `${at.date}${key}`, () => ({ ...emptyDaily(), ...model, date: at.date }), apply);
  bump(tally.quarters, `${at.start}${key}`, () => ({ ...emptyDaily(), ...model, start: at.start }), apply);
  const figures = emptyDaily();
  apply(figures);
  bump(
    tally.utcDays,
    at.utcDate,
    () => ({ requests: 0, tokens: 0, cost: 0 }),
    (u) => {
      u.requests += figures.totalRequests;
      u.tokens += figures.totalTokens;
      u.cost += figures.totalCostMicros;
    },
  );
  return figures;
}

function addUsage(tally: Tally, r: LedgerUsage, zone: string, minuteFloor: number) {
  const hour = localHourOf(r.occurredAt, zone);
  const at = { date: hour.date, start: r.occurredAt - (r.occurredAt % MS.QUARTER_HOUR), utcDate: dayKey(r.occurredAt, UTC) };
  const figures = addFigures(tally, at, { modelName: r.modelName, modelProvider: r.modelProvider }, (d) => {
    d.totalRequests += 1;
    d.successCount += r.success ? 1 : 0;
    d.totalTokens += r.tokensUsed;
    d.tokensInput += r.tokensInput;
    d.tokensOutput += r.tokensOutput;
    d.totalCostMicros += r.costMicros;
    d.totalDurationMs += r.durationMs;
    d.timedRequests += 1;
    d.lastUsedAt = Math.max(d.lastUsedAt, r.occurredAt);
  });
  bump(
    tally.hourly,
    hour.start,
    () => ({ date: hour.date, hour: hour.hour, requests: 0, tokens: 0, cost: 0 }),
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
  const month = monthKey(r.occurredAt, zone);
  if (r.deviceId) {
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
  if (r.conversationId) tally.conversations.add(`${month}\u0000${r.conversationId}`);
  addToSlices(
    tally.slices,
    at,
    {
      modelName: r.modelName,
      modelProvider: r.modelProvider,
      deviceId: r.deviceId ?? "",
      requestType: r.requestType,
      success: r.success,
      memberId: r.memberId ?? "",
    },
    figures,
  );
}

function storeSecure(sql: SqlStorage, s: LedgerSecure, oldest: number, zone: string, tally: Tally) {
  const utcDate = dayKey(s.reportTimestamp, UTC);
  tally.touchedDays.add(utcDate);
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
    s.memberId ?? "",
  );
  if (cursor.rowsWritten === 0) {
    tally.duplicates += 1;
    return;
  }
  tally.stored += 1;
  // A fallback report has no duration: it adds requests but no timed ones (as before), and no hour.
  const at = { date: dayKey(s.reportTimestamp, zone), start: s.reportTimestamp - (s.reportTimestamp % MS.QUARTER_HOUR), utcDate };
  const figures = addFigures(tally, at, { modelName: s.modelName, modelProvider: s.provider }, (d) => {
    d.totalRequests += s.requestCount;
    d.successCount += s.successCount;
    d.totalTokens += s.tokensUsed;
    d.totalCostMicros += s.costMicros;
    d.lastUsedAt = Math.max(d.lastUsedAt, s.reportTimestamp);
  });
  // A fallback report is one row of the request log: an error row when any of its requests failed.
  addToSlices(
    tally.slices,
    at,
    { modelName: s.modelName, modelProvider: s.provider, deviceId: "", requestType: FALLBACK_TYPE, success: s.errorCount === 0, memberId: s.memberId ?? "" },
    figures,
  );
}

const figuresOf = (d: DailyDelta) =>
  [d.totalRequests, d.successCount, d.totalTokens, d.tokensInput, d.tokensOutput, d.totalCostMicros, d.totalDurationMs, d.timedRequests, d.lastUsedAt] as const;

function writeAggregates(sql: SqlStorage, tally: Tally, minuteFloor: number, now: number) {
  for (const d of tally.daily.values()) sql.exec(UPSERT_DAILY, d.date, d.modelName, d.modelProvider, ...figuresOf(d));
  for (const q of tally.quarters.values()) sql.exec(UPSERT_QUARTER, q.start, q.modelName, q.modelProvider, ...figuresOf(q));
  for (const [date, u] of tally.utcDays) sql.exec(UPSERT_UTC_DAY, date, u.requests, u.tokens, u.cost);
  // One insert per model of the call (a call's daily rows may span days).
  const models = new Map([...tally.daily.values()].map((d) => [`${d.modelName}\u0000${d.modelProvider}`, d]));
  for (const d of models.values()) {
    sql.exec(`INSERT INTO models (model_name, model_provider) VALUES (?, ?) ON CONFLICT DO NOTHING`, d.modelName, d.modelProvider);
  }
  for (const [start, h] of tally.hourly) sql.exec(UPSERT_HOURLY, start, h.date, h.hour, h.requests, h.tokens, h.cost);
  for (const [minute, m] of tally.minutes) sql.exec(UPSERT_MINUTE, minute, m.requests, m.tokens);
  for (const d of tally.devices.values()) sql.exec(UPSERT_DEVICE, d.month, d.deviceId, d.requests, d.cost);
  for (const key of tally.conversations) {
    const [month, id] = key.split("\u0000") as [string, string];
    sql.exec(`INSERT INTO conversations (month, conversation_id) VALUES (?, ?) ON CONFLICT DO NOTHING`, month, id);
  }
  writeSlices(sql, tally.slices);
  // A team's ledger: the same slices added to its members' ranked ranges (team-ranking.ts).
  addToRankings(sql, tally.slices, now);
  sql.exec(`DELETE FROM minutes WHERE minute < ?`, minuteFloor);
}
