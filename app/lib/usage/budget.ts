// Budget settings without I/O: defaults and colour bands (the form's schema is budget-form.ts, so
// the pages that only show a budget do not load zod).
import { BUDGET_DEFAULTS } from "../constants";
import type { Formats } from "../format";
import type { CapLine } from "./caps";

/** `alertThresholds`: whole percents of a budget, ascending and distinct (1 to BUDGET.maxAlertThresholds of them). */
export type BudgetSettings = { monthlyBudget: number; dailyBudget: number; alertThresholds: number[]; notificationsEnabled: boolean };

export const DEFAULT_BUDGET: BudgetSettings = {
  monthlyBudget: BUDGET_DEFAULTS.monthlyBudgetUsd,
  dailyBudget: BUDGET_DEFAULTS.dailyBudgetUsd,
  alertThresholds: [BUDGET_DEFAULTS.alertThresholdPercent],
  notificationsEnabled: BUDGET_DEFAULTS.notificationsEnabled,
};

/**
 * The budget an account's alerts use now: what it saved, or the spec's defaults until it saves
 * (`isDefault`), which the pages say, so a default never reads as the user's choice (issue 46).
 */
export type BudgetInEffect = BudgetSettings & HardCapSwitches & { isDefault: boolean };

/** Whether the monthly and the daily budget are hard caps (ADR 0032): off until the user turns them on. */
export type HardCapSwitches = { monthlyHardCap: boolean; dailyHardCap: boolean };
export const NO_HARD_CAPS: HardCapSwitches = { monthlyHardCap: false, dailyHardCap: false };

/** What the budget tab shows: the settings, what was spent, and the form's state from the URL. */
export type BudgetView = {
  settings: BudgetInEffect;
  spent: { month: number; today: number };
  /** When today's and this month's spend start again from zero: the account's midnight and 1st, as epoch ms, in `zone` (ADR 0030). */
  resets: { today: number; month: number; zone: string };
  editing: boolean;
  prefillDefaults: boolean;
  saved: boolean;
  /** Hard caps (ADR 0032): each cap's state, and the choices of the add-cap form (models used, device keys). */
  caps: { lines: CapLine[]; models: CapChoice[]; devices: CapChoice[]; full: boolean };
};

type CapChoice = { value: string; label: string };

export type BudgetBand = "green" | "orange" | "yellow" | "red";

/** Spec colour bands: below 60% green, 60 to under 80 orange, 80 to under 100 yellow, 100+ red. */
export function budgetBand(usedPercent: number): BudgetBand {
  if (usedPercent >= 100) return "red";
  if (usedPercent >= 80) return "yellow";
  if (usedPercent >= 60) return "orange";
  return "green";
}

export function usedPercent(spent: number, budget: number): number {
  if (budget <= 0) return spent > 0 ? 100 : 0;
  return (spent / budget) * 100;
}

/**
 * What is left of a budget, as the overview and the budget tab both say it (in the page's
 * locale). Compared in whole cents so that a spend a fraction of a cent over reads the same in both places.
 */
export function budgetRemainder(budget: number, spent: number, f: Pick<Formats, "usd">): string {
  if (budget <= 0) return "Set a budget to track it";
  const cents = Math.round(budget * 100) - Math.round(spent * 100);
  return cents >= 0 ? `${f.usd(cents / 100)} remaining` : `${f.usd(-cents / 100)} over budget`;
}

/** A stored list of thresholds as the alerts use it: ascending, distinct, whole; the default when none is usable. */
export function thresholdList(values: readonly unknown[] | null | undefined, fallback: number): number[] {
  const kept = (values ?? []).filter((v): v is number => typeof v === "number" && Number.isInteger(v) && v > 0);
  const list = [...new Set(kept)].sort((a, b) => a - b);
  return list.length > 0 ? list : [fallback];
}
