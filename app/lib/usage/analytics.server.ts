// Dashboard figures, computed from what the account's usage ledger keeps (daily and hourly
// aggregates, ten recent reports): one ledger call per page, and no read grows with the number
// of raw reports. The ledger is a Durable Object per account (ADR 0020). Days, hours and months
// are the account's time zone's, which the page read with its session (ADR 0030).
import { inArray } from "drizzle-orm";
import { ACHIEVEMENTS, USAGE } from "../constants";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import type { ZonedAccount } from "../auth/session.server";
import { budgetOf } from "./budget.server";
import { addDays, addMonths, dayKey, dayStart, lastDays, monthKey } from "./dates";
import { ledgerFor, type LedgerNamespace } from "./ledger/api";
import type { DailyRow, RecentReport } from "./ledger/types";
import { figures, type ModelFigures, type ModelStats } from "./models";
import { csvRow } from "../csv";
import { type DaySpend, type Forecast, forecastMonth } from "./forecast";
import type { UsageView } from "./usage-range";
import { groupRows, sums } from "./groups.server";

/** Where a page's usage comes from: D1 for the account's settings, the ledger for the figures. */
export type UsageSource = { db: Db; ledgers: LedgerNamespace };

type Totals = { requests: number; successes: number; tokens: number; costMicros: number; durationMs: number; timed: number };
const zero = (): Totals => ({ requests: 0, successes: 0, tokens: 0, costMicros: 0, durationMs: 0, timed: 0 });

/** What a daily row, a day's or a model's sum has in common. */
type Sums = Pick<DailyRow, "totalRequests" | "successCount" | "totalTokens" | "totalCostMicros" | "totalDurationMs" | "timedRequests">;

function add(t: Totals, r: Sums) {
  t.requests += r.totalRequests;
  t.successes += r.successCount;
  t.tokens += r.totalTokens;
  t.costMicros += r.totalCostMicros;
  t.durationMs += r.totalDurationMs;
  t.timed += r.timedRequests;
}

function total(rows: Sums[]): Totals {
  const t = zero();
  for (const r of rows) add(t, r);
  return t;
}

function perModel(rows: Array<Sums & Pick<DailyRow, "modelName" | "modelProvider" | "lastUsedAt">>): ModelFigures[] {
  const map = new Map<string, { modelName: string; modelProvider: string; totals: Totals; lastUsedAt: number }>();
  for (const r of rows) {
    const key = `${r.modelProvider}\u0000${r.modelName}`;
    const m = map.get(key) ?? { modelName: r.modelName, modelProvider: r.modelProvider, totals: zero(), lastUsedAt: 0 };
    add(m.totals, r);
    m.lastUsedAt = Math.max(m.lastUsedAt, r.lastUsedAt);
    map.set(key, m);
  }
  return [...map.values()]
    .map(
      ({ modelName, modelProvider, totals: t, lastUsedAt }): ModelStats => ({
        modelName,
        modelProvider,
        requests: t.requests,
        successCount: t.successes,
        tokens: t.tokens,
        costMicros: t.costMicros,
        durationMs: t.durationMs,
        timedRequests: t.timed,
        lastUsedAt,
      }),
    )
    .map(figures)
    .sort((a, b) => b.requests - a.requests);
}

/** Change against the previous value in percent (null when there is nothing to compare). */
function change(current: number, previous: number): number | null {
  if (previous === 0) return current === 0 ? 0 : null;
  return ((current - previous) / previous) * 100;
}

/** The device names of the recent reports' device keys (one statement, only when there are any). */
async function withDeviceNames(db: Db, recent: RecentReport[]) {
  const ids = [...new Set(recent.map((r) => r.deviceId).filter((id): id is string => id !== null))];
  const names = ids.length
    ? new Map(
        (await db.select({ id: schema.sessions.id, name: schema.sessions.deviceName }).from(schema.sessions).where(inArray(schema.sessions.id, ids))).map(
          (r) => [r.id, r.name],
        ),
      )
    : new Map<string, string | null>();
  // The device key that reported it, by the name the app gave (null: no device, or a legacy
  // password sign-in, which names none).
  return recent.map(({ deviceId, ...r }) => ({ ...r, deviceName: deviceId ? (names.get(deviceId) ?? null) : null }));
}

