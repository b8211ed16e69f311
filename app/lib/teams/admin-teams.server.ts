// The site admin's view of teams (issue 50): every team with its seats, plan and revenue, a page at
// a time, and a team's usage totals only after a reason was given. The reason is audited
// (admin_audit) and told to the team's owners and admins (team_activity) in one batch, so no usage
// is shown without both rows; the access then lasts TEAMS.adminUsageAccessMs.
import { and, desc, eq, gt, lt, or, sql } from "drizzle-orm";
import { TEAMS } from "../constants";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { z } from "../zod";
import { recordActivity } from "./activity.server";

const ADMIN_REASON_MESSAGE = `Give the reason for reading this team's usage, ${TEAMS.adminReasonMinLength} to ${TEAMS.adminReasonMaxLength} characters.`;

export const adminReasonSchema = z.object({
  reason: z
    .string({ error: ADMIN_REASON_MESSAGE })
    .trim()
    .min(TEAMS.adminReasonMinLength, ADMIN_REASON_MESSAGE)
    .max(TEAMS.adminReasonMaxLength, ADMIN_REASON_MESSAGE)
    // Shown to the team as written: one line of text, no control characters.
    .regex(/^[^\p{Cc}\p{Cf}]+$/u, ADMIN_REASON_MESSAGE),
});

/** The position after a row of the list: newest team first, then id. */
export type AdminTeamsCursor = { createdAt: number; id: string };

/** Seat price in cents: revenue is counted in whole cents, never in floating dollars. */
const SEAT_CENTS = Math.round(TEAMS.seatPriceUsd * 100);

/**
 * Revenue a month: the subscription's seats at the seat price while Stripe says it is active.
 * A trial, a past-due or a cancelled subscription brings nothing (no invoice is recorded locally:
 * this is the recurring amount Stripe bills, not money received).
 */
function monthlyRevenueCents(status: string | null, quantity: number | null): number {
  return status === "active" && quantity ? quantity * SEAT_CENTS : 0;
}

export async function listTeamsForAdmin(db: Db, after: AdminTeamsCursor | null, limit: number = TEAMS.adminTeamsPerPage) {
  const t = schema.teams;
  const s = schema.teamSubscriptions;
  const rows = await db
    .select({
      id: t.id,
      slug: t.slug,
      name: t.name,
      createdAt: t.createdAt,
      seats: t.seats,
      owner: schema.users.email,
      used: sql<number>`(SELECT count(*) FROM team_members m WHERE m.team_id = ${t.id})`,
      status: s.status,
      quantity: s.quantity,
    })
    .from(t)
    .innerJoin(schema.users, eq(schema.users.id, t.ownerId))
    .leftJoin(s, eq(s.teamId, t.id))
    .where(after ? or(lt(t.createdAt, after.createdAt), and(eq(t.createdAt, after.createdAt), lt(t.id, after.id))) : undefined)
    .orderBy(desc(t.createdAt), desc(t.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit).map((r) => ({ ...r, revenueCents: monthlyRevenueCents(r.status, r.quantity) }));
  const last = page[page.length - 1];
  return { rows: page, next: rows.length > limit && last ? { createdAt: last.createdAt, id: last.id } : null };
}

/** All teams' revenue a month and paying teams, one aggregate over the subscriptions. */
export async function revenueSummary(db: Db) {
  const s = schema.teamSubscriptions;
  const [row] = await db
    .select({ seats: sql<number>`coalesce(sum(${s.quantity}), 0)`, teams: sql<number>`count(*)` })
    .from(s)
    .where(eq(s.status, "active"));
  return { payingTeams: row?.teams ?? 0, revenueCents: (row?.seats ?? 0) * SEAT_CENTS };
}

export async function teamForAdmin(db: Db, teamId: string) {
  return (await db.query.teams.findFirst({ where: (t, { eq }) => eq(t.id, teamId), columns: { id: true, name: true, slug: true, seats: true } })) ?? null;
}

/** Until when the admin may read the team's usage (their latest audited reason), or null. */
export async function usageAccessUntil(db: Db, adminId: string, teamId: string, now: number): Promise<number | null> {
  const a = schema.adminAudit;
  const [row] = await db
    .select({ at: a.at })
    .from(a)
    .where(and(eq(a.adminId, adminId), eq(a.teamId, teamId), gt(a.at, now - TEAMS.adminUsageAccessMs)))
    .orderBy(desc(a.at))
    .limit(1);
  return row ? row.at + TEAMS.adminUsageAccessMs : null;
}

/** The audit row and the team's activity row, written together or not at all. */
export async function recordUsageAccess(db: Db, input: { adminId: string; teamId: string; reason: string; now: number }) {
  await db.batch([
    db.insert(schema.adminAudit).values({ id: crypto.randomUUID(), adminId: input.adminId, teamId: input.teamId, reason: input.reason, at: input.now }),
    recordActivity(db, { teamId: input.teamId, actorId: null, action: "admin_viewed_usage", details: { reason: input.reason }, at: input.now }),
  ]);
}
