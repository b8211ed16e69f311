// Issue 50's members' table at scale (ADR 0038, app/lib/usage/ledger/team-ranking.ts), inside real
// ledger objects: every page of it, walked by its cursors in several zones and ranges, is exactly
// the members' sums of the reports sent in the viewer's range, ordered by cost then member, before
// and after more reports (and redelivered ones) arrive, and after ranges are dropped and ranked
// again; a page reads as many rows for 1,000 members as for 10, and a page deep in the table as
// many as the first; a ledger made before the ranking (version 10) ranks its members on first read.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LEDGER, MS, TEAMS } from "~/lib/constants";
import { addDays, dayStart, lastDays } from "~/lib/usage/dates";
import { LEDGER_MIGRATIONS } from "~/lib/usage/ledger/schema";
import { LedgerStore } from "~/lib/usage/ledger/store";
import { RANKING_MIGRATION } from "~/lib/usage/ledger/team-ranking";
import { type MemberCursor, readTeam, type TeamQuery, type TeamRead } from "~/lib/usage/ledger/team-reads";
import type { LedgerSecure, LedgerUsage } from "~/lib/usage/ledger/types";

const NOW = Date.UTC(2026, 10, 29, 12, 0, 0);
// UTC; +5:45; −3:30 (and −2:30 before 1 November: a 90-day range has two offsets); +9; −10.
const ZONES = ["UTC", "Asia/Kathmandu", "America/St_Johns", "Asia/Tokyo", "Pacific/Honolulu"];
const MODELS = [
  { modelName: "gpt-4o", modelProvider: "openai" },
  { modelName: "claude-sonnet-4", modelProvider: "anthropic" },
  { modelName: "gemini-2.5-pro", modelProvider: "google" },
];

/** A deterministic stream of numbers in [0, 1). */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

const memberIds = (n: number) => Array.from({ length: n }, (_, i) => `member-${String(i).padStart(4, "0")}`);

/**
 * `count` reports over the `days` before NOW (and a few minutes after it, as clocks run ahead),
 * from `members` in turn. Costs come from a short list, so many members tie and a page's cursor
 * must break ties by member.
 */
function sent(members: string[], count: number, { seed = 1, days = 100 } = {}): LedgerUsage[] {
  const random = prng(seed);
  return Array.from({ length: count }, (_, i) => {
    const memberId = members[i % members.length]!;
    const at = Math.floor(NOW + 4 * MS.MINUTE - random() * days * MS.DAY);
    return {
      id: `${memberId}:${seed}-${i}`,
      occurredAt: at,
      receivedAt: at,
      ...MODELS[i % MODELS.length]!,
      requestType: i % 4 === 0 ? "agent" : "chat",
      tokensUsed: 300,
      tokensInput: 200,
      tokensOutput: 100,
      costMicros: [1000, 2000, 5000][Math.floor(random() * 3)]!,
      durationMs: 800,
      success: i % 17 !== 0,
      errorMessage: null,
      metadata: null,
      conversationId: null,
      appVersion: "2.0.0",
      appInstanceId: "i-1",
      deviceId: `${memberId}-laptop`,
      memberId,
    };
  });
}

function fallback(memberId: string, at: number, costMicros: number): LedgerSecure {
  return {
    reportHash: `${memberId}:hash-${at}`,
    modelName: "gpt-4o",
    provider: "openai",
    tokensUsed: 900,
    costMicros,
    requestCount: 3,
    successCount: 2,
    errorCount: 1,
    reportTimestamp: at,
    appVersion: null,
    appInstanceId: null,
    receivedAt: at,
    memberId,
  };
}

/** The viewer's last `days` days in `zone` at NOW, as the usage page asks for them (team-usage.server.ts). */
function viewerRange(days: number, zone: string) {
  const list = lastDays(days, NOW, zone);
  return { from: dayStart(list[0]!, zone), to: dayStart(addDays(list[list.length - 1]!, 1), zone), zone };
}

type Row = { member: string; requests: number; cost: number; tokens: number };

/** The table the page must show: each member's reports in [from, to) summed, highest cost first, then member. */
function expected(usage: LedgerUsage[], secure: LedgerSecure[], range: { from: number; to: number }): Row[] {
  const byMember = new Map<string, Row>();
  const add = (member: string, at: number, requests: number, cost: number, tokens: number) => {
    if (at < range.from || at >= range.to) return;
    const row = byMember.get(member) ?? { member, requests: 0, cost: 0, tokens: 0 };
    byMember.set(member, row);
    row.requests += requests;
    row.cost += cost;
    row.tokens += tokens;
  };
  for (const u of usage) add(u.memberId!, u.occurredAt, 1, u.costMicros, u.tokensUsed);
  for (const s of secure) add(s.memberId!, s.reportTimestamp, s.requestCount, s.costMicros, s.tokensUsed);
  return [...byMember.values()].sort((a, b) => b.cost - a.cost || (a.member < b.member ? -1 : 1));
}

