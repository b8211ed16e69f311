// The team usage page's data (issue 50, ADR 0038): one call to the team's ledger in the viewer's
// range and zone, and the names of the page's members (at most TEAMS.usageMembersPerPage) from D1.
// Who sees what is decided here: owners and admins every member, a member the team's totals and
// their own row only; a member naming another member gets nothing (the route answers 404).
import { and, eq, inArray } from "drizzle-orm";
import { MS, TEAMS } from "../constants";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { canManage } from "../teams/roles";
import type { Membership } from "../teams/teams.server";
import { decodePageCursor, encodePageCursor } from "../page-cursor";
import { z } from "../zod";
import { addDays, dayKey, dayStart, lastDays } from "./dates";
import type { LedgerNamespace } from "./ledger/api";
import { emptySliceFigures } from "./ledger/slices";
import type { MemberCursor, TeamDetailRow } from "./ledger/team-reads";
import type { SliceRow } from "./ledger/types";
import { teamLedger } from "./team-ingest.server";

const cursorSchema = z.object({ cost: z.number().int().min(0), member: z.string().min(1).max(64) });
const viewSchema = z.object({
  days: z.coerce
    .number()
    .int()
    .refine((n) => (TEAMS.usageRangesDays as readonly number[]).includes(n))
    .catch(TEAMS.usageDefaultDays),
  member: z.string().min(1).max(64).optional(),
  after: z.string().max(200).optional(),
});

export type TeamUsageView = { days: number; member: string | null; after: MemberCursor | null };

/** The page's URL read: a range of the allowed ones (else the default), a member filter, a members' page. */
export function parseTeamUsageView(params: URLSearchParams): TeamUsageView | null {
  const parsed = viewSchema.safeParse(Object.fromEntries(params));
  if (!parsed.success) return null;
  const after = parsed.data.after === undefined ? null : decodePageCursor(parsed.data.after, cursorSchema);
  if (parsed.data.after !== undefined && after === null) return null;
  return { days: parsed.data.days, member: parsed.data.member ?? null, after };
}

/** Whose usage the viewer may filter to: an admin anyone's, a member only their own. Null: not theirs to see. */
export function memberFilter(membership: Membership, viewerId: string, asked: string | null): { member: string | undefined } | null {
  if (asked === null) return { member: undefined };
  if (asked !== viewerId && !canManage(membership.role)) return null;
  return { member: asked };
}

type Range = { from: number; to: number; days: string[] };

/** The viewer's last `days` days, today included, as instants of their zone. */
function viewerRange(days: number, now: number, zone: string): Range {
  const list = lastDays(days, now, zone);
  return { from: dayStart(list[0]!, zone), to: dayStart(addDays(list[list.length - 1]!, 1), zone), days: list };
}

export type MemberRow = SliceRow & { name: string; current: boolean };

export async function teamUsage(
  deps: { db: Db; ledgers: LedgerNamespace },
  { team, role }: Membership,
  viewer: { id: string; zone: string },
  view: TeamUsageView,
  member: string | undefined,
  now: number,
) {
  const range = viewerRange(view.days, now, viewer.zone);
  // One ledger call: an owner or admin gets a page of every member (or the filtered member's row),
  // a member the team's totals, models and days beside their own row alone.
  const table = canManage(role) ? { members: { limit: TEAMS.usageMembersPerPage, after: view.after } } : { rowOf: viewer.id };
  const read = await teamLedger(deps.ledgers, team.id).readTeam({ from: range.from, to: range.to, zone: viewer.zone, member, ...table });
  const members = read.members;
  const byDay = new Map(read.days.map((d) => [d.key, d]));
  return {
    range: { from: range.from, to: range.to, first: range.days[0]!, last: range.days[range.days.length - 1]! },
    totals: read.totals,
    models: read.models,
    days: range.days.map((date) => byDay.get(date) ?? emptyRow(date)),
    members: await named(deps.db, team.id, members.rows),
    next: members.next && encodePageCursor(members.next),
  };
}

/** The export's rows, with each member's name (a member's own only, when the viewer is one). */
export async function teamUsageRows(
  deps: { db: Db; ledgers: LedgerNamespace },
  { team, role }: Membership,
  viewer: { id: string; zone: string },
  days: number,
  now: number,
) {
  const range = viewerRange(days, now, viewer.zone);
  const member = canManage(role) ? undefined : viewer.id;
  const rows: TeamDetailRow[] = await teamLedger(deps.ledgers, team.id).readTeamDetail({ from: range.from, to: range.to, zone: viewer.zone, member });
  const names = await namesOf(deps.db, team.id, [...new Set(rows.map((r) => r.member))]);
  return { rows: rows.map((r) => ({ ...r, name: names.get(r.member)?.name ?? FORMER })), first: range.days[0]!, last: dayKey(range.to - 1, viewer.zone) };
}

const FORMER = "Former member";
const emptyRow = (key: string): SliceRow => ({ key, ...emptySliceFigures() });

async function named(db: Db, teamId: string, rows: SliceRow[]): Promise<MemberRow[]> {
  const names = await namesOf(
    db,
    teamId,
    rows.map((r) => r.key),
  );
  return rows.map((r) => ({ ...r, name: names.get(r.key)?.name ?? FORMER, current: names.get(r.key)?.current ?? false }));
}

/** Names of the given accounts (one statement), and whether each is a member now. */
async function namesOf(db: Db, teamId: string, ids: string[]): Promise<Map<string, { name: string; current: boolean }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: schema.users.id,
      email: schema.users.email,
      firstName: schema.userProfiles.firstName,
      lastName: schema.userProfiles.lastName,
      teamId: schema.teamMembers.teamId,
    })
    .from(schema.users)
    .leftJoin(schema.userProfiles, eq(schema.userProfiles.userId, schema.users.id))
    .leftJoin(schema.teamMembers, and(eq(schema.teamMembers.userId, schema.users.id), eq(schema.teamMembers.teamId, teamId)))
    .where(inArray(schema.users.id, ids));
  return new Map(
    rows.map((r) => {
      const full = [r.firstName, r.lastName].filter(Boolean).join(" ");
      // A former member's address is not the team's to see.
      return [r.id, { name: r.teamId === null ? FORMER : full || r.email, current: r.teamId !== null }];
    }),
  );
}

/** The site admin's look at a team (after an audited reason): its totals of the last days, UTC, and how many models. */
export async function adminTeamUsage(ledgers: LedgerNamespace, teamId: string, now: number) {
  const to = dayStart(addDays(dayKey(now, "UTC"), 1), "UTC");
  const read = await teamLedger(ledgers, teamId).readTeam({ from: to - TEAMS.adminUsageDays * MS.DAY, to, zone: "UTC" });
  return { totals: read.totals, models: read.models.length };
}
