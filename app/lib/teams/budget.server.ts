// A team's shared budget in D1 (issue 50, ADR 0039): the monthly and daily budget with its alert
// thresholds and hard-cap switches (team_budgets), and a monthly cap per member (team_member_caps).
// Owners and admins write them; each write checks the actor's role and the member's membership in
// its own statement and records its activity row in the same transaction. What a budget allows
// is decided in the team's ledger (`team:<id>`), in UTC periods.
import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { log } from "../log/log.server";
import type { BudgetSettings, HardCapSwitches } from "../usage/budget";
import { type HardCap, hardCapsOf } from "../usage/caps";
import { TEAM_MESSAGES as M } from "./messages";
import type { Membership } from "./teams.server";
import { inTransaction } from "./transaction.server";

export type TeamBudget = BudgetSettings & HardCapSwitches;

/** The id of the team's member with this (lower-cased) address, or null: the cap form names a member by address. */
export async function memberIdByEmail(db: Db, teamId: string, email: string): Promise<string | null> {
  const row = await db
    .select({ id: m.userId })
    .from(m)
    .innerJoin(schema.users, eq(schema.users.id, m.userId))
    .where(sql`${m.teamId} = ${teamId} AND ${schema.users.email} = ${email}`)
    .get();
  return row?.id ?? null;
}

/** A member's cap as the budget page lists it. */
export type MemberCap = { userId: string; email: string; limitUsd: number };

const b = schema.teamBudgets;
const c = schema.teamMemberCaps;
const m = schema.teamMembers;

/** The team's budget, or null until an owner or admin saves one (a team has no budget by default). */
export async function teamBudgetOf(db: Db, teamId: string): Promise<TeamBudget | null> {
  const row = await db.select().from(b).where(eq(b.teamId, teamId)).get();
  return row ? toBudget(row) : null;
}

function toBudget(row: typeof b.$inferSelect): TeamBudget {
  return {
    monthlyBudget: row.monthlyBudget,
    dailyBudget: row.dailyBudget,
    alertThresholds: row.alertThresholds,
    notificationsEnabled: row.notificationsEnabled,
    monthlyHardCap: row.monthlyHardCap,
    dailyHardCap: row.dailyHardCap,
  };
}

/** The members' caps, by address (only current members: a cap of someone who left stays unshown and unused). */
export async function memberCapsOf(db: Db, teamId: string): Promise<MemberCap[]> {
  return db
    .select({ userId: c.userId, email: schema.users.email, limitUsd: c.monthlyLimitUsd })
    .from(c)
    .innerJoin(m, sql`${m.teamId} = ${c.teamId} AND ${m.userId} = ${c.userId}`)
    .innerJoin(schema.users, eq(schema.users.id, c.userId))
    .where(eq(c.teamId, teamId))
    .orderBy(asc(schema.users.email));
}

