// The alerts a ledger decides at ingest (issue 49): each budget threshold once per period, and
// each model health rule once per model per hour. An alert is claimed here (its row written) in
// the ingest's transaction before it is returned, so retries and parallel batches send it once.
import { HEALTH_ALERTS, MS } from "../../constants";
import type { BudgetSettings } from "../budget";
import { dayKey, monthKey } from "../dates";
import { num, spend } from "./reads";
import type { BudgetAlert, HealthAlert, HealthRule } from "./types";

const CLAIM_BUDGET = `INSERT INTO budget_alerts (kind, period, threshold, sent_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`;

/**
 * Budgets whose thresholds the spend newly passed. A call that passes several thresholds at once
 * claims them all and returns one alert naming the highest: one mail, not a burst of them.
 */
export function decideBudgetAlerts(sql: SqlStorage, budget: BudgetSettings, now: number, zone: string): BudgetAlert[] {
  if (!budget.notificationsEnabled || budget.alertThresholds.length === 0) return [];
  const { monthMicros, dayMicros } = spend(sql, now, zone);
  // Periods of the account's zone: the daily budget starts again at its midnight, the monthly on its 1st.
  const checks = [
    { kind: "monthly" as const, period: monthKey(now, zone), limit: budget.monthlyBudget, spent: monthMicros / 1e6 },
    { kind: "daily" as const, period: dayKey(now, zone), limit: budget.dailyBudget, spent: dayMicros / 1e6 },
  ];
  const lowest = Math.min(...budget.alertThresholds);
  const alerts: BudgetAlert[] = [];
  for (const c of checks) {
    if (c.limit <= 0) continue;
    const crossed = budget.alertThresholds.filter((t) => c.spent >= (c.limit * t) / 100);
    if (crossed.length === 0) continue;
    // An alert of the one-threshold era (threshold 0) was the period's first: the lowest threshold's.
    const legacy = sql.exec(`SELECT 1 FROM budget_alerts WHERE kind = ? AND period = ? AND threshold = 0`, c.kind, c.period).toArray().length > 0;
    let highest = 0;
    for (const t of crossed) {
      const written = sql.exec(CLAIM_BUDGET, c.kind, c.period, t, now).rowsWritten;
      if (written > 0 && !(legacy && t === lowest)) highest = Math.max(highest, t);
    }
    if (highest > 0) alerts.push({ ...c, threshold: highest, at: now, zone });
  }
  return alerts;
}

/** A quarter hour of one model that the call's reports touched. */
type Touched = { start: number; modelName: string; modelProvider: string };

/**
 * Health rules a model newly broke over the hour ending with a quarter the call's reports fall in
 * (the last HEALTH_ALERTS.windowQuarters quarters). A rule alerts a model at most once within any
 * hour: no two of its alerts' windows end less than an hour apart, whatever order reports arrive in.
 */
export function decideHealthAlerts(sql: SqlStorage, rules: HealthRule[], touched: Iterable<Touched>, now: number, zone: string): HealthAlert[] {
  if (rules.length === 0) return [];
  const quarters = [...touched].filter((q) => q.start + MS.QUARTER_HOUR > now - HEALTH_ALERTS.lateMs).sort((a, b) => a.start - b.start);
  const alerts: HealthAlert[] = [];
  for (const q of quarters) {
    const windowEnd = q.start + MS.QUARTER_HOUR;
    const windowStart = windowEnd - HEALTH_ALERTS.windowQuarters * MS.QUARTER_HOUR;
    const hour = sql
      .exec(
        `SELECT coalesce(sum(total_requests), 0) AS requests, coalesce(sum(success_count), 0) AS ok,
           coalesce(sum(total_duration_ms), 0) AS ms, coalesce(sum(timed_requests), 0) AS timed
         FROM quarters WHERE start >= ? AND start < ? AND model_name = ? AND model_provider = ?`,
        windowStart,
        windowEnd,
        q.modelName,
        q.modelProvider,
      )
      .one();
    const requests = num(hour.requests);
    const timed = num(hour.timed);
    for (const rule of rules) {
      const measured =
        rule.kind === "error_rate"
          ? { value: requests > 0 ? ((requests - num(hour.ok)) / requests) * 100 : 0, requests }
          : { value: timed > 0 ? num(hour.ms) / timed : 0, requests: timed };
      if (measured.requests < HEALTH_ALERTS.minRequests || measured.value <= rule.threshold) continue;
      if (!claimHealth(sql, rule.id, q, windowEnd, now)) continue;
      const model = { modelName: q.modelName, modelProvider: q.modelProvider };
      alerts.push({ ruleId: rule.id, kind: rule.kind, threshold: rule.threshold, ...model, ...measured, windowStart, windowEnd, at: now, zone });
    }
  }
  return alerts;
}

function claimHealth(sql: SqlStorage, ruleId: string, q: Touched, windowEnd: number, now: number): boolean {
  const recent = sql
    .exec(
      `SELECT 1 FROM health_alerts WHERE rule_id = ? AND model_name = ? AND model_provider = ? AND window_end > ? AND window_end < ?`,
      ruleId,
      q.modelName,
      q.modelProvider,
      windowEnd - MS.HOUR,
      windowEnd + MS.HOUR,
    )
    .toArray();
  if (recent.length > 0) return false;
  sql.exec(
    `INSERT INTO health_alerts (rule_id, model_name, model_provider, window_end, sent_at) VALUES (?, ?, ?, ?, ?)`,
    ruleId,
    q.modelName,
    q.modelProvider,
    windowEnd,
    now,
  );
  return true;
}
