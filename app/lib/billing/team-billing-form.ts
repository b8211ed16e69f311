// The team billing page's forms: checkout and a seat change take a number of seats; the portal
// takes nothing. Shared by the route's action and the page's conform forms.
import { TEAMS } from "../constants";
import { z } from "../zod";
import { TEAM_BILLING_MESSAGES as M } from "./team-messages";

const seats = z.coerce.number({ error: M.seatsRange }).int(M.seatsRange).min(TEAMS.minSeats, M.seatsRange).max(TEAMS.maxSeats, M.seatsRange);

export const teamSeatsSchema = z.object({ intent: z.enum(["checkout", "seats"]), seats });