/** The team's figures by model in [from, to), as `models` gives them: "model/provider requests cost", highest cost first. */
function expectedModels(usage: LedgerUsage[], secure: LedgerSecure[], range: { from: number; to: number }): string[] {
  const byModel = new Map<string, { requests: number; cost: number }>();
  const add = (model: string, at: number, requests: number, cost: number) => {
    if (at < range.from || at >= range.to) return;
    const row = byModel.get(model) ?? { requests: 0, cost: 0 };
    byModel.set(model, row);
    row.requests += requests;
    row.cost += cost;
  };
  for (const u of usage) add(`${u.modelName}/${u.modelProvider}`, u.occurredAt, 1, u.costMicros);
  for (const s of secure) add(`${s.modelName}/${s.provider}`, s.reportTimestamp, s.requestCount, s.costMicros);
  return [...byModel.entries()]
    .sort((a, b) => b[1].cost - a[1].cost || b[1].requests - a[1].requests || (a[0] < b[0] ? -1 : 1))
    .map(([model, r]) => `${model} ${r.requests} ${r.cost}`);
}

/** Every page of the members' table, `limit` rows a page, each from the last one's cursor. */
function walk(sql: SqlStorage, range: Omit<TeamQuery, "members">, limit: number): { rows: Row[]; pages: number } {
  const rows: Row[] = [];
  let after: MemberCursor | null = null;
  let pages = 0;
  do {
    const page: TeamRead["members"] = readTeam(sql, { ...range, members: { limit, after } }).members;
    expect(page.rows.length).toBeLessThanOrEqual(limit);
    rows.push(...page.rows.map((r) => ({ member: r.key, requests: r.totalRequests, cost: r.totalCostMicros, tokens: r.totalTokens })));
    after = page.next;
    pages += 1;
  } while (after !== null);
  return { rows, pages };
}

