// Teams (issue 50; part of ./index.ts): seats, invitations and the activity log.
import { PLAN } from "./site.ts";
import { DAY, HOUR, MINUTE } from "./time.ts";

export const TEAMS = {
  // The Team plan: the Pro plan's price per seat a month, and its 7-day trial once per team.
  seatPriceUsd: PLAN.priceUsd,
  trialDays: PLAN.trialDays,
  // Not in the issue: how many memberships (the owner's included) a team may hold before it pays.
  unpaidSeats: 3,
  // A paid team buys at least one seat (its owner's) and at most this many through the dashboard.
  minSeats: 1,
  maxSeats: 1000,
  invitationTtlMs: 7 * DAY,
  activityKeptMs: 365 * DAY,
  // Not in the issue: the activity log's rows a page (newest first; older ones a link away).
  activityPerPage: 25,
  nameMaxLength: 60,
  slugMaxLength: 40,
  // Not in the issue: teams one account may own, and invitations a team may have open at once.
  maxOwnedPerAccount: 10,
  maxOpenInvitations: 100,
  // The team usage page (ADR 0038): its ranges (days of the viewer's zone), and the members' table
  // a page at a time, highest cost first, so a team of 1,000 renders what a team of 10 does.
  usageRangesDays: [7, 30, 90],
  usageDefaultDays: 30,
  usageMembersPerPage: 25,
  // The members page lists a team's members a page at a time (owner, admins, members), so a team
  // of 1,000 seats renders what a team of 25 does; as many as the usage page's table shows.
  membersPerPage: 25,
  // The site admin's teams list (issue 50), a page at a time; and a team's usage, shown to the
  // admin only after a reason is given and audited, for this long after it (not in the issue).
  adminTeamsPerPage: 50,
  adminUsageAccessMs: 15 * MINUTE,
  adminReasonMinLength: 10,
  adminReasonMaxLength: 300,
  // The usage totals the admin sees: the team's last days, UTC.
  adminUsageDays: 30,
} as const;

// Not in the issue: an invitation is a mail to an address the inviter typed, so a team is no way
// to send mail in bulk (one account's invitations an hour, across its teams: a full team of open
// invitations) or to flood one inbox (invitations to one address a day, from every team). Apart
// from TEAMS, which the pages' shared script carries (vite.config.ts, "shared"): only the server
// reads these.
export const TEAM_INVITATION_LIMITS = {
  perInviter: { limit: 100, windowMs: HOUR },
  perAddress: { limit: 5, windowMs: DAY },
} as const;
