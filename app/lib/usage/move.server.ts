// The move of D1's usage history into the accounts' ledgers (ADR 0020, "Moving today's data"):
// the raw rows of model_usage and secure_usage_reports and the sent alerts of budget_alerts. The
// aggregates (daily_usage_summary, hourly_usage, minute_usage, conversations) are not moved: each
// ledger computes its own from the raw rows it stores, and migration 0014 drops them all.
//
// One call moves a bounded step: at most MOVE.rowsPerCall rows of at most MOVE.accountsPerCall
// accounts, taken in key order (user_id, then the row's key), so no call outgrows a Worker's
// limits however large the tables are. For each account: the rows go into its ledger (stored
// once: a report's id, a fallback report's hash and an alert's period are keys there), then the
// day totals into D1's rollup, and only then are the rows deleted from D1. A call that fails
// anywhere leaves its rows in D1 and the next call moves the same rows again, changing nothing
// that was already moved: the move is idempotent and resumes where it stopped.
import type { Db } from "../db.server";
import { chunks } from "../db.server";
import { writeShared, type AccountOutcome } from "./ingest.server";
import { ledgerFor, type LedgerNamespace } from "./ledger/api";
import type { IngestResult, LedgerSecure, LedgerUsage, SentAlert } from "./ledger/types";
import { fromRow, reports, secureReports } from "./ledger/tables";

export const MOVE = {
  rowsPerCall: 2000,
  // Ledger calls are subrequests: one per account and step, a few at a time.
  accountsPerCall: 100,
  parallelAccounts: 8,
  // `remaining` is counted up to this many rows per table, so a call's reads stay bounded too.
  remainingCountedUpTo: 100_000,
} as const;

export type MoveResult = {
  moved: number;
  /** Rows still in the legacy tables (each table counted up to MOVE.remainingCountedUpTo): 0 when the move is done. */
  remaining: number;
};

const LEGACY_TABLES = ["budget_alerts", "model_usage", "secure_usage_reports"] as const;
type LegacyTable = (typeof LEGACY_TABLES)[number];

type Row = Record<string, unknown>;
type Step = { table: LegacyTable; keys: string[]; columns: string };

// Alerts first: a ledger knows which periods' alerts were sent before it gets the spend that
// would decide them again.
const STEPS: Step[] = [
  { table: "budget_alerts", keys: ["user_id", "kind", "period"], columns: "user_id, kind, period, sent_at" },
  { table: "model_usage", keys: ["user_id", "id"], columns: "*" },
  { table: "secure_usage_reports", keys: ["user_id", "id"], columns: "*" },
];

/** Moves the next step of D1's usage history into the ledgers. Nothing to do without the legacy tables. */
export async function moveLegacyUsage(db: Db, ledgers: LedgerNamespace, options: { rowsPerCall?: number; now?: number } = {}): Promise<MoveResult> {
  const d1 = db.$client;
  const present = await legacyTables(d1);
  if (present.length === 0) return { moved: 0, remaining: 0 };
  let budget = options.rowsPerCall ?? MOVE.rowsPerCall;
  let accounts: number = MOVE.accountsPerCall;
  let moved = 0;
  for (const step of STEPS) {
    if (!present.includes(step.table) || budget <= 0 || accounts <= 0) continue;
    const rows = (
      await d1
        .prepare(`SELECT ${step.columns} FROM ${step.table} ORDER BY ${step.keys.join(", ")} LIMIT ?`)
        .bind(budget)
        .all<Row>()
    ).results;
    const groups = byAccount(rows).slice(0, accounts);
    if (groups.length === 0) continue;
    await moveGroups(db, ledgers, step, groups, options.now ?? Date.now());
    const count = groups.reduce((n, g) => n + g.rows.length, 0);
    moved += count;
    budget -= count;
    accounts -= groups.length;
  }
  return { moved, remaining: await remainingRows(d1, present) };
}

