// The members page's writes (issue 50): inviting, revoking an invitation, changing a role,
// removing, transferring ownership. Each re-reads the actor's membership (the route did, in D1, on
// this request) and each write checks the rules again in its own SQL.
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { inviteSchema, memberActionSchema } from "~/lib/teams/forms";
import { createInvitation, revokeInvitation } from "~/lib/teams/invitations.server";
import { changeRole, removeMember, transferOwnership } from "~/lib/teams/members.server";
import type { Membership } from "~/lib/teams/teams.server";
import type { AppContext } from "~/server/context.server";
import { retryAfter } from "~/server/responses.server";

const DONE = { invited: "invited", revoked: "revoked", role: "role", removed: "removed", transferred: "transferred" } as const;
export type Done = keyof typeof DONE;

export const DONE_MESSAGES: Record<Done, string> = {
  invited: "The invitation is sent. It works once, for 7 days, and only for the address it was sent to.",
  revoked: "The invitation is revoked: its link no longer works.",
  role: "The role is changed.",
  removed: "The member is removed: they no longer have access to the team.",
  transferred: "Ownership is transferred. You are now an admin of the team.",
};

export async function membersAction(deps: AppContext, membership: Membership, userId: string, formData: FormData, pageSearch: string) {
  const slug = membership.team.slug;
  // The page of members the form was on (`pageSearch`, "" for the first), with what was done.
  const back = (done: Done) => redirect(`/dashboard/teams/${slug}/members${pageSearch ? `${pageSearch}&` : "?"}done=${DONE[done]}`, 303);
  if (formData.get("intent") === "invite") {
    const submission = parseWithZod(formData, { schema: inviteSchema });
    if (submission.status !== "success") return data({ result: submission.reply(), error: null }, { status: 400 });
    const invited = await createInvitation(deps, membership, userId, submission.value);
    if (!invited.ok)
      return data(
        { result: submission.reply({ formErrors: [invited.error] }), error: null },
        { status: invited.status, headers: invited.status === 429 ? retryAfter(invited.retryAfterSeconds) : undefined },
      );
    throw back("invited");
  }
  const parsed = memberActionSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) return data({ result: null, error: "That form was not complete: reload the page and try again." }, { status: 400 });
  const input = parsed.data;
  if (input.intent === "revoke") {
    if (!(await revokeInvitation(deps.db, membership, userId, input.invitationId)))
      return data({ result: null, error: "That invitation was not found, or was already used or revoked." }, { status: 404 });
    throw back("revoked");
  }
  const outcome =
    input.intent === "role"
      ? await changeRole(deps.db, membership, userId, input.userId, input.role)
      : input.intent === "remove"
        ? await removeMember(deps, membership, userId, input.userId)
        : await transferOwnership(deps.db, membership, userId, input.userId);
  if (!outcome.ok) return data({ result: null, error: outcome.error }, { status: 403 });
  if (input.intent === "remove" && input.userId === userId) throw redirect("/dashboard/teams", 303);
  throw back(input.intent === "role" ? "role" : input.intent === "remove" ? "removed" : "transferred");
}
