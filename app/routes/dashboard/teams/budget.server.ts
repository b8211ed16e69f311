// The team budget page's writes (issue 50, ADR 0039): the budget, a member's cap, removing a cap.
// The route checked the actor's role (owners and admins); each write checks it again in its own
// statement, and a member's cap only for a member of this team.
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { memberCapSchema, removeMemberCapSchema, teamBudgetSchema } from "~/lib/teams/budget-form";
import { memberIdByEmail, removeMemberCap, saveMemberCap, saveTeamBudget } from "~/lib/teams/budget.server";
import { TEAM_MESSAGES } from "~/lib/teams/messages";
import type { Membership } from "~/lib/teams/teams.server";
import type { Db } from "~/lib/db.server";

export const BUDGET_DONE: Record<string, string> = {
  budget: "The team's budget is saved.",
  cap: "The member's cap is saved.",
  removed: "The member's cap is removed.",
};

const back = (slug: string, done: keyof typeof BUDGET_DONE) => redirect(`/dashboard/teams/${slug}/budget?done=${done}`, 303);

export async function budgetAction(db: Db, membership: Membership, userId: string, formData: FormData) {
  const slug = membership.team.slug;
  const intent = formData.get("intent");
  if (intent === "cap") {
    const submission = parseWithZod(formData, { schema: memberCapSchema });
    if (submission.status !== "success") return data({ form: "cap", result: submission.reply() }, { status: 400 });
    const memberId = await memberIdByEmail(db, membership.team.id, submission.value.email);
    // The write checks the membership again in its own statement (a member removed in between).
    const saved =
      memberId === null
        ? { ok: false as const, error: TEAM_MESSAGES.notAMember }
        : await saveMemberCap(db, membership, userId, memberId, submission.value.limitUsd);
    if (!saved.ok) return data({ form: "cap", result: submission.reply({ fieldErrors: { email: [saved.error] } }) }, { status: 400 });
    throw back(slug, "cap");
  }
  if (intent === "remove-cap") {
    const submission = parseWithZod(formData, { schema: removeMemberCapSchema });
    if (submission.status !== "success") return data({ form: "remove", result: submission.reply() }, { status: 400 });
    const removed = await removeMemberCap(db, membership, userId, submission.value.userId);
    if (!removed.ok) return data({ form: "remove", result: submission.reply({ formErrors: [removed.error] }) }, { status: 404 });
    throw back(slug, "removed");
  }
  const submission = parseWithZod(formData, { schema: teamBudgetSchema });
  if (submission.status !== "success") return data({ form: "budget", result: submission.reply() }, { status: 400 });
  const saved = await saveTeamBudget(db, membership, userId, submission.value);
  if (!saved.ok) return data({ form: "budget", result: submission.reply({ formErrors: [saved.error] }) }, { status: 403 });
  throw back(slug, "budget");
}