/** The SQLite rows the reads through `sql` read, counted from their cursors. */
function counted(sql: SqlStorage) {
  const cursors: SqlStorageCursor<Record<string, SqlStorageValue>>[] = [];
  const counting = new Proxy(sql, {
    get(target, property) {
      if (property === "exec")
        return (query: string, ...bindings: unknown[]) => {
          const cursor = target.exec(query, ...bindings);
          cursors.push(cursor);
          return cursor;
        };
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return {
    sql: counting,
    /** The rows read since the last call. */
    take: () => cursors.splice(0).reduce((n, c) => n + c.rowsRead, 0),
  };
}

async function inLedger(run: (sql: SqlStorage) => void) {
  const stub = env.USAGE_LEDGER.get(env.USAGE_LEDGER.idFromName(`team:ranking-${crypto.randomUUID()}`));
  await runInDurableObject(stub, (_instance, state) => run(state.storage.sql));
}

const rangeCount = (sql: SqlStorage) => Number(sql.exec(`SELECT count(*) AS n FROM member_ranges`).one().n);

describe("a team's members' table, ranked", () => {
  it("pages exactly the members' sums in every zone and range, as reports keep arriving, and after ranges are dropped and ranked again", async () => {
    const members = memberIds(60);
    const usage = sent(members, 3000);
    const secure = [fallback(members[7]!, NOW - 3 * MS.HOUR, 40_000), fallback(members[8]!, NOW - 40 * MS.DAY, 9000)];
    await inLedger((sql) => {
      const store = new LedgerStore(sql);
      expect(store.ingest(usage, secure, null, NOW).stored).toBe(3002);
      const ranges = ZONES.flatMap((zone) => TEAMS.usageRangesDays.map((days) => viewerRange(days, zone)));
      const check = (u: LedgerUsage[], s: LedgerSecure[], order: typeof ranges) => {
        for (const range of order) {
          const want = expected(u, s, range);
          const { rows, pages } = walk(sql, range, 7);
          expect(rows).toEqual(want);
          expect(pages).toBe(Math.max(1, Math.ceil(want.length / 7)));
          // The team's own figures, from its tables without members, agree with them.
          const read = readTeam(sql, range);
          expect(read.models.map((m) => `${m.key}/${m.provider} ${m.totalRequests} ${m.totalCostMicros}`)).toEqual(expectedModels(u, s, range));
          expect(read.totals.totalCostMicros).toBe(want.reduce((n, r) => n + r.cost, 0));
          expect(read.members.rows).toEqual([]);
        }
      };
      // The first read of each range ranks it; more ranges than are kept, so the first ones went.
      check(usage, secure, ranges);
      expect(ranges.length).toBeGreaterThan(LEDGER.teamRangesKept);
      expect(rangeCount(sql)).toBe(LEDGER.teamRangesKept);

      // More reports: new ones in every range, old ones before every range, one past every range's
      // end, a fallback report, and a redelivered batch (stored once, counted once).
      const more = [
        ...sent(members, 400, { seed: 2, days: 2 }),
        ...sent(members.slice(0, 5), 30, { seed: 3, days: 100 }),
        { ...usage[0]!, id: `${members[3]}:late`, memberId: members[3]!, occurredAt: NOW + 3 * MS.DAY },
      ];
      const moreSecure = [fallback(members[59]!, NOW - MS.HOUR, 70_000)];
      expect(store.ingest(more, moreSecure, null, NOW).stored).toBe(432);
      expect(store.ingest(more.slice(0, 100), moreSecure, null, NOW)).toMatchObject({ stored: 0, duplicates: 101 });
      // The ranges still kept first (newest first, so none is dropped before it is read: each was
      // added to by the ingest), then the dropped ones, ranked again.
      check([...usage, ...more], [...secure, ...moreSecure], [...ranges].reverse());
      expect(rangeCount(sql)).toBe(LEDGER.teamRangesKept);

      // A day later every one of today's ranges has ended: the next ingest drops them all.
      store.ingest(sent(members, 1, { seed: 4, days: 0 }), [], null, NOW + 3 * MS.DAY);
      expect(rangeCount(sql)).toBe(0);
      expect(Number(sql.exec(`SELECT count(*) AS n FROM member_totals`).one().n)).toBe(0);
    });
  });

  it("reads as many rows for a page of 1,000 members as for 10, and as many for a page deep in the table as for the first", async () => {
    const range = viewerRange(TEAMS.usageDefaultDays, "Asia/Kathmandu");
    const limit = TEAMS.usageMembersPerPage;
    const reads: Record<string, { first: number; page: number; deep: number | null }> = {};
    for (const size of [10, 1000]) {
      // The same reports (instants, models, costs), sent by 10 members or by 1,000.
      const usage = sent(memberIds(size), 5000, { days: 30 });
      await inLedger((sql) => {
        new LedgerStore(sql).ingest(usage, [], null, NOW);
        const { sql: reading, take } = counted(sql);
        readTeam(reading, { ...range, members: { limit } });
        const first = take();
        const page = readTeam(reading, { ...range, members: { limit } });
        reads[size] = { first, page: take(), deep: null };
        expect(page.totals.totalRequests).toBe(expected(usage, [], range).reduce((n, r) => n + r.requests, 0));
        if (size === 1000) {
          // Page 30 of 40, reached by its cursors.
          let after = page.members.next;
          for (let i = 2; i < 30; i++) after = readTeam(sql, { ...range, members: { limit, after } }).members.next;
          take();
          const deep = readTeam(reading, { ...range, members: { limit, after } });
          reads[size]!.deep = take();
          expect(deep.members.rows.map((r) => r.key)).toEqual(
            expected(usage, [], range)
              .slice(29 * limit, 30 * limit)
              .map((r) => r.member),
          );
        }
      });
    }
    const small = reads[10]!;
    const large = reads[1000]!;
    // The first read ranks the range from every member's slices: it grows with the team.
    expect(large.first).toBeGreaterThan(small.first + 1000);
    // A page after it: the team's figures (the same rows) and the index entries and rows of one
    // page of members (up to `limit` + 1 more than the 10-member team's 10, each an entry and a row).
    expect(large.page - small.page).toBeLessThanOrEqual(2 * (limit + 1));
    expect(large.deep! - large.page).toBeLessThanOrEqual(limit + 1);
  });

  it("ranks the members of a ledger made before the ranking (version 10) on its first read", async () => {
    const members = memberIds(40);
    const usage = sent(members, 1500);
    const range = viewerRange(30, "Asia/Kathmandu");
    await inLedger((sql) => {
      new LedgerStore(sql).ingest(usage, [], null, NOW);
      // Back to the version before the ranking, as a team's ledger made then is.
      const version = LEDGER_MIGRATIONS.indexOf(RANKING_MIGRATION);
      for (const statement of RANKING_MIGRATION) {
        const made = /^CREATE (TABLE|INDEX) (\w+)/.exec(statement)!;
        sql.exec(`DROP ${made[1]} IF EXISTS ${made[2]}`);
      }
      sql.exec(`UPDATE meta SET value = ? WHERE key = 'schema_version'`, String(version));

      const store = new LedgerStore(sql);
      expect(sql.exec(`SELECT value FROM meta WHERE key = 'schema_version'`).one().value).toBe(String(LEDGER_MIGRATIONS.length));
      expect(rangeCount(sql)).toBe(0);
      expect(walk(sql, range, 10).rows).toEqual(expected(usage, [], range));
      // And it keeps the ranking as reports arrive.
      const more = sent(members, 200, { seed: 9, days: 1 });
      store.ingest(more, [], null, NOW);
      expect(walk(sql, range, 10).rows).toEqual(expected([...usage, ...more], [], range));
    });
  });
});
