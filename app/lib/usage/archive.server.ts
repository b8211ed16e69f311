// The hourly cron's part of bounded storage (ADR 0020): raw reports older than the retention
// window leave their ledger for R2, one gzipped NDJSON object per account and month. Which
// ledgers may have such rows comes from D1 (usage_accounts), never from visiting every ledger.
import { and, asc, eq, isNull, lt, or } from "drizzle-orm";
import { LEDGER, MS } from "../constants";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { ledgerFor, type LedgerNamespace } from "./ledger/api";
import { log } from "../log/log.server";

const a = schema.usageAccounts;
// Ledgers archived side by side.
const PARALLEL = 8;

export type ArchiveRun = { ledgers: number; rows: number; failed: number };

/**
 * Visits the ledgers whose first report is older than the retention window and that were not
 * visited in the last day (at most LEDGER.archiveLedgersPerRun, least recently visited first).
 * A ledger that fails is logged and visited again at the next run.
 */
export async function archiveOldUsage(db: Db, ledgers: LedgerNamespace, now = Date.now()): Promise<ArchiveRun> {
  const due = await db
    .select({ userId: a.userId })
    .from(a)
    .where(and(lt(a.firstReportAt, now - LEDGER.rawRetentionDays * MS.DAY), or(isNull(a.archivedAt), lt(a.archivedAt, now - MS.DAY))))
    .orderBy(asc(a.archivedAt))
    .limit(LEDGER.archiveLedgersPerRun);
  const run: ArchiveRun = { ledgers: 0, rows: 0, failed: 0 };
  const queue = due.map((d) => d.userId);
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL, queue.length) }, async () => {
      for (let userId = queue.shift(); userId !== undefined; userId = queue.shift()) {
        try {
          const result = await ledgerFor(ledgers, userId).archive(now, userId);
          run.ledgers += 1;
          run.rows += result.rows;
          // A ledger with more to move than one run's budget is due again at the next run.
          await db
            .update(a)
            .set({ archivedAt: result.remaining > 0 ? null : now })
            .where(eq(a.userId, userId));
        } catch (error) {
          run.failed += 1;
          log.error("usage_archive_failed", {}, error);
        }
      }
    }),
  );
  return run;
}
