// What one account's usage ledger does with its SQLite storage (ADR 0020): store reports exactly
// once, keep the aggregates the dashboard reads, decide budget alerts once per period, count
// free-tier claims exactly, and hand rows past retention to the archive. Free of the Durable
// Object class (workers/usage-ledger.ts) so it can be read and tested alone: everything here is
// synchronous, and the object runs one call at a time, so each call is a consistent unit.
import { ENTITLEMENTS, FREE_TIER, LEDGER, MS } from "../../constants";
import type { BudgetSettings } from "../budget";
import { dayKey, monthKey } from "../dates";
import { type UsageCounts, windowBounds, type WindowName } from "../windows";
import { LEDGER_MIGRATIONS } from "./schema";
import { columnNames, reports, secureReports } from "./tables";

/** One model call's report, as the consumer hands it over (the API validated it). */
export type LedgerUsage = typeof reports.$inferSelect;

/** A fallback aggregate report (POST /api/v1/usage/secure-report). */
export type LedgerSecure = typeof secureReports.$inferSelect;

/** How an ingest call treats its reports: `importing` is the move of D1's history (any age, no alerts). */
export type IngestOptions = { importing?: boolean };
/** A budget alert sent in the past (the move carries D1's budget_alerts over). */
export type SentAlert = { kind: "monthly" | "daily"; period: string; sentAt: number };

export type BudgetAlert = { kind: "monthly" | "daily"; period: string; limit: number; spent: number; threshold: number };
/** An account's whole totals of one day: what the cross-account rollup in D1 stores. */
export type DayTotals = { date: string; requests: number; tokens: number; costMicros: number };

