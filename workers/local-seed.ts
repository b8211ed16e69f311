// A Worker for the local set-up only (scripts/local-state.mjs bundles it and runs it on Miniflare;
// never built or deployed): the demo accounts, written with the app's own password hashing and
// drizzle schema, and the site Worker's UsageLedger class under the site Worker's name, so the demo
// account's usage history is written by the ledger's own code into the Durable Object files
// `wrangler dev --persist-to` opens later.
import type { BatchItem } from "drizzle-orm/batch";
import { drizzle } from "drizzle-orm/d1";
import { hashSecret } from "~/lib/auth/password";
import { LEDGER, MS } from "~/lib/constants";
import { type AccountFacts, toLedgerUsage, type UsageItem } from "~/lib/usage/ingest.server";
import { ledgerFor } from "~/lib/usage/ledger/api";
import type { IngestResult, LedgerUsage } from "~/lib/usage/ledger/types";
import { usageAccountsUpsert, usageRollupUpsert } from "~/lib/usage/rollup-sql";
import { ingestTeams, teamLedger, teamParts } from "~/lib/usage/team-ingest.server";
import { teamActivity, teamMembers, teams, userProfiles, users } from "~drizzle/schema";

export { UsageLedger } from "./usage-ledger";

type SeedEnv = { DB: D1Database; USAGE_LEDGER: DurableObjectNamespace };
export type SeedRequest = { userId: string; usage: LedgerUsage[]; now: number };
/** `id`: the ledger's object id (the name of its SQLite file, which the caller checks for). */
export type SeedResponse = { id: string; stored: number; skipped: boolean };
export type DemoAccount = { id: string; email: string; password: string; role: "user" | "admin"; firstName: string; lastName: string; phoneNumber: string };
export type DemoTeam = { id: string; slug: string; name: string; members: { userId: string; role: "owner" | "admin" | "member" }[] };
export type AccountsRequest = { accounts: DemoAccount[]; team?: DemoTeam; now: number };
/** The demo team's reports as the consumer's queue carries them, each sent under the team by a member. */
export type TeamUsageRequest = { teamId: string; members: string[]; usage: UsageItem[]; now: number };

export default {
  // POST /accounts an AccountsRequest: the demo accounts. POST a SeedRequest: stores the reports
  // unless the ledger already holds some, then the shared figures in D1.
  async fetch(request: Request, env: SeedEnv): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (path === "/accounts") return seedAccounts(env.DB, (await request.json()) as AccountsRequest);
    if (path === "/team-usage") return seedTeamUsage(env, (await request.json()) as TeamUsageRequest);
    const { userId, usage, now } = (await request.json()) as SeedRequest;
    const id = env.USAGE_LEDGER.idFromName(userId).toString();
    const ledger = ledgerFor(env.USAGE_LEDGER, userId);
    if ((await ledger.size()).reports > 0) return Response.json({ id, stored: 0, skipped: true } satisfies SeedResponse);
    const results: IngestResult[] = [];
    for (let i = 0; i < usage.length; i += LEDGER.maxReportsPerIngest) {
      results.push(await ledger.ingest({ usage: usage.slice(i, i + LEDGER.maxReportsPerIngest), secure: [], budget: null, now }));
    }
    await writeShared(env.DB, userId, results, Math.max(...usage.map((u) => u.receivedAt)));
    return Response.json({ id, stored: results.reduce((n, r) => n + r.stored, 0), skipped: false } satisfies SeedResponse);
  },
};

/**
 * The demo team's month the consumer's way (workers/consumer.ts): each member's reports into their
 * own ledger, then the consumer's team ingest (teamParts, ingestTeams) into the team's ledger, each
 * under its member, and the members' D1 figures. Skipped when the team's ledger holds reports.
 */
async function seedTeamUsage(env: SeedEnv, { teamId, members, usage, now }: TeamUsageRequest): Promise<Response> {
  const id = env.USAGE_LEDGER.idFromName(`team:${teamId}`).toString();
  if ((await teamLedger(env.USAGE_LEDGER, teamId).size()).reports > 0) return Response.json({ id, stored: 0, skipped: true } satisfies SeedResponse);
  await Promise.all(
    members.map(async (userId) => {
      const own = usage.filter((u) => u.userId === userId);
      const results: IngestResult[] = [];
      for (let i = 0; i < own.length; i += LEDGER.maxReportsPerIngest) {
        const part = own.slice(i, i + LEDGER.maxReportsPerIngest).map((u) => toLedgerUsage(u));
        results.push(await ledgerFor(env.USAGE_LEDGER, userId).ingest({ usage: part, secure: [], budget: null, now }));
      }
      if (results.length) await writeShared(env.DB, userId, results, Math.max(...own.map((u) => u.receivedAt)));
    }),
  );
  // The consumer's batch: its messages only matter for retries, which a seed does not make.
  const facts = new Map(members.map((m) => [m, { teams: [teamId] } as AccountFacts]));
  const carried = usage.map((item) => ({ message: { id: item.report.report_id } as Message<unknown>, item }));
  const retry = new Set<Message<unknown>>();
  await ingestTeams(env.USAGE_LEDGER, teamParts(carried, [], facts), now, retry);
  if (retry.size) throw new Error(`${retry.size} team reports were not stored`);
  const size = await teamLedger(env.USAGE_LEDGER, teamId).size();
  return Response.json({ id, stored: size.reports, skipped: false } satisfies SeedResponse);
}