/** The overview's weekly chart: the last USAGE.weeklyUsageWeeks weeks of seven days, oldest first. */
function weeklyTotals(rows: Array<Sums & { date: string }>, now: number, zone: string) {
  const days = lastDays(USAGE.weeklyUsageWeeks * 7, now, zone);
  const byDay = new Map<string, Totals>();
  for (const r of rows) {
    const t = byDay.get(r.date) ?? zero();
    add(t, r);
    byDay.set(r.date, t);
  }
  return Array.from({ length: USAGE.weeklyUsageWeeks }, (_, w) => {
    const week = days.slice(w * 7, w * 7 + 7);
    const t = zero();
    for (const d of week) {
      const v = byDay.get(d);
      if (v) {
        t.requests += v.requests;
        t.tokens += v.tokens;
        t.costMicros += v.costMicros;
      }
    }
    // Its first and last day by their first instants, for the page to write in its locale.
    return { start: dayStart(week[0]!, zone), end: dayStart(week[6]!, zone), requests: t.requests, tokens: t.tokens, cost: t.costMicros / 1e6 };
  });
}

export async function overviewUsage({ db, ledgers }: UsageSource, account: ZonedAccount, now = Date.now()) {
  const zone = account.profile.timeZone;
  const month = monthKey(now, zone);
  const monthStart = `${month}-01`;
  const previousStart = `${addMonths(month, -1)}-01`;
  // Same point in last month, so the change compares like with like.
  const previousCutoff = addDays(previousStart, Number(dayKey(now, zone).slice(8)) - 1);
  const [read, budget] = await Promise.all([
    ledgerFor(ledgers, account.id).read({
      now,
      zone,
      dateTotalsFrom: previousStart,
      modelTotalsFrom: monthStart,
      recent: USAGE.recentActivityItems,
      conversationsIn: month,
      models: true,
    }),
    budgetOf(db, account),
  ]);
  const rows = read.dateTotals ?? [];
  const allModels = read.models ?? [];
  const recent = await withDeviceNames(db, read.recent ?? []);
  const monthlyBudget = budget.monthlyBudget;
  const thisMonthRows = rows.filter((r) => r.date >= monthStart);
  const lastMonthRows = rows.filter((r) => r.date < monthStart && r.date <= previousCutoff);
  const thisMonth = total(thisMonthRows);
  const last = total(lastMonthRows);
  const models = perModel(read.modelTotals ?? []);

  const weekly = weeklyTotals(rows, now, zone);

  const monthCost = thisMonth.costMicros / 1e6;
  const avgResponseMs = thisMonth.timed ? thisMonth.durationMs / thisMonth.timed : null;
  const usedModels = models.length;
  return {
    /** The zone this month's and the weeks' days are counted in. */
    timeZone: zone,
    hasData: rows.length > 0 || recent.length > 0,
    thisMonth: {
      cost: monthCost,
      tokens: thisMonth.tokens,
      requests: thisMonth.requests,
      costChange: change(thisMonth.costMicros, last.costMicros),
      tokenChange: change(thisMonth.tokens, last.tokens),
      requestChange: change(thisMonth.requests, last.requests),
    },
    activeModels: {
      used: usedModels,
      known: allModels.length,
      // Spec: the ring shows the share of models with requests, 25% when there are none.
      ringShare: allModels.length ? usedModels / allModels.length : 0.25,
      models: models.map((m) => ({ name: m.modelName, provider: m.modelProvider, requests: m.requests, cost: m.costMicros / 1e6 })),
    },
    avgResponseMs,
    successRate: thisMonth.requests ? (thisMonth.successes / thisMonth.requests) * 100 : null,
    budget: { monthly: monthlyBudget, spent: monthCost, isDefault: budget.isDefault },
    conversations: read.conversations ?? 0,
    modelCount: allModels.length,
    recent: recent.map((r) => ({ ...r, cost: r.costMicros / 1e6 })),
    weekly,
    performance: models
      .slice(0, 3)
      .map((m) => ({ name: m.modelName, provider: m.modelProvider, successRate: m.successRate, avgResponseMs: m.avgResponseMs, requests: m.requests })),
    prediction: predictionOf(forecastMonth(rows.map(daySpend), now, zone), zone, change(thisMonth.costMicros, last.costMicros), monthlyBudget),
    achievements: {
      powerUser: {
        done: thisMonth.requests >= ACHIEVEMENTS.powerUserRequests,
        progress: Math.min(thisMonth.requests, ACHIEVEMENTS.powerUserRequests),
        of: ACHIEVEMENTS.powerUserRequests,
      },
      // Spec: an unknown average counts as 1.5 s.
      speedDemon: { done: (avgResponseMs ?? 1500) < ACHIEVEMENTS.speedDemonMs, avgSeconds: (avgResponseMs ?? 1500) / 1000 },
      innovator: {
        done: usedModels >= ACHIEVEMENTS.innovatorModels,
        progress: Math.min(usedModels, ACHIEVEMENTS.innovatorModels),
        of: ACHIEVEMENTS.innovatorModels,
      },
    },
  };
}

