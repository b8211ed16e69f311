// What the team pages say when a request is refused: one wording for the page, the tests and the ADR.
import { TEAMS } from "../constants";

export const TEAM_MESSAGES = {
  nameRequired: "Enter a name for the team.",
  nameTooLong: `A team's name is at most ${TEAMS.nameMaxLength} characters.`,
  tooManyOwned: `You own ${TEAMS.maxOwnedPerAccount} teams, the most an account may own.`,
  emailInvalid: "Enter the e-mail address to invite, like name@example.com.",
  alreadyMember: "That address belongs to a member of this team already.",
  alreadyInvited: "That address has an open invitation already: revoke it first to send a new one.",
  tooManyInvitations: `This team has ${TEAMS.maxOpenInvitations} open invitations, the most it may hold: revoke some first.`,
  notAllowed: "Your role in this team does not allow that.",
  ownerUntouchable: "The owner's membership and role change only by a transfer of ownership.",
  ownerCannotLeave: "The owner cannot leave while the team has other members: transfer ownership first.",
  notAMember: "That person is not a member of this team.",
  memberEmailInvalid: "Enter the member's e-mail address, like name@example.com.",
  noSeat: "This team has no free seat: ask its owner to add one.",
  invitationGone: "This invitation is no longer valid: it was used, revoked or has expired. Ask for a new one.",
  wrongAddress: "This invitation is for another e-mail address. Sign in with the address it was sent to.",
  joinedAlready: "You are a member of this team already.",
  badUsageView: "This address asks for a range, member or page the team's usage does not have. Open the team's Usage tab again.",
} as const;
