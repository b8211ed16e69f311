// The team's activity log (issue 50): what happened, who did it, to whom; owners and admins read
// it, it is kept TEAMS.activityKeptMs (the hourly cron prunes older rows), and the person who acted
// finds their rows in their data export. `details` never holds an e-mail address: an invitation is
// named by its id, a member by their account id (the page shows them by the names it joins now).
import { and, desc, eq, lt, or } from "drizzle-orm";
import { TEAMS } from "../constants";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { z } from "../zod";

const TEAM_ACTIONS = [
  "team_created",
  "invitation_sent",
  "invitation_revoked",
  "member_joined",
  "member_removed",
  "member_left",
  "role_changed",
  "ownership_transferred",
  "seats_changed",
  "budget_changed",
  // The site admin opened the team's usage (admin-teams.server.ts): no actor, the reason in details.
  "admin_viewed_usage",
] as const;
type TeamAction = (typeof TEAM_ACTIONS)[number];

type ActivityEntry = {
  teamId: string;
  actorId: string | null;
  action: TeamAction;
  subjectId?: string | null;
  details?: Record<string, string | number | boolean | null>;
  at?: number;
};

/**
 * The insert of one activity row, for changes recorded outside this module's transactions (a seat
 * change Stripe confirmed): await it, or put it in the batch that makes the change, so the row is
 * written with the change or not at all.
 */
export function recordActivity(db: Db, entry: ActivityEntry) {
  return db.insert(schema.teamActivity).values({
    id: crypto.randomUUID(),
    teamId: entry.teamId,
    actorId: entry.actorId,
    action: entry.action,
    subjectId: entry.subjectId ?? null,
    details: entry.details ?? {},
    at: entry.at ?? Date.now(),
  });
}

export type ActivityRow = {
  id: string;
  action: string;
  at: number;
  details: Record<string, unknown>;
  actor: string | null;
  subject: string | null;
};

/** The position after a row of the log: newest first, then id. */
export type ActivityCursor = { at: number; id: string };

const cursorSchema = z.object({ at: z.coerce.number().int().min(0), id: z.uuid() });

/**
 * The page asked for in the URL (`?after=<at>&id=<id>`, the last row of the page before): null for
 * the newest page, "invalid" for a position no row of any log could have.
 */
export function parseActivityCursor(params: URLSearchParams): ActivityCursor | null | "invalid" {
  if (!params.has("after") && !params.has("id")) return null;
  const parsed = cursorSchema.safeParse({ at: params.get("after"), id: params.get("id") });
  return parsed.success ? parsed.data : "invalid";
}

/**
 * One page of a team's activity, newest first, with the actor's and the member subject's names as
 * the team sees them now. Keyset on (at, id) over team_activity_team_idx: a page a year back costs
 * what the newest costs.
 */
export async function listActivity(
  db: Db,
  teamId: string,
  after: ActivityCursor | null,
  limit: number = TEAMS.activityPerPage,
): Promise<{ rows: ActivityRow[]; next: ActivityCursor | null }> {
  const a = schema.teamActivity;
  const actor = schema.users;
  const page = await db
    .select({ id: a.id, action: a.action, at: a.at, details: a.details, actorEmail: actor.email, subjectId: a.subjectId })
    .from(a)
    .leftJoin(actor, eq(actor.id, a.actorId))
    .where(and(eq(a.teamId, teamId), after ? or(lt(a.at, after.at), and(eq(a.at, after.at), lt(a.id, after.id))) : undefined))
    .orderBy(desc(a.at), desc(a.id))
    .limit(limit + 1);
  const rows = page.slice(0, limit);
  const subjectIds = [...new Set(rows.map((r) => r.subjectId).filter((id): id is string => id !== null))];
  const subjects = subjectIds.length
    ? await db.query.users.findMany({ where: (u, { inArray }) => inArray(u.id, subjectIds), columns: { id: true, email: true } })
    : [];
  const names = new Map(subjects.map((s) => [s.id, s.email]));
  const last = rows[rows.length - 1];
  return {
    rows: rows.map((r) => ({
      id: r.id,
      action: r.action,
      at: r.at,
      details: r.details,
      actor: r.actorEmail,
      subject: r.subjectId ? (names.get(r.subjectId) ?? null) : null,
    })),
    next: page.length > limit && last ? { at: last.at, id: last.id } : null,
  };
}

/** Deletes activity older than TEAMS.activityKeptMs (the hourly cron): how many rows went. */
export async function pruneTeamActivity(db: Db, now = Date.now()): Promise<number> {
  const result = await db.delete(schema.teamActivity).where(and(lt(schema.teamActivity.at, now - TEAMS.activityKeptMs)));
  return result.meta.changes;
}