export type IngestResult = {
  stored: number;
  duplicates: number;
  /** Reports older than the retention window: never stored (their first copy may be archived). */
  expired: number;
  alerts: BudgetAlert[];
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
export type HourlyRow = { date: string; hour: number; totalRequests: number; totalTokens: number; totalCostMicros: number };
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

/** What a page asks of the ledger, in one call: each part is read only when asked for. */
export type LedgerQuery = {
  now: number;
  /** Daily rows from this day (inclusive, 'YYYY-MM-DD'). */
  dailyFrom?: string;
  hourlyFrom?: string;
  recent?: number;
  /** Distinct conversations of this month ('YYYY-MM'). */
  conversationsIn?: string;
  /** Every model the account ever used. */
  models?: boolean;
  counts?: boolean;
  /** Requests and cost per device key in this month. */
  devicesIn?: string;
  /** Spend this month and today (the budget tab). */
  spend?: boolean;
};

export type LedgerRead = {
  daily?: DailyRow[];
  hourly?: HourlyRow[];
  recent?: RecentReport[];
  conversations?: number;
  models?: Array<{ modelName: string; modelProvider: string }>;
  counts?: UsageCounts;
  devices?: Array<{ deviceId: string; requests: number; costMicros: number }>;
  spend?: { monthMicros: number; dayMicros: number };
};

export type ClaimResult = { granted: boolean; counts: UsageCounts };

type Row = Record<string, SqlStorageValue>;

// ingest binds each row's values in these orders: the tables' definition order (tables.ts).
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

function bump<K, V>(map: Map<K, V>, key: K, make: () => V, apply: (v: V) => void) {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  apply(value);
}

const num = (v: SqlStorageValue | undefined) => Number(v ?? 0);

export class LedgerStore {
  /** `upTo`: apply the schema's versions only this far (a test builds an older ledger with it). */
  constructor(
    private readonly sql: SqlStorage,
    { upTo = LEDGER_MIGRATIONS.length }: { upTo?: number } = {},
  ) {
    this.migrate(upTo);
  }

  private migrate(upTo: number) {
    const hasMeta = this.sql.exec(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'`).toArray().length > 0;
    let version = hasMeta ? Number(this.meta("schema_version") ?? 0) : 0;
    while (version < upTo) {
      for (const statement of LEDGER_MIGRATIONS[version]!) this.sql.exec(statement);
      version += 1;
      this.setMeta("schema_version", String(version));
    }
  }

  private meta(key: string): string | null {
    const row = this.sql.exec(`SELECT value FROM meta WHERE key = ?`, key).toArray()[0];
    return row ? String(row.value) : null;
  }

  private setMeta(key: string, value: string) {
    this.sql.exec(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value);
  }

  /**
   * Stores the reports not seen before and adds exactly those to the aggregates, then decides the
   * budget alerts. The caller runs it inside one storage transaction.
   */
  ingest(usage: LedgerUsage[], secure: LedgerSecure[], budget: BudgetSettings | null, now: number, options: IngestOptions = {}): IngestResult {
    // Imported rows (the move from D1) are stored whatever their age: the archive takes the old
    // ones to R2 at its next run. Reported ones past retention are not stored.
    const oldest = options.importing ? Number.NEGATIVE_INFINITY : now - LEDGER.rawRetentionDays * MS.DAY;
    const minuteFloor = Math.floor((now - ENTITLEMENTS.minuteRowsKeptMs) / MS.MINUTE);
    const daily = new Map<string, DailyDelta & { date: string; modelName: string; modelProvider: string }>();
    const hourly = new Map<string, { date: string; hour: number; requests: number; tokens: number; cost: number }>();
    const minutes = new Map<number, { requests: number; tokens: number }>();
    const devices = new Map<string, { month: string; deviceId: string; requests: number; cost: number }>();
    const conversations = new Set<string>();
    const touchedDays = new Set<string>();
    let stored = 0;
    let duplicates = 0;
    let expired = 0;

    for (const r of usage) {
      const date = dayKey(r.occurredAt);
      touchedDays.add(date);
      if (r.occurredAt < oldest) {
        expired += 1;
        continue;
      }
      const cursor = this.sql.exec(
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
        duplicates += 1;
        continue;
      }
      stored += 1;
      bump(
        daily,
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
        hourly,
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
          minutes,
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
          devices,
          `${month}\u0000${r.deviceId}`,
          () => ({ month, deviceId: r.deviceId!, requests: 0, cost: 0 }),
          (d) => {
            d.requests += 1;
            d.cost += r.costMicros;
          },
        );
      }
      if (r.conversationId) conversations.add(`${monthKey(r.occurredAt)}\u0000${r.conversationId}`);
    }

    for (const s of secure) {
      const date = dayKey(s.reportTimestamp);
      touchedDays.add(date);
      if (s.reportTimestamp < oldest) {
        expired += 1;
        continue;
      }
      const cursor = this.sql.exec(
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
        duplicates += 1;
        continue;
      }
      stored += 1;
      // A fallback report has no duration: it adds requests but no timed ones (as before).
      bump(
        daily,
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

    for (const d of daily.values()) {
      this.sql.exec(
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
    for (const h of hourly.values()) this.sql.exec(UPSERT_HOURLY, h.date, h.hour, h.requests, h.tokens, h.cost);
    for (const [minute, m] of minutes) this.sql.exec(UPSERT_MINUTE, minute, m.requests, m.tokens);
    for (const d of devices.values()) this.sql.exec(UPSERT_DEVICE, d.month, d.deviceId, d.requests, d.cost);
    for (const key of conversations) {
      const [month, id] = key.split("\u0000") as [string, string];
      this.sql.exec(`INSERT INTO conversations (month, conversation_id) VALUES (?, ?) ON CONFLICT DO NOTHING`, month, id);
    }
    this.sql.exec(`DELETE FROM minutes WHERE minute < ?`, minuteFloor);

    let version = Number(this.meta("version") ?? 0);
    let firstReceivedAt = this.meta("first_received_at");
    if (stored > 0) {
      version += 1;
      this.setMeta("version", String(version));
      const first = Math.min(...usage.map((u) => u.receivedAt), ...secure.map((s) => s.receivedAt));
      // Imported history can be older than what the ledger received since the deploy.
      if (firstReceivedAt === null || (options.importing && first < Number(firstReceivedAt))) {
        firstReceivedAt = String(first);
        this.setMeta("first_received_at", firstReceivedAt);
      }
    }
    return {
      stored,
      duplicates,
      expired,
      // An import decides no alert: those of the past were sent by the D1-era code (importAlerts).
      alerts: budget && !options.importing ? this.decideAlerts(budget, now) : [],
      days: this.dayTotals([...touchedDays]),
      version,
      firstReceivedAt: firstReceivedAt === null ? null : Number(firstReceivedAt),
    };
  }

  private dayTotals(dates: string[]): DayTotals[] {
    return dates.sort().map((date) => {
      const row = this.sql
        .exec(
          `SELECT coalesce(sum(total_requests), 0) AS requests, coalesce(sum(total_tokens), 0) AS tokens, coalesce(sum(total_cost_micros), 0) AS cost
           FROM daily WHERE date = ?`,
          date,
        )
        .one();
      return { date, requests: num(row.requests), tokens: num(row.tokens), costMicros: num(row.cost) };
    });
  }

  /** Spend this month and today in micro-dollars. */
  spend(now: number): { monthMicros: number; dayMicros: number } {
    const row = this.sql
      .exec(
        `SELECT coalesce(sum(total_cost_micros), 0) AS month, coalesce(sum(CASE WHEN date = ? THEN total_cost_micros END), 0) AS day
         FROM daily WHERE date >= ?`,
        dayKey(now),
        `${monthKey(now)}-01`,
      )
      .one();
    return { monthMicros: num(row.month), dayMicros: num(row.day) };
  }

  /**
   * The alerts newly crossed: each period's alert is claimed here (its row written) before it is
   * returned, so it is returned once per period whatever the retries.
   */
  private decideAlerts(budget: BudgetSettings, now: number): BudgetAlert[] {
    if (!budget.notificationsEnabled) return [];
    const { monthMicros, dayMicros } = this.spend(now);
    const checks = [
      { kind: "monthly" as const, period: monthKey(now), limit: budget.monthlyBudget, spent: monthMicros / 1e6 },
      { kind: "daily" as const, period: dayKey(now), limit: budget.dailyBudget, spent: dayMicros / 1e6 },
    ];
    const alerts: BudgetAlert[] = [];
    for (const c of checks) {
      if (c.limit <= 0 || c.spent < (c.limit * budget.alertThreshold) / 100) continue;
      const cursor = this.sql.exec(`INSERT INTO budget_alerts (kind, period, sent_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, c.kind, c.period, now);
      if (cursor.rowsWritten > 0) alerts.push({ ...c, threshold: budget.alertThreshold });
    }
    return alerts;
  }

  /**
   * Alerts already sent before the ledger existed (D1's budget_alerts, by the move): noted as
   * sent, so the same period's alert is not sent again. Returns how many were new here.
   */
  importAlerts(alerts: SentAlert[]): number {
    let added = 0;
    for (const a of alerts) {
      added += this.sql.exec(
        `INSERT INTO budget_alerts (kind, period, sent_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
        a.kind,
        a.period,
        a.sentAt,
      ).rowsWritten;
    }
    return added;
  }

  read(q: LedgerQuery): LedgerRead {
    const out: LedgerRead = {};
    if (q.dailyFrom !== undefined) out.daily = this.daily(q.dailyFrom);
    if (q.hourlyFrom !== undefined) {
      out.hourly = this.sql
        .exec(`SELECT date, hour, total_requests, total_tokens, total_cost_micros FROM hourly WHERE date >= ? ORDER BY date, hour`, q.hourlyFrom)
        .toArray()
        .map((r) => ({
          date: String(r.date),
          hour: num(r.hour),
          totalRequests: num(r.total_requests),
          totalTokens: num(r.total_tokens),
          totalCostMicros: num(r.total_cost_micros),
        }));
    }
    if (q.recent) {
      out.recent = this.sql
        .exec(
          `SELECT id, model_name, model_provider, request_type, tokens_used, cost_micros, request_duration_ms, success, occurred_at, device_id
           FROM reports ORDER BY occurred_at DESC LIMIT ?`,
          q.recent,
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
    if (q.conversationsIn !== undefined) {
      out.conversations = num(this.sql.exec(`SELECT count(*) AS n FROM conversations WHERE month = ?`, q.conversationsIn).one().n);
    }
    if (q.models) {
      out.models = this.sql
        .exec(`SELECT DISTINCT model_name, model_provider FROM daily`)
        .toArray()
        .map((r) => ({ modelName: String(r.model_name), modelProvider: String(r.model_provider) }));
    }
    if (q.counts) out.counts = this.counts(q.now);
    if (q.devicesIn !== undefined) {
      out.devices = this.sql
        .exec(`SELECT device_id, requests, cost_micros FROM device_months WHERE month = ?`, q.devicesIn)
        .toArray()
        .map((r) => ({ deviceId: String(r.device_id), requests: num(r.requests), costMicros: num(r.cost_micros) }));
    }
    if (q.spend) out.spend = this.spend(q.now);
    return out;
  }

  private daily(from: string): DailyRow[] {
    return this.sql
      .exec(`SELECT * FROM daily WHERE date >= ? ORDER BY date, model_name, model_provider`, from)
      .toArray()
      .map((r: Row) => ({
        date: String(r.date),
        modelName: String(r.model_name),
        modelProvider: String(r.model_provider),
        totalRequests: num(r.total_requests),
        successCount: num(r.success_count),
        totalTokens: num(r.total_tokens),
        tokensInput: num(r.tokens_input),
        tokensOutput: num(r.tokens_output),
        totalCostMicros: num(r.total_cost_micros),
        totalDurationMs: num(r.total_duration_ms),
        timedRequests: num(r.timed_requests),
        lastUsedAt: num(r.last_used_at),
      }));
  }

  /**
   * Requests in each window of `now`: the greater of the reports counted and the claims granted
   * (a claimed call that has not reported yet still counts; an app that does not claim is counted
   * by its reports). Tokens only by reports.
   */
  counts(now: number): UsageCounts {
    const w = windowBounds(now);
    const day = dayKey(now);
    const reported = this.sql
      .exec(
        `SELECT
          (SELECT coalesce(sum(total_requests), 0) FROM minutes WHERE minute = ?1) AS minute,
          (SELECT coalesce(sum(total_requests), 0) FROM hourly WHERE date = ?2 AND hour = ?3) AS hour,
          (SELECT coalesce(sum(total_requests), 0) FROM daily WHERE date = ?2) AS day,
          (SELECT coalesce(sum(total_requests), 0) FROM daily WHERE date >= ?4 AND date < ?5) AS month_requests,
          (SELECT coalesce(sum(total_tokens), 0) FROM daily WHERE date >= ?4 AND date < ?5) AS month_tokens`,
        w.minute.start / MS.MINUTE,
        day,
        new Date(now).getUTCHours(),
        dayKey(w.month.start),
        dayKey(w.month.end),
      )
      .one();
    const claimed = this.claimed(now);
    return {
      minute: Math.max(num(reported.minute), claimed.minute),
      hour: Math.max(num(reported.hour), claimed.hour),
      day: Math.max(num(reported.day), claimed.day),
      monthRequests: Math.max(num(reported.month_requests), claimed.month),
      monthTokens: num(reported.month_tokens),
    };
  }

  private claimed(now: number): Record<WindowName, number> {
    const w = windowBounds(now);
    const out: Record<WindowName, number> = { minute: 0, hour: 0, day: 0, month: 0 };
    const rows = this.sql
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

  /**
   * A free account asks to make one model call: granted when every window is under its limit, and
   * then counted in all of them at once. The object runs one call at a time, so parallel claims
   * are decided one after another on exact counts.
   */
  claim(now: number): ClaimResult {
    const counts = this.counts(now);
    const granted =
      counts.minute < FREE_TIER.perMinute &&
      counts.hour < FREE_TIER.perHour &&
      counts.day < FREE_TIER.perDay &&
      counts.monthRequests < FREE_TIER.requestsPerMonth &&
      counts.monthTokens < FREE_TIER.tokensPerMonth;
    if (!granted) return { granted, counts };
    const w = windowBounds(now);
    // A claim raises each window's count to one above what counted (reports or claims), so a
    // window never holds fewer claims than the calls it let through.
    const next: Record<WindowName, number> = { minute: counts.minute + 1, hour: counts.hour + 1, day: counts.day + 1, month: counts.monthRequests + 1 };
    for (const window of ["minute", "hour", "day", "month"] as const) {
      this.sql.exec(
        `INSERT INTO claims (window, start, count) VALUES (?, ?, ?) ON CONFLICT (window, start) DO UPDATE SET count = max(count, excluded.count)`,
        window,
        w[window].start,
        next[window],
      );
    }
    // Claims of windows that have ended no longer count anywhere.
    this.sql.exec(`DELETE FROM claims WHERE start < ?`, windowBounds(w.month.start - 1).month.start);
    return { granted, counts: { ...counts, minute: next.minute, hour: next.hour, day: next.day, monthRequests: next.month } };
  }

  /** How many raw reports and fallback reports the ledger holds (tests, the archive's log line). */
  size(): { reports: number; secure: number } {
    return {
      reports: num(this.sql.exec(`SELECT count(*) AS n FROM reports`).one().n),
      secure: num(this.sql.exec(`SELECT count(*) AS n FROM secure_reports`).one().n),
    };
  }

  /** The months ('YYYY-MM') that have raw rows from before `cutoff`, oldest first. */
  monthsBefore(cutoff: number): string[] {
    const months = new Set<string>();
    for (const table of [
      ["reports", "occurred_at"],
      ["secure_reports", "report_timestamp"],
    ] as const) {
      const rows = this.sql
        .exec(`SELECT DISTINCT strftime('%Y-%m', ${table[1]} / 1000, 'unixepoch') AS month FROM ${table[0]} WHERE ${table[1]} < ?`, cutoff)
        .toArray();
      for (const r of rows) months.add(String(r.month));
    }
    return [...months].sort();
  }

  /** Raw rows of a month (all of them, or those before `cutoff`), as NDJSON objects. */
  rawRows(month: string, cutoff = Number.MAX_SAFE_INTEGER, limit = Number.MAX_SAFE_INTEGER): Array<Record<string, unknown>> {
    const [start, end] = monthRange(month);
    const until = Math.min(end, cutoff);
    const usage = this.sql
      .exec(`SELECT * FROM reports WHERE occurred_at >= ? AND occurred_at < ? ORDER BY occurred_at, id LIMIT ?`, start, until, limit)
      .toArray()
      .map((r) => ({ kind: "usage", ...r, success: num(r.success) === 1, metadata: r.metadata === null ? null : JSON.parse(String(r.metadata)) }));
    const secure = this.sql
      .exec(
        `SELECT * FROM secure_reports WHERE report_timestamp >= ? AND report_timestamp < ? ORDER BY report_timestamp, report_hash LIMIT ?`,
        start,
        until,
        limit,
      )
      .toArray()
      .map((r) => ({ kind: "secure", ...r }));
    return [...usage, ...secure];
  }

  /** Deletes the given raw rows (after they were written to the archive) and notes the month. */
  dropArchived(month: string, ids: string[], hashes: string[], totalInArchive: number, now: number) {
    for (const id of ids) this.sql.exec(`DELETE FROM reports WHERE id = ?`, id);
    for (const hash of hashes) this.sql.exec(`DELETE FROM secure_reports WHERE report_hash = ?`, hash);
    this.sql.exec(
      `INSERT INTO archived_months (month, rows, archived_at) VALUES (?, ?, ?) ON CONFLICT (month) DO UPDATE SET rows = excluded.rows, archived_at = excluded.archived_at`,
      month,
      totalInArchive,
      now,
    );
  }

  archivedMonths(): Array<{ month: string; rows: number }> {
    return this.sql
      .exec(`SELECT month, rows FROM archived_months ORDER BY month`)
      .toArray()
      .map((r) => ({ month: String(r.month), rows: num(r.rows) }));
  }
}

/** [start, end) of a 'YYYY-MM' month in epoch ms. */
export function monthRange(month: string): [number, number] {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return [Date.UTC(y, m - 1, 1), Date.UTC(y, m, 1)];
}
