// The team budget page's forms (issue 50, ADR 0039): the budget itself is the personal budget's
// form (the same fields, rules and messages), and a member's monthly cap is an amount in dollars.
import { money } from "../usage/budget-form";
import { z } from "../zod";

export { budgetFormSchema as teamBudgetSchema } from "../usage/budget-form";

const memberId = z.string().trim().min(1, "Choose a member").max(64);

export const memberCapSchema = z.object({ intent: z.literal("cap"), userId: memberId, limitUsd: money });
export const removeMemberCapSchema = z.object({ intent: z.literal("remove-cap"), userId: memberId });
