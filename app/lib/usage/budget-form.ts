// The budget form's schema (spec: Budget tab), on the server and in tests.
import { BUDGET, BUDGET_DEFAULTS } from "../constants";
import { SITE_FORMATS } from "../format";
import { z } from "../zod";

// Spec: budgets step 0.01, minimum 0, non-numeric becomes 0; an empty threshold falls back to 80.
// Issue 49: the threshold field takes a list ("50, 80, 100"), each a whole percent. A number field that holds no number reaches the server as an
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

/** "50, 80, 100" as numbers (NaN for a part that is no whole number); empty gives the spec's default. */
function thresholdsOrDefault(v: unknown): number[] {
  if (typeof v !== "string") return [Number.NaN];
  const text = v.trim();
  if (text === "") return [BUDGET_DEFAULTS.alertThresholdPercent];
  return text.split(/\s*[,;\s]\s*/).map((part) => (WHOLE.test(part.replace(/%$/, "")) ? Number(part.replace(/%$/, "")) : Number.NaN));
}

/** One message for the whole field, beside it: the first rule the list breaks. */
function checkThresholds(list: number[], ctx: z.RefinementCtx) {
  const say = (message: string) => ctx.addIssue({ code: "custom", message });
  if (list.some((n) => Number.isNaN(n))) return say("Enter the alert thresholds as whole percents separated by commas, such as 50, 80, 100");
  if (list.some((n) => n < BUDGET.alertThresholdMin)) return say(`Alert thresholds must be at least ${BUDGET.alertThresholdMin}%`);
  if (list.some((n) => n > BUDGET.alertThresholdMax)) return say(`Alert thresholds must be at most ${BUDGET.alertThresholdMax}%`);
  if (list.length > BUDGET.maxAlertThresholds) return say(`At most ${BUDGET.maxAlertThresholds} alert thresholds`);
  if (new Set(list).size !== list.length) say("Each alert threshold may appear only once");
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
    // The field keeps its name (alertThreshold): a form or bookmark sending one number still works.
    alertThreshold: z.preprocess(thresholdsOrDefault, z.array(z.number()).superRefine(checkThresholds)),
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
  })
  .transform(({ alertThreshold, ...rest }) => ({ ...rest, alertThresholds: [...alertThreshold].sort((x, y) => x - y) }));
