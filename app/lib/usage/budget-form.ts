// The budget form's schema (spec: Budget tab), on the server and in tests.
import { BUDGET, BUDGET_DEFAULTS } from "../constants";
import { SITE_FORMATS } from "../format";
import { z } from "../zod";

// Spec: budgets step 0.01, minimum 0, non-numeric becomes 0; threshold step 5 within 50–95,
// non-numeric falls back to 80. A number field that holds no number reaches the server as an
// empty value: that is the "non-numeric" of the spec and gets the default. Any other text must
// be a plain decimal: JavaScript's Number() would read "0x10" as 16 and "Infinity" as a budget.
// Values out of range are refused with a message rather than silently changed.
// (A minus sign is let through so that "-1" gets "Budgets cannot be negative".)
const DECIMAL = /^-?\d{1,9}(\.\d+)?$/;
const WHOLE = /^-?\d{1,3}$/;

function numberOrDefault(pattern: RegExp, fallback: number) {
  return (v: unknown) => {
    // A field missing from the form (not even empty) is a cut-off or forged body, not a choice.
    if (typeof v !== "string") return NaN;
    const text = v.trim();
    if (text === "") return fallback;
    return pattern.test(text) ? Number(text) : NaN;
  };
}

export const money = z.preprocess(
  numberOrDefault(DECIMAL, 0),
  z
    .number({ error: "Enter an amount in dollars, such as 12.50" })
    .min(0, "Budgets cannot be negative")
    .max(BUDGET.maxBudgetUsd, `Budgets are limited to $${SITE_FORMATS.integer(BUDGET.maxBudgetUsd)}`)
    .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, "Use at most 2 decimals (step 0.01)"),
);

const checkbox = z.preprocess((v) => v === "on" || v === "true", z.boolean());

export const budgetFormSchema = z
  .object({
    monthlyBudget: money,
    dailyBudget: money,
    alertThreshold: z.preprocess(
      numberOrDefault(WHOLE, BUDGET_DEFAULTS.alertThresholdPercent),
      z
        .number({ error: "Enter the alert threshold as a whole percent, such as 80" })
        .int("Alert threshold must be a whole percent")
        .min(BUDGET.alertThresholdMin, `Alert threshold must be at least ${BUDGET.alertThresholdMin}%`)
        .max(BUDGET.alertThresholdMax, `Alert threshold must be at most ${BUDGET.alertThresholdMax}%`)
        .refine((n) => n % BUDGET.alertThresholdStep === 0, `Alert threshold moves in steps of ${BUDGET.alertThresholdStep}%`),
    ),
    notificationsEnabled: checkbox,
    // Hard caps (ADR 0032): a budget of 0 is no budget, so its switch changes nothing until one is set.
    monthlyHardCap: checkbox,
    dailyHardCap: checkbox,
  })
  // A day's budget above the month's could never be spent (issue 46). A budget of 0 is no budget
  // (no alert, "No budget" on its card), so a daily budget alone, with no monthly one, stands.
  .superRefine((b, ctx) => {
    if (b.monthlyBudget > 0 && b.dailyBudget > b.monthlyBudget) {
      ctx.addIssue({
        code: "custom",
        path: ["dailyBudget"],
        message: `The daily budget cannot be more than the monthly budget (${SITE_FORMATS.usd(b.monthlyBudget)})`,
      });
    }
  });