export type OverviewUsage = Awaited<ReturnType<typeof overviewUsage>>;

const daySpend = (r: { date: string; totalCostMicros: number; totalRequests: number }): DaySpend => ({
  date: r.date,
  costMicros: r.totalCostMicros,
  requests: r.totalRequests,
});

/** The Cost Predictions card: this month's forecast with the figures its method names (forecast.ts). */
function predictionOf(f: Forecast, zone: string, trend: number | null, budget: number) {
  return {
    predicted: f.forecastMicros / 1e6,
    dailyAverage: f.dailyMicros / 1e6,
    basisDays: f.basisDays,
    daysLeft: f.daysLeft,
    timeZone: zone,
    trend,
    budget,
  };
}

/**
 * The Model Analytics tab over a range of the account zone's days: each model's figures (with when
 * it was last used) from the daily rows, and the range grouped as asked from the slices, in one
 * ledger call. The tab's totals are the groups' sum.
 */
export async function modelAnalytics({ db, ledgers }: UsageSource, account: ZonedAccount, view: UsageView, now = Date.now()) {
  const zone = account.profile.timeZone;
  const read = await ledgerFor(ledgers, account.id).read({
    now,
    zone,
    dailyFrom: view.from,
    slices: [{ from: view.from, to: view.to, groupBy: view.groupBy }],
  });
  const chosen = read.slices?.[0] ?? [];
  return {
    models: perModel((read.daily ?? []).filter((r) => r.date <= view.to)),
    groups: await groupRows(db, account.id, view, view.groupBy, chosen),
    totals: sums(chosen),
  };
}

/**
 * The usage export: last USAGE.exportDays days, daily usage, model performance (success %, cost to 4 decimals),
 * metadata. Its days are the account zone's, which its Date column and its metadata name.
 */
export async function usageCsv({ ledgers }: Pick<UsageSource, "ledgers">, user: ZonedAccount & { email: string }, now = Date.now()): Promise<string> {
  const zone = user.profile.timeZone;
  const days = lastDays(USAGE.exportDays, now, zone);
  const rows = (await ledgerFor(ledgers, user.id).read({ now, zone, dailyFrom: days[0]! })).daily ?? [];
  const lines: string[] = [];
  const csv = csvRow;
  lines.push("Daily Usage", csv([`Date (${zone})`, "Total Cost (USD)", "Total Requests", "Total Tokens", "Models Used"]));
  for (const d of days) {
    const dayRows = rows.filter((r) => r.date === d);
    const t = total(dayRows);
    lines.push(csv([d, (t.costMicros / 1e6).toFixed(4), t.requests, t.tokens, [...new Set(dayRows.map((r) => r.modelName))].join("; ")]));
  }
  lines.push("", "Model Performance", csv(["Model", "Provider", "Requests", "Success Rate (%)", "Avg Response (ms)", "Total Tokens", "Total Cost (USD)"]));
  for (const m of perModel(rows)) {
    lines.push(
      csv([
        m.modelName,
        m.modelProvider,
        m.requests,
        m.successRate.toFixed(1),
        m.avgResponseMs === null ? "" : Math.round(m.avgResponseMs),
        m.tokens,
        (m.costMicros / 1e6).toFixed(4),
      ]),
    );
  }
  lines.push("", "Export Metadata", csv(["Field", "Value"]));
  lines.push(
    csv(["Exported At", new Date(now).toISOString()]),
    csv(["Account", user.email]),
    csv(["Period Start", days[0]!]),
    csv(["Period End", days.at(-1)!]),
    csv(["Days", USAGE.exportDays]),
    csv(["Time Zone", zone]),
    csv(["Currency", "USD"]),
  );
  return `${lines.join("\r\n")}\r\n`;
}
