// "Download my data" (issue 29): asking for an export enqueues a job (the page answers at once);
// the consumer gathers the data (export-data.server.ts) into one JSON file in R2 under
// exports/<userId>/<id>.json; the profile then shows a link that works for its owner only, for
// DATA_EXPORT.linkTtlMs, after which the hourly cron deletes the file. One export per account per
// hour, counted by one atomic statement, so two requests at once make one job. A job that fails
// for good (its message dead-lettered) ends "failed" and gives the hour's allowance back. A file
// whose row is gone (its account deleted while it was being built) is removed by its build, or
// else by the hourly cron's sweep of orphans.
import { and, desc, eq, inArray, lte } from "drizzle-orm";
import type { StripeConfig } from "../config";
import { DATA_EXPORT } from "../constants";
import type { Db } from "../db.server";
import { chunks, schema } from "../db.server";
import { clearCounter, countEvent, secondsUntil } from "../limits/counters.server";
import { type AccountExportMessage, enqueue } from "../queue";
import type { LedgerNamespace } from "../usage/ledger/api";
import { enqueueMail } from "../mail/mail.server";
import { dataExportReadyMail } from "../mail/templates";
import { gatherAccountData } from "./export-data.server";
import { log } from "../log/log.server";

const exportsTable = schema.dataExports;

const EXPORTS_PREFIX = "exports/";
const exportObjectKey = (userId: string, id: string) => `${EXPORTS_PREFIX}${userId}/${id}.json`;
const EXPORT_KEY = /^exports\/([^/]+)\/([^/]+)\.json$/;
const allowanceKey = (userId: string) => `data-export:user:${userId}`;

export type ExportRequest = { ok: true; id: string } | { ok: false; retryAfterSeconds: number };

/**
 * Asks for an export of the account's data: a job on the queue, unless one was asked for within the
 * hour. `origin`: the site asked on, for the link in the mail sent when the file is ready.
 */
export async function requestExport(deps: { db: Db; queue: Queue; origin?: string }, userId: string, now = Date.now()): Promise<ExportRequest> {
  const counted = await countEvent(deps.db, allowanceKey(userId), DATA_EXPORT.perUser.windowMs, now);
  if (counted.count > DATA_EXPORT.perUser.limit) return { ok: false, retryAfterSeconds: secondsUntil(counted.expiresAt, now) };
  const id = crypto.randomUUID();
  await deps.db.insert(exportsTable).values({ id, userId, status: "pending", createdAt: now });
  await enqueue(deps.queue, { type: "account.export", exportId: id, userId, ...(deps.origin ? { origin: deps.origin } : {}) });
  log.info("data_export_requested", { exportId: id });
  return { ok: true, id };
}

export type ExportView = {
  id: string;
  status: "pending" | "ready" | "failed" | "expired";
  createdAt: number;
  expiresAt: number | null;
  byteSize: number | null;
};

/** The account's latest exports for the profile's "Your data" card, newest first. */
export async function listExports(db: Db, userId: string, now = Date.now()): Promise<ExportView[]> {
  const rows = await db.select().from(exportsTable).where(eq(exportsTable.userId, userId)).orderBy(desc(exportsTable.createdAt)).limit(DATA_EXPORT.listed);
  return rows.map((r) => ({
    id: r.id,
    status: r.status === "ready" && r.expiresAt !== null && r.expiresAt <= now ? "expired" : r.status,
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
    byteSize: r.byteSize,
  }));
}

/**
 * The consumer's half: gathers the data, writes the file, marks the export ready and mails its owner
 * (the account's own, confirmed address; our words, and no link to the file). The mail goes once:
 * a redelivered message finds the row ready and stops at the top.
 */
export async function buildExport(
  deps: { db: Db; bucket: R2Bucket; ledgers: LedgerNamespace; env: StripeConfig; queue: Queue },
  message: AccountExportMessage,
) {
  const row = await deps.db.query.dataExports.findFirst({ where: and(eq(exportsTable.id, message.exportId), eq(exportsTable.userId, message.userId)) });
  // Done already (a redelivered message), or the account was deleted meanwhile.
  if (row?.status !== "pending") return;
  const user = await deps.db.query.users.findFirst({ where: eq(schema.users.id, message.userId), columns: { id: true, email: true } });
  if (!user) return;
  const now = Date.now();
  const body = JSON.stringify(await gatherAccountData(deps, user, now), null, 2);
  const bytes = new TextEncoder().encode(body);
  const key = exportObjectKey(user.id, row.id);
  await deps.bucket.put(key, bytes, { httpMetadata: { contentType: "application/json; charset=utf-8" } });
  // Marking the row ready is the check that it still exists: the account may have been deleted
  // while its data was gathered (its deletion emptied exports/<userId>/ before this file was
  // written, and took the row with it), and then the file would have no owner and no expiry.
  const marked = await deps.db
    .update(exportsTable)
    .set({ status: "ready", byteSize: bytes.byteLength, readyAt: now, expiresAt: now + DATA_EXPORT.linkTtlMs })
    .where(and(eq(exportsTable.id, row.id), eq(exportsTable.userId, user.id)))
    .returning({ id: exportsTable.id });
  if (marked.length === 0) {
    await deps.bucket.delete(key);
    log.info("data_export_abandoned", { exportId: row.id });
    return;
  }
  log.info("data_export_ready", { exportId: row.id, bytes: bytes.byteLength });
  const yourData = message.origin ? new URL("/dashboard/profile#your-data", message.origin).toString() : null;
  await enqueueMail(deps.queue, dataExportReadyMail(user.email, yourData));
}