/**
 * The consumer's D1 figures for what the ledger stored, with writeShared's statements
 * (app/lib/usage/rollup-sql.ts; writeShared itself would bring drizzle and zod into this bundle): the
 * account's day totals for the admin's cross-account rollup, and when it first and last reported.
 */
async function writeShared(db: D1Database, userId: string, results: IngestResult[], lastReceivedAt: number) {
  const days = new Map<string, { row: IngestResult["days"][number]; version: number }>();
  for (const r of results) for (const d of r.days) days.set(d.date, { row: d, version: r.version });
  const first = results.map((r) => r.firstReceivedAt).find((t) => t !== null) ?? null;
  const statements = [...days.values()].map(({ row, version }) =>
    db.prepare(usageRollupUpsert(1)).bind(userId, row.date, row.requests, row.tokens, row.costMicros, version),
  );
  if (first !== null) {
    statements.push(db.prepare(usageAccountsUpsert(1)).bind(userId, first, lastReceivedAt));
  }
  if (statements.length) await db.batch(statements);
}

/** Confirmed accounts with their profiles; rows already there are kept, so a password changed locally stays changed. */
async function seedAccounts(d1: D1Database, { accounts, team, now }: AccountsRequest): Promise<Response> {
  const db = drizzle(d1);
  const hashes = await Promise.all(accounts.map((a) => hashSecret(a.password)));
  const statements: BatchItem<"sqlite">[] = accounts.flatMap((a, i) => [
    db
      .insert(users)
      .values({
        id: a.id,
        email: a.email,
        passwordHash: hashes[i]!,
        emailConfirmedAt: now,
        role: a.role,
        metadata: { first_name: a.firstName, last_name: a.lastName },
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing(),
    db
      .insert(userProfiles)
      .values({
        id: a.id,
        userId: a.id,
        email: a.email,
        firstName: a.firstName,
        lastName: a.lastName,
        phoneNumber: a.phoneNumber,
        timezone: "UTC",
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing(),
  ]);
  const owner = team?.members.find((m) => m.role === "owner");
  if (team && owner) {
    // After the accounts, in the same batch: the team's owner and members must exist first. The
    // team is as old as its month of usage, and its activity log tells how it came to be.
    const story = teamStory(team, owner.userId, now - DEMO_TEAM_AGE_MS);
    statements.push(
      db
        .insert(teams)
        .values({
          id: team.id,
          slug: team.slug,
          name: team.name,
          ownerId: owner.userId,
          seats: team.members.length,
          createdAt: story.createdAt,
          updatedAt: now,
        })
        .onConflictDoNothing(),
      ...team.members.map((m) =>
        db
          .insert(teamMembers)
          .values({ teamId: team.id, userId: m.userId, role: m.role, joinedAt: story.joinedAt.get(m.userId)! })
          .onConflictDoNothing(),
      ),
      ...story.activity.map((row) => db.insert(teamActivity).values(row).onConflictDoNothing()),
    );
  }
  if (statements.length) await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  return Response.json({ accounts: accounts.length });
}

// A day longer than the demo's month of usage (scripts/seed.mjs).
const DEMO_TEAM_AGE_MS = 31 * MS.DAY;

/**
 * The demo team's history as its activity log records it: created by its owner, each other member
 * invited (with the role they joined in) within its first hours and joining an hour later, and the
 * admin made one by the owner after a week. The rows' ids are fixed, so seeding again adds none.
 */
function teamStory(team: DemoTeam, ownerId: string, createdAt: number) {
  const joinedAt = new Map([[ownerId, createdAt]]);
  const activity: Array<typeof teamActivity.$inferInsert> = [];
  const row = (action: string, actorId: string, subjectId: string | null, details: Record<string, unknown>, at: number) =>
    activity.push({
      id: `00000000-0000-4000-8000-${(0xb00 + activity.length).toString(16).padStart(12, "0")}`,
      teamId: team.id,
      actorId,
      action,
      subjectId,
      details,
      at,
    });
  row("team_created", ownerId, null, {}, createdAt);
  const others = team.members.filter((m) => m.userId !== ownerId);
  others.forEach((m, i) => {
    const invited = createdAt + (i + 1) * 2 * MS.HOUR;
    const firstRole = m.role === "admin" ? "member" : m.role;
    row("invitation_sent", ownerId, null, { role: firstRole }, invited);
    joinedAt.set(m.userId, invited + MS.HOUR);
    row("member_joined", m.userId, m.userId, { role: firstRole }, invited + MS.HOUR);
    if (m.role === "admin") row("role_changed", ownerId, m.userId, { from: "member", to: "admin" }, createdAt + 8 * MS.DAY);
  });
  return { createdAt, joinedAt, activity };
}
