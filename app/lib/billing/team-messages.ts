// What the team billing page says, word for word.
import { TEAMS } from "../constants";

export const TEAM_BILLING_MESSAGES = {
  notConfigured: "Team billing is not configured. Please contact support.",
  alreadySubscribed: "This team already has a paid plan. Change its seats below, or manage it in Stripe's portal.",
  checkoutFailed: "Stripe could not start the checkout. Please try again.",
  noPlan: "This team has no paid plan: choose its seats at checkout first.",
  seatsFailed: "Stripe could not change the seats. Nothing was changed; please try again.",
  noCustomer: "This team has no billing account yet: start its plan first.",
  portalFailed: "Stripe's portal could not be opened. Please try again.",
  seatsRange: `Choose between ${TEAMS.minSeats} and ${TEAMS.maxSeats} seats.`,
  seatsBelowMembers: (members: number) =>
    `The team has ${members} member${members === 1 ? "" : "s"} (the owner included): it needs at least ${members} seat${members === 1 ? "" : "s"}. Remove members first to go lower.`,
} as const;