/**
 * A job whose message was dead-lettered (its retries used up): the export ends "failed" instead of
 * "being prepared" for ever, a file it may have written before failing goes, and the hour's
 * allowance is given back, since the failure was ours: the user may ask again at once.
 */
export async function failExport(deps: { db: Db; bucket: R2Bucket }, message: AccountExportMessage): Promise<void> {
  const failed = await deps.db
    .update(exportsTable)
    .set({ status: "failed" })
    .where(and(eq(exportsTable.id, message.exportId), eq(exportsTable.userId, message.userId), eq(exportsTable.status, "pending")))
    .returning({ id: exportsTable.id });
  // Ready already (a late success), or gone with its account: nothing to undo.
  if (failed.length === 0) return;
  await Promise.all([deps.bucket.delete(exportObjectKey(message.userId, message.exportId)), clearCounter(deps.db, allowanceKey(message.userId))]);
  log.info("data_export_failed", { exportId: message.exportId });
}

/**
 * The hourly cron: deletes the files of exports whose link has expired and marks them "expired", a
 * page at a time. The file goes first, so a failed delete leaves the row to be swept next hour.
 */
export async function sweepExpiredExports(deps: { db: Db; bucket: R2Bucket }, now = Date.now()): Promise<number> {
  let swept = 0;
  for (;;) {
    const due = await deps.db
      .select({ id: exportsTable.id, userId: exportsTable.userId })
      .from(exportsTable)
      .where(and(eq(exportsTable.status, "ready"), lte(exportsTable.expiresAt, now)))
      .limit(DATA_EXPORT.sweepPage);
    if (due.length === 0) return swept;
    await deps.bucket.delete(due.map((row) => exportObjectKey(row.userId, row.id)));
    await deps.db
      .update(exportsTable)
      .set({ status: "expired" })
      .where(
        and(
          inArray(
            exportsTable.id,
            due.map((row) => row.id),
          ),
          eq(exportsTable.status, "ready"),
        ),
      );
    swept += due.length;
    if (due.length < DATA_EXPORT.sweepPage) return swept;
  }
}

/**
 * The hourly cron's other sweep: deletes the files under exports/ that have no data_exports row.
 * A build checks its own row after writing (buildExport), but a deletion can still leave a file
 * behind: one whose rows went after the build marked its row ready (the deletion empties R2
 * before it deletes rows), or a build stopped between writing and checking. Returns how many went.
 *
 * A row is written before its job is queued and its id is never used again, so a file whose row is
 * missing now has lost it for good, whatever its age. Files younger than DATA_EXPORT.orphanGraceMs
 * are left alone all the same: their build may be checking its row this moment and will remove
 * its own file, and the sweep must not depend on every writer, now or later, putting the row
 * first to leave an export being written alone. An orphan younger than that goes next hour.
 */
export async function sweepOrphanedExports(deps: { db: Db; bucket: R2Bucket }, now = Date.now()): Promise<number> {
  let removed = 0;
  let cursor: string | undefined;
  do {
    const page = await deps.bucket.list({ prefix: EXPORTS_PREFIX, cursor, limit: DATA_EXPORT.orphanListPage });
    const settled = page.objects.filter((object) => now - object.uploaded.getTime() >= DATA_EXPORT.orphanGraceMs).map((object) => object.key);
    const orphans = await withoutRow(deps.db, settled);
    if (orphans.length > 0) await deps.bucket.delete(orphans);
    removed += orphans.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return removed;
}

/** The keys, of those given, that are no export's file: their ids looked up a chunk per statement, in one batch. */
async function withoutRow(db: Db, keys: string[]): Promise<string[]> {
  // A key not of the exports' form is no export's file either.
  const ids = keys.flatMap((key) => {
    const id = EXPORT_KEY.exec(key)?.[2];
    return id ? [id] : [];
  });
  const [first, ...rest] = chunks(ids, DATA_EXPORT.sweepPage).map((chunk) =>
    db.select({ id: exportsTable.id, userId: exportsTable.userId }).from(exportsTable).where(inArray(exportsTable.id, chunk)),
  );
  const owned = new Set<string>();
  if (first) for (const rows of await db.batch([first, ...rest])) for (const row of rows) owned.add(exportObjectKey(row.userId, row.id));
  return keys.filter((key) => !owned.has(key));
}

/** A ready, unexpired export of this user as a download; null for anything else (another user's id included). */
export async function exportFile(deps: { db: Db; bucket: R2Bucket }, userId: string, id: string, now = Date.now()): Promise<Response | null> {
  const row = await deps.db.query.dataExports.findFirst({ where: and(eq(exportsTable.id, id), eq(exportsTable.userId, userId)) });
  if (row?.status !== "ready" || row.expiresAt === null || row.expiresAt <= now) return null;
  const object = await deps.bucket.get(exportObjectKey(userId, id));
  if (!object) return null;
  const day = new Date(row.createdAt).toISOString().slice(0, 10);
  return new Response(object.body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="modelify-data-${day}.json"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
