// The team pages' forms (issue 50), shared by the routes' actions and the pages' conform forms.
// Every id a form posts is re-checked against the acting member's team by the write itself.
import { TEAMS } from "../constants";
import { emailAddress } from "../email-address";
import { z } from "../zod";
import { TEAM_MESSAGES as M } from "./messages";
import { GIVEN_ROLES } from "./roles";

export const createTeamSchema = z.object({
  name: z
    .string({ error: M.nameRequired })
    .trim()
    .min(1, M.nameRequired)
    .max(TEAMS.nameMaxLength, M.nameTooLong)
    // Control characters never belong in a name shown to other people.
    .regex(/^[^\p{Cc}\p{Cf}]+$/u, M.nameRequired),
});

// Ids are looked up only within the actor's own team, so any other string simply matches nothing.
const id = z.string().trim().min(1).max(64);

const role = z.enum(GIVEN_ROLES, { error: "Choose admin or member." });

export const inviteSchema = z.object({
  intent: z.literal("invite"),
  email: emailAddress({ invalid: M.emailInvalid, required: M.emailInvalid }),
  role,
});

/** The members page's other forms: each names a member or an invitation of the team. */
export const memberActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("revoke"), invitationId: id }),
  z.object({ intent: z.literal("role"), userId: id, role }),
  z.object({ intent: z.literal("remove"), userId: id }),
  z.object({ intent: z.literal("transfer"), userId: id }),
]);
