// Budgets in D1 and the alert e-mails sent when spend crosses the threshold (once per period).
import { and, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { formatUsd } from "../format";
import { enqueueMail } from "../mail/mail.server";
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

/**
 * After usage is stored: for each user whose spend crossed the alert threshold of the monthly
 * or daily budget, claim the period's alert row and e-mail once. The claim is an INSERT that
 * does nothing when the row exists, so a retried batch never sends twice.
 */
export async function checkBudgetAlerts(db: Db, queue: Queue, userIds: string[], now = Date.now()) {
  for (const userId of userIds) {
    const budget = await getBudget(db, userId);
    if (!budget.notificationsEnabled) continue;
    const month = monthKey(now);
    const day = dayKey(now);
    const checks = [
      { kind: "monthly" as const, period: month, limit: budget.monthlyBudget, spent: (await spendSince(db, userId, `${month}-01`)) / 1e6 },
      { kind: "daily" as const, period: day, limit: budget.dailyBudget, spent: (await spendSince(db, userId, day)) / 1e6 },
    ];
    for (const check of checks) {
      if (check.limit <= 0 || check.spent < (check.limit * budget.alertThreshold) / 100) continue;
      const claimed = await db
        .insert(schema.budgetAlerts)
        .values({ userId, kind: check.kind, period: check.period, sentAt: now })
        .onConflictDoNothing()
        .returning({ userId: schema.budgetAlerts.userId });
      if (claimed.length === 0) continue;
      const user = await db.query.users.findFirst({ where: eq(schema.users.id, userId), columns: { email: true } });
      if (!user) continue;
      const percent = Math.round((check.spent / check.limit) * 100);
      await enqueueMail(queue, {
        to: user.email,
        subject: `Modelify budget alert: ${percent}% of your ${check.kind} budget used`,
        text: [
          `You have spent ${formatUsd(check.spent)} of your ${check.kind} budget of ${formatUsd(check.limit)} (${percent}%).`,
          `Your alert threshold is ${budget.alertThreshold}%. You will get at most one such e-mail per ${check.kind === "monthly" ? "month" : "day"}.`,
          "",
          "Change your budgets or turn these e-mails off in the dashboard, under Budget.",
        ].join("\n"),
        links: [],
      });
    }
  }
}
