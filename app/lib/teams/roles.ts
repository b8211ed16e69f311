// Who may do what in a team (issue 50, ADR 0036), as pure rules the pages and the server's writes
// share. The writes repeat each rule in their SQL conditions, so a request racing another (a
// transfer, a role change) cannot slip past a rule these functions checked a moment before.
import type { TEAM_ROLES } from "~drizzle/schema";

export type TeamRole = (typeof TEAM_ROLES)[number];
/** The roles an invitation or a role change may give: ownership moves only by a transfer. */
export type GivenRole = Exclude<TeamRole, "owner">;
export const GIVEN_ROLES = ["admin", "member"] as const satisfies readonly GivenRole[];

const RANK: Record<TeamRole, number> = { owner: 3, admin: 2, member: 1 };

/** Whether `role` is at least `least` (owner > admin > member). */
export function atLeast(role: TeamRole, least: TeamRole): boolean {
  return RANK[role] >= RANK[least];
}

/** Owners and admins run the team: invitations, removals, roles, the activity log, every member's usage. */
export function canManage(role: TeamRole): boolean {
  return atLeast(role, "admin");
}

/** Inviting as admin or member: owners and admins (an invitation never makes an owner). */
export function canInvite(actor: TeamRole, invited: TeamRole): boolean {
  return canManage(actor) && invited !== "owner";
}

/** Removing someone else: owners and admins, and never the owner. */
export function canRemove(actor: TeamRole, target: TeamRole): boolean {
  return canManage(actor) && target !== "owner";
}

/** Changing someone else's role: owners and admins; the owner's role is never changed, and nobody is made owner this way. */
export function canChangeRole(actor: TeamRole, target: TeamRole, to: TeamRole): boolean {
  return canManage(actor) && target !== "owner" && to !== "owner";
}

/** Transferring ownership: the owner only, to another member (who becomes owner; the old owner becomes admin). */
export function canTransfer(actor: TeamRole, target: TeamRole): boolean {
  return actor === "owner" && target !== "owner";
}

/** Leaving: anyone but the owner, who stays while the team has other members (and alone, deletes the team). */
export function canLeave(role: TeamRole, members: number): boolean {
  return role !== "owner" || members <= 1;
}

export function roleLabel(role: TeamRole): string {
  return role === "owner" ? "Owner" : role === "admin" ? "Admin" : "Member";
}
