// Budgets in D1, and the alert e-mail sent when spend crosses the threshold. Whether it was
// crossed, once per period, is decided inside the account's usage ledger (ledger/store.ts).
import { eq } from "drizzle-orm";
import type { AccountRef } from "../auth/session.server";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { BUDGET_DEFAULTS } from "../constants";
import { SITE_FORMATS } from "../format";
import type { OutgoingMail } from "../mail/mail.server";
import { type BudgetInEffect, type BudgetSettings, DEFAULT_BUDGET, type HardCapSwitches, NO_HARD_CAPS, thresholdList } from "./budget";
import type { BudgetAlert } from "./ledger/types";

export async function getBudget(db: Db, userId: string): Promise<BudgetInEffect> {
  return budgetSettings(await db.query.budgets.findFirst({ where: eq(schema.budgets.userId, userId) }));
}

/** The budget of a signed-in user: the row read with their session when there is one (SessionUser.accountRows). */
export async function budgetOf(db: Db, user: AccountRef): Promise<BudgetInEffect> {
  if (user.accountRows) return budgetSettings(user.accountRows.budget);
  return getBudget(db, user.id);
}

function budgetSettings(row: typeof schema.budgets.$inferSelect | null | undefined): BudgetInEffect {
  return row
    ? {
        monthlyBudget: row.monthlyBudget,
        dailyBudget: row.dailyBudget,
        alertThresholds: thresholdList(row.alertThresholds, row.alertThreshold),
        notificationsEnabled: row.notificationsEnabled,
        monthlyHardCap: row.monthlyHardCap,
        dailyHardCap: row.dailyHardCap,
        isDefault: false,
      }
    : { ...DEFAULT_BUDGET, ...NO_HARD_CAPS, isDefault: true };
}

export async function saveBudget(db: Db, userId: string, settings: BudgetSettings & Partial<HardCapSwitches>, now = Date.now()) {
  const alertThresholds = thresholdList(settings.alertThresholds, BUDGET_DEFAULTS.alertThresholdPercent);
  const row = { ...settings, alertThresholds, alertThreshold: alertThresholds[0]!, updatedAt: now };
  await db
    .insert(schema.budgets)
    .values({ userId, ...row })
    .onConflictDoUpdate({ target: schema.budgets.userId, set: row });
}

/** When the alert was decided, on the account's clock: "00:05 on 30 Nov 2026 (Australia/Sydney)". */
export function alertTime(at: number, zone: string): string {
  const time = new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(at);
  const date = new Intl.DateTimeFormat("en-GB", { timeZone: zone, day: "numeric", month: "short", year: "numeric" }).format(at);
  return `${time} on ${date} (${zone})`;
}

/**
 * The alert e-mail for a budget the ledger found newly crossed (once per threshold and period). The
 * period is the account zone's day or month (ADR 0030), and the mail says so with the local time;
 * it names the highest threshold the spend passed (a jump past several sends one mail).
 */
export function budgetAlertMail(to: string, c: BudgetAlert): OutgoingMail {
  const percent = Math.round((c.spent / c.limit) * 100);
  const period = c.kind === "monthly" ? "month" : "day";
  return {
    to,
    subject: `Modelify budget alert: ${percent}% of your ${c.kind} budget used`,
    text: [
      `You have spent ${SITE_FORMATS.usd(c.spent)} of your ${c.kind} budget of ${SITE_FORMATS.usd(c.limit)} (${percent}%).`,
      `Reached at ${alertTime(c.at, c.zone)}. Your ${c.kind} budget starts again at ${c.kind === "monthly" ? "midnight on the 1st" : "midnight"}, ${c.zone} time.`,
      `You passed your ${c.threshold}% alert threshold. You will get at most one e-mail per threshold per ${period}.`,
      "",
      "Change your budgets or turn these e-mails off in the dashboard, under Budget.",
    ].join("\n"),
    links: [],
  };
}
