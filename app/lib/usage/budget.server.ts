// Budgets in D1 and the alert e-mails sent when spend crosses the threshold (once per period).
import { and, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../db.server";
import { chunks, schema } from "../db.server";
import { formatUsd } from "../format";
import { enqueueMails, type OutgoingMail } from "../mail/mail.server";
import { DEFAULT_BUDGET, type BudgetSettings } from "./budget";
import { dayKey, monthKey } from "./dates";

export async function getBudget(db: Db, userId: string): Promise<BudgetSettings> {
  const row = await db.query.budgets.findFirst({ where: eq(schema.budgets.userId, userId) });
  return row
    ? { monthlyBudget: row.monthlyBudget, dailyBudget: row.dailyBudget, alertThreshold: row.alertThreshold, notificationsEnabled: row.notificationsEnabled }
    : DEFAULT_BUDGET;
}

export async function saveBudget(db: Db, userId: string, settings: BudgetSettings, now = Date.now()) {
  await db
    .insert(schema.budgets)
    .values({ userId, ...settings, updatedAt: now })
    .onConflictDoUpdate({ target: schema.budgets.userId, set: { ...settings, updatedAt: now } });
}

/** Spend in micro-dollars since a day (inclusive), from the daily aggregates. */
export async function spendSince(db: Db, userId: string, fromDay: string): Promise<number> {
  const [row] = await db
    .select({ micros: sql<number>`coalesce(sum(${schema.dailyUsageSummary.totalCostMicros}), 0)` })
    .from(schema.dailyUsageSummary)
    .where(and(eq(schema.dailyUsageSummary.userId, userId), gte(schema.dailyUsageSummary.date, fromDay)));
  return row?.micros ?? 0;
}

// The read binds the three period keys and one parameter per user: D1 binds at most 100.
const USERS_PER_READ = 97;
// budget_alerts rows have 4 columns.
const ALERTS_PER_CLAIM = 25;

type AlertCheckRow = {
  user_id: string;
  email: string;
  has_budget: number;
  monthly_budget: number | null;
  daily_budget: number | null;
  alert_threshold: number | null;
  month_micros: number;
  day_micros: number;
  monthly_sent: number;
  daily_sent: number;
};

// One row per user of the batch who gets alerts (their own setting, else the default): budget,
// e-mail, spend this month and today, and whether this period's alerts are already claimed.
// Users' spend and claims come through the primary keys of daily_usage_summary and budget_alerts.
const ALERT_CHECK_SQL = (users: number) => `
  SELECT u.id AS user_id, u.email, b.user_id IS NOT NULL AS has_budget, b.monthly_budget, b.daily_budget, b.alert_threshold,
    coalesce(sum(s.total_cost_micros), 0) AS month_micros,
    coalesce(sum(CASE WHEN s.date >= ?2 THEN s.total_cost_micros END), 0) AS day_micros,
    EXISTS (SELECT 1 FROM budget_alerts a WHERE a.user_id = u.id AND a.kind = 'monthly' AND a.period = ?3) AS monthly_sent,
    EXISTS (SELECT 1 FROM budget_alerts a WHERE a.user_id = u.id AND a.kind = 'daily' AND a.period = ?2) AS daily_sent
  FROM users u
  LEFT JOIN budgets b ON b.user_id = u.id
  LEFT JOIN daily_usage_summary s ON s.user_id = u.id AND s.date >= ?1
  WHERE u.id IN (${Array.from({ length: users }, (_, i) => `?${i + 4}`).join(", ")})
    AND coalesce(b.notifications_enabled, ${DEFAULT_BUDGET.notificationsEnabled ? 1 : 0}) = 1
  GROUP BY u.id`;

type Crossing = { userId: string; email: string; kind: "monthly" | "daily"; period: string; limit: number; spent: number; threshold: number };

/**
 * After usage is stored: for each user whose spend crossed the alert threshold of the monthly
 * or daily budget, claim the period's alert row and e-mail once. The claim is an INSERT that
 * does nothing when the row exists, so a retried batch (or two batches at once) never sends
 * twice. The whole batch's users are checked together: one read, and one claim when any
 * threshold was newly crossed.
 */
export async function checkBudgetAlerts(db: Db, queue: Queue, userIds: string[], now = Date.now()) {
  if (userIds.length === 0) return;
  const month = monthKey(now);
  const day = dayKey(now);
  const d1 = db.$client;
  const reads = chunks(userIds, USERS_PER_READ).map((ids) => d1.prepare(ALERT_CHECK_SQL(ids.length)).bind(`${month}-01`, day, month, ...ids));
  const results = await d1.batch<AlertCheckRow>(reads);

  const crossings: Crossing[] = [];
  for (const row of results.flatMap((r) => r.results)) {
    const budget: BudgetSettings = row.has_budget
      ? { monthlyBudget: row.monthly_budget ?? 0, dailyBudget: row.daily_budget ?? 0, alertThreshold: row.alert_threshold ?? 0, notificationsEnabled: true }
      : DEFAULT_BUDGET;
    const checks = [
      { kind: "monthly" as const, period: month, limit: budget.monthlyBudget, spent: row.month_micros / 1e6, sent: row.monthly_sent },
      { kind: "daily" as const, period: day, limit: budget.dailyBudget, spent: row.day_micros / 1e6, sent: row.daily_sent },
    ];
    for (const check of checks) {
      if (check.sent || check.limit <= 0 || check.spent < (check.limit * budget.alertThreshold) / 100) continue;
      crossings.push({
        userId: row.user_id,
        email: row.email,
        kind: check.kind,
        period: check.period,
        limit: check.limit,
        spent: check.spent,
        threshold: budget.alertThreshold,
      });
    }
  }
  if (crossings.length === 0) return;

  const claims = chunks(crossings, ALERTS_PER_CLAIM).map((group) =>
    db
      .insert(schema.budgetAlerts)
      .values(group.map((c) => ({ userId: c.userId, kind: c.kind, period: c.period, sentAt: now })))
      .onConflictDoNothing()
      .returning({ userId: schema.budgetAlerts.userId, kind: schema.budgetAlerts.kind }),
  );
  const claimed = new Set((await db.batch(claims as [(typeof claims)[number], ...typeof claims])).flat().map((c) => `${c.kind}:${c.userId}`));
  const mails = crossings.filter((c) => claimed.has(`${c.kind}:${c.userId}`)).map(alertMail);
  if (mails.length) await enqueueMails(queue, mails);
}

function alertMail(c: Crossing): OutgoingMail {
  const percent = Math.round((c.spent / c.limit) * 100);
  return {
    to: c.email,
    subject: `Modelify budget alert: ${percent}% of your ${c.kind} budget used`,
    text: [
      `You have spent ${formatUsd(c.spent)} of your ${c.kind} budget of ${formatUsd(c.limit)} (${percent}%).`,
      `Your alert threshold is ${c.threshold}%. You will get at most one such e-mail per ${c.kind === "monthly" ? "month" : "day"}.`,
      "",
      "Change your budgets or turn these e-mails off in the dashboard, under Budget.",
    ].join("\n"),
    links: [],
  };
}