async function legacyTables(d1: D1Database): Promise<LegacyTable[]> {
  const { results } = await d1
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (${LEGACY_TABLES.map(() => "?").join(", ")})`)
    .bind(...LEGACY_TABLES)
    .all<{ name: LegacyTable }>();
  return results.map((r) => r.name);
}

async function remainingRows(d1: D1Database, present: LegacyTable[]): Promise<number> {
  const parts = present.map((t) => `(SELECT count(*) FROM (SELECT 1 FROM ${t} LIMIT ${MOVE.remainingCountedUpTo}))`);
  const row = await d1.prepare(`SELECT ${parts.join(" + ")} AS n`).first<{ n: number }>();
  return Number(row?.n ?? 0);
}

/** Rows in key order, grouped by account (each account's rows are consecutive). */
function byAccount(rows: Row[]): Array<{ userId: string; rows: Row[] }> {
  const groups: Array<{ userId: string; rows: Row[] }> = [];
  for (const row of rows) {
    const userId = String(row.user_id);
    const last = groups.at(-1);
    if (last?.userId === userId) last.rows.push(row);
    else groups.push({ userId, rows: [row] });
  }
  return groups;
}

async function moveGroups(db: Db, ledgers: LedgerNamespace, step: Step, groups: Array<{ userId: string; rows: Row[] }>, now: number) {
  // 1. Into the ledgers.
  const outcomes: AccountOutcome[] = [];
  const queue = [...groups];
  await Promise.all(
    Array.from({ length: Math.min(MOVE.parallelAccounts, queue.length) }, async () => {
      for (let group = queue.shift(); group !== undefined; group = queue.shift()) {
        const outcome = await intoLedger(ledgers, step.table, group.userId, group.rows, now);
        if (outcome) outcomes.push(outcome);
      }
    }),
  );
  // 2. The accounts' day totals and first and last report into D1's rollup (absolute figures: a
  // repeated step writes the same ones).
  await writeShared(db, outcomes);
  // 3. Only now out of D1, in the same order, by their keys.
  const d1 = db.$client;
  const perStatement = Math.floor(100 / step.keys.length);
  const keys = groups.flatMap((g) => g.rows.map((r) => step.keys.map((k) => r[k])));
  const tuple = `(${step.keys.map(() => "?").join(", ")})`;
  await d1.batch(
    chunks(keys, perStatement).map((part) =>
      d1.prepare(`DELETE FROM ${step.table} WHERE (${step.keys.join(", ")}) IN (VALUES ${part.map(() => tuple).join(", ")})`).bind(...part.flat()),
    ),
  );
}

async function intoLedger(ledgers: LedgerNamespace, table: LegacyTable, userId: string, rows: Row[], now: number): Promise<AccountOutcome | null> {
  const ledger = ledgerFor(ledgers, userId);
  if (table === "budget_alerts") {
    await ledger.importAlerts(rows.map(toSentAlert));
    return null;
  }
  const usage = table === "model_usage" ? rows.map(toLedgerUsage) : [];
  const secure = table === "secure_usage_reports" ? rows.map(toLedgerSecure) : [];
  const result: IngestResult = await ledger.ingest({ usage, secure, budget: null, now, importing: true });
  // No device keys: D1's sessions already know their last use from when these were reported.
  return { userId, result, usage: usage.map((u) => ({ receivedAt: u.receivedAt })), secure: secure.map((s) => ({ receivedAt: s.receivedAt })) };
}

function toSentAlert(r: Row): SentAlert {
  return { kind: r.kind === "daily" ? "daily" : "monthly", period: String(r.period), sentAt: Number(r.sent_at) };
}

/** A model_usage row (schema of migrations 0000-0013) as the ledger stores a report: the columns have the ledger's names. */
export function toLedgerUsage(r: Row): LedgerUsage {
  const usage = fromRow(reports, r);
  return { ...usage, id: usage.id.toLowerCase() };
}

/** A secure_usage_reports row as the ledger stores a fallback report (created_at: when it was received). */
function toLedgerSecure(r: Row): LedgerSecure {
  return fromRow(secureReports, r, { received_at: "created_at" });
}
