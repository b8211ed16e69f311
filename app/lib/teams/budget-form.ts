// The team budget page's forms (issue 50, ADR 0039): the budget itself is the personal budget's
// form (the same fields, rules and messages), and a member's monthly cap is an amount in dollars
// for the member of that e-mail address (a list of every member would grow with the team).
import { emailAddress } from "../email-address";
import { money } from "../usage/budget-form";
import { z } from "../zod";
import { TEAM_MESSAGES as M } from "./messages";

export { budgetFormSchema as teamBudgetSchema } from "../usage/budget-form";

const memberId = z.string().trim().min(1, "Choose a member").max(64);

export const memberCapSchema = z.object({
  intent: z.literal("cap"),
  email: emailAddress({ invalid: M.memberEmailInvalid, required: M.memberEmailInvalid }),
  limitUsd: money,
});
export const removeMemberCapSchema = z.object({ intent: z.literal("remove-cap"), userId: memberId });