/** The budgets of several teams (the consumer's batch): one statement, teams without a budget absent. */
export async function teamBudgetsOf(db: Db, teamIds: string[]): Promise<Map<string, TeamBudget>> {
  if (teamIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(b)
    .where(sql`${b.teamId} IN (SELECT value FROM json_each(${JSON.stringify(teamIds)}))`);
  return new Map(rows.map((r) => [r.teamId, toBudget(r)]));
}

/**
 * The hard caps a member's claim under the team meets (the team's budgets switched to hard caps, and
 * the member's own cap), read with the membership in one statement: null when the account is no
 * longer a member (its team key then claims as a personal one would).
 */
export async function teamCapsFor(db: Db, teamId: string, userId: string): Promise<{ slug: string; caps: HardCap[] } | null> {
  const row = await db
    .select({ slug: schema.teams.slug, budget: b, memberLimit: c.monthlyLimitUsd })
    .from(m)
    .innerJoin(schema.teams, eq(schema.teams.id, m.teamId))
    .leftJoin(b, eq(b.teamId, m.teamId))
    .leftJoin(c, sql`${c.teamId} = ${m.teamId} AND ${c.userId} = ${m.userId}`)
    .where(sql`${m.teamId} = ${teamId} AND ${m.userId} = ${userId}`)
    .get();
  if (!row) return null;
  const caps = row.budget ? hardCapsOf(toBudget(row.budget), []) : [];
  if (row.memberLimit !== null) caps.push({ kind: "member", limitMicros: Math.round(row.memberLimit * 1e6), memberId: userId });
  return { slug: row.slug, caps };
}

export type BudgetChange = { ok: true } | { ok: false; error: string };

// The actor still holds a managing role in the team, read by the statement that acts.
const actorManages = (teamId: string, actorId: string) =>
  sql`EXISTS (SELECT 1 FROM ${m} WHERE team_id = ${teamId} AND user_id = ${actorId} AND role IN ('owner', 'admin'))`;

const activity = (teamId: string, actorId: string, subjectId: string | null, details: Record<string, unknown>, now: number) => sql`
  INSERT INTO ${schema.teamActivity} (id, team_id, actor_id, action, subject_id, details, at)
  SELECT ${crypto.randomUUID()}, ${teamId}, ${actorId}, 'budget_changed', ${subjectId}, ${JSON.stringify(details)}, ${now} WHERE changes() = 1`;

/** Saves the team's budget (owners and admins), with its activity row, in one transaction. */
export async function saveTeamBudget(db: Db, actor: Membership, actorId: string, budget: TeamBudget, now = Date.now()): Promise<BudgetChange> {
  const teamId = actor.team.id;
  const thresholds = JSON.stringify(budget.alertThresholds);
  const [saved] = await inTransaction(db, [
    sql`INSERT INTO ${b} (team_id, monthly_budget, daily_budget, alert_thresholds, notifications_enabled, monthly_hard_cap, daily_hard_cap, updated_at)
      SELECT ${teamId}, ${budget.monthlyBudget}, ${budget.dailyBudget}, ${thresholds}, ${budget.notificationsEnabled ? 1 : 0},
        ${budget.monthlyHardCap ? 1 : 0}, ${budget.dailyHardCap ? 1 : 0}, ${now}
      WHERE ${actorManages(teamId, actorId)}
      ON CONFLICT (team_id) DO UPDATE SET monthly_budget = excluded.monthly_budget, daily_budget = excluded.daily_budget,
        alert_thresholds = excluded.alert_thresholds, notifications_enabled = excluded.notifications_enabled,
        monthly_hard_cap = excluded.monthly_hard_cap, daily_hard_cap = excluded.daily_hard_cap, updated_at = excluded.updated_at`,
    activity(
      teamId,
      actorId,
      null,
      {
        monthly: budget.monthlyBudget,
        daily: budget.dailyBudget,
        thresholds: budget.alertThresholds.join(","),
        monthlyHardCap: budget.monthlyHardCap,
        dailyHardCap: budget.dailyHardCap,
      },
      now,
    ),
  ]);
  if (saved !== 1) return { ok: false, error: M.notAllowed };
  log.info("team_budget_saved", { teamId });
  return { ok: true };
}

/**
 * Sets one member's monthly cap (owners and admins). The member must belong to this team, read by
 * the same statement: another team's member or an unknown id is refused and nothing is written.
 */
export async function saveMemberCap(db: Db, actor: Membership, actorId: string, memberId: string, limitUsd: number, now = Date.now()): Promise<BudgetChange> {
  const teamId = actor.team.id;
  const [saved] = await inTransaction(db, [
    sql`INSERT INTO ${c} (team_id, user_id, monthly_limit_usd, updated_at)
      SELECT ${teamId}, ${memberId}, ${limitUsd}, ${now}
      WHERE ${actorManages(teamId, actorId)} AND EXISTS (SELECT 1 FROM ${m} WHERE team_id = ${teamId} AND user_id = ${memberId})
      ON CONFLICT (team_id, user_id) DO UPDATE SET monthly_limit_usd = excluded.monthly_limit_usd, updated_at = excluded.updated_at`,
    activity(teamId, actorId, memberId, { memberCap: limitUsd }, now),
  ]);
  if (saved !== 1) return { ok: false, error: M.notAMember };
  log.info("team_member_cap_saved", { teamId });
  return { ok: true };
}

/** Removes one member's cap (owners and admins); a member without one changes nothing. */
export async function removeMemberCap(db: Db, actor: Membership, actorId: string, memberId: string, now = Date.now()): Promise<BudgetChange> {
  const teamId = actor.team.id;
  const [removed] = await inTransaction(db, [
    sql`DELETE FROM ${c} WHERE team_id = ${teamId} AND user_id = ${memberId} AND ${actorManages(teamId, actorId)}`,
    activity(teamId, actorId, memberId, { memberCap: null }, now),
  ]);
  if (removed !== 1) return { ok: false, error: M.notAMember };
  log.info("team_member_cap_removed", { teamId });
  return { ok: true };
}
