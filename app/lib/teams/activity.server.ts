// The team's activity log (issue 50): what happened, who did it, to whom; owners and admins read
// it, it is kept TEAMS.activityKeptMs (the hourly cron prunes older rows), and the person who acted
// finds their rows in their data export. `details` never holds an e-mail address: an invitation is
// named by its id, a member by their account id (the page shows them by the names it joins now).
import { and, desc, eq, lt } from "drizzle-orm";
import { TEAMS } from "../constants";
import type { Db } from "../db.server";
import { schema } from "../db.server";

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

/** A team's latest activity, newest first, with the actor's and the member subject's names as the team sees them now. */
export async function listActivity(db: Db, teamId: string, limit = 100): Promise<ActivityRow[]> {
  const a = schema.teamActivity;
  const actor = schema.users;
  const rows = await db
    .select({ id: a.id, action: a.action, at: a.at, details: a.details, actorEmail: actor.email, subjectId: a.subjectId })
    .from(a)
    .leftJoin(actor, eq(actor.id, a.actorId))
    .where(eq(a.teamId, teamId))
    .orderBy(desc(a.at), desc(a.id))
    .limit(limit);
  const subjectIds = [...new Set(rows.map((r) => r.subjectId).filter((id): id is string => id !== null))];
  const subjects = subjectIds.length
    ? await db.query.users.findMany({ where: (u, { inArray }) => inArray(u.id, subjectIds.slice(0, 90)), columns: { id: true, email: true } })
    : [];
  const names = new Map(subjects.map((s) => [s.id, s.email]));
  return rows.map((r) => ({
    id: r.id,
    action: r.action,
    at: r.at,
    details: r.details,
    actor: r.actorEmail,
    subject: r.subjectId ? (names.get(r.subjectId) ?? null) : null,
  }));
}

/** Deletes activity older than TEAMS.activityKeptMs (the hourly cron): how many rows went. */
export async function pruneTeamActivity(db: Db, now = Date.now()): Promise<number> {
  const result = await db.delete(schema.teamActivity).where(and(lt(schema.teamActivity.at, now - TEAMS.activityKeptMs)));
  return result.meta.changes;
}
