// The admin side of the early-access programme (ADR 0012): the
// waitlist and key lists, granting (one entry or the top N), unassigned keys, revoking, and the
// statistics. Every change writes the audit log with the admin as actor, as the billing tools do.
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lte, gt, or, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { EARLY_ACCESS, MS } from "../constants";
import type { Db } from "../db.server";
import { chunks, schema } from "../db.server";
import { enqueueMail } from "../mail/mail.server";
import { enqueue, type MailMessage } from "../queue";
import { formatActivationKey, type KeyState, keyState } from "./keys";
import { activationKeyRows, type CreatedKey, createActivationKeys, keyInserts, revokeActivationKey } from "./keys.server";
import { earlyAccessKeyMail } from "./mail";

const w = schema.waitlist;
const k = schema.activationKeys;
const WEEK = 7 * MS.DAY;
/** Weeks of activations the statistics chart shows. */
const ACTIVATION_WEEKS = 8;

export type AdminDeps = { db: Db; queue: Queue; origin: string };
export type AdminOutcome = { ok: true; message: string } | { ok: false; status: 404 | 409; message: string };

/** The link in the key's e-mail: /activate fills the form with the key. */
function activationLink(origin: string, key: string): string {
  return `${origin}/activate?key=${formatActivationKey(key)}`;
}

function auditInsert(db: Db, actorId: string, action: string, details: Record<string, unknown>, now: number) {
  return db.insert(schema.auditLog).values({ id: crypto.randomUUID(), actorUserId: actorId, targetUserId: null, action, details, createdAt: now });
}

/** `%` and `_` typed into the search box are searched for, not wildcards. */
function contains(column: SQL | typeof w.email, q: string): SQL {
  return sql`${column} LIKE ${`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} ESCAPE '\\'`;
}

function pageOf(total: number, page: number) {
  const pageCount = Math.max(1, Math.ceil(total / EARLY_ACCESS.pageSize));
  const current = Math.min(Math.max(1, page), pageCount);
  return { total, page: current, pageCount, offset: (current - 1) * EARLY_ACCESS.pageSize };
}

// ---- Lists ------------------------------------------------------------------------------------

export type WaitlistView = "waiting" | "all";
export type WaitlistRow = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  priorityScore: number;
  granted: boolean;
  grantedAt: number | null;
  createdAt: number;
};
export type Paged<T> = { rows: T[]; total: number; page: number; pageCount: number };

/** "waiting": not yet granted, highest priority first, then who joined first; "all": newest first. */
export async function listWaitlist(db: Db, input: { view: WaitlistView; q: string; page: number }): Promise<Paged<WaitlistRow>> {
  const name = sql`coalesce(${w.firstName}, '') || ' ' || coalesce(${w.lastName}, '')`;
  const where = and(
    input.view === "waiting" ? eq(w.earlyAccessGranted, false) : undefined,
    input.q ? or(contains(w.email, input.q), contains(name, input.q), contains(sql`coalesce(${w.company}, '')`, input.q)) : undefined,
  );
  const [{ n }] = (await db.select({ n: count() }).from(w).where(where)) as [{ n: number }];
  const paging = pageOf(n, input.page);
  const rows = await db
    .select({
      id: w.id,
      email: w.email,
      firstName: w.firstName,
      lastName: w.lastName,
      company: w.company,
      priorityScore: w.priorityScore,
      granted: w.earlyAccessGranted,
      grantedAt: w.grantedAt,
      createdAt: w.createdAt,
    })
    .from(w)
    .where(where)
    .orderBy(...(input.view === "waiting" ? [desc(w.priorityScore), asc(w.createdAt), asc(w.id)] : [desc(w.createdAt), desc(w.id)]))
    .limit(EARLY_ACCESS.pageSize)
    .offset(paging.offset);
  return { rows, total: paging.total, page: paging.page, pageCount: paging.pageCount };
}

export { KEY_STATES, type KeyState } from "./keys";
export type KeyRow = {
  id: string;
  last4: string;
  state: KeyState;
  sentTo: string | null;
  usedBy: string | null;
  usedAt: number | null;
  expiresAt: number;
  revokedAt: number | null;
  createdAt: number;
};

function stateWhere(state: KeyState, now: number): SQL | undefined {
  switch (state) {
    case "revoked":
      return isNotNull(k.revokedAt);
    case "used":
      return eq(k.isUsed, true);
    case "expired":
      return and(eq(k.isUsed, false), isNull(k.revokedAt), lte(k.expiresAt, now));
    case "unused":
      return and(eq(k.isUsed, false), isNull(k.revokedAt), gt(k.expiresAt, now));
  }
}

/** A search for a key's last four characters, as shown masked ("••••-5678" or "5678"), or null. */
function last4Query(q: string): string | null {
  const compact = q.replace(/[\s•*-]/g, "").toUpperCase();
  return /^[A-Z0-9]{4}$/.test(compact) ? compact : null;
}

/** All keys, newest first; searchable by the recipient's or redeemer's e-mail and by the last four characters. */
export async function listKeys(db: Db, input: { state: KeyState | "all"; q: string; page: number }, now = Date.now()): Promise<Paged<KeyRow>> {
  const last4 = input.q ? last4Query(input.q) : null;
  const where = and(
    input.state === "all" ? undefined : stateWhere(input.state, now),
    input.q
      ? or(
          last4 ? eq(k.codeLast4, last4) : undefined,
          contains(sql`coalesce(${k.sentTo}, '')`, input.q),
          contains(sql`coalesce(${schema.users.email}, '')`, input.q),
        )
      : undefined,
  );
  const [{ n }] = (await db.select({ n: count() }).from(k).leftJoin(schema.users, eq(schema.users.id, k.userId)).where(where)) as [{ n: number }];
  const paging = pageOf(n, input.page);
  const rows = await db
    .select({
      id: k.id,
      last4: k.codeLast4,
      isUsed: k.isUsed,
      sentTo: k.sentTo,
      usedBy: schema.users.email,
      usedAt: k.usedAt,
      expiresAt: k.expiresAt,
      revokedAt: k.revokedAt,
      createdAt: k.createdAt,
    })
    .from(k)
    .leftJoin(schema.users, eq(schema.users.id, k.userId))
    .where(where)
    .orderBy(desc(k.createdAt), desc(k.id))
    .limit(EARLY_ACCESS.pageSize)
    .offset(paging.offset);
  return {
    rows: rows.map(({ isUsed, ...row }) => ({ ...row, state: keyState({ isUsed, revokedAt: row.revokedAt, expiresAt: row.expiresAt }, now) })),
    total: paging.total,
    page: paging.page,
    pageCount: paging.pageCount,
  };
}

// ---- Statistics ---------------------------------------------------------------------------------

export type EarlyAccessStats = {
  waitlistSize: number;
  granted: number;
  keysCreated: number;
  keysUsed: number;
  keysExpired: number;
  keysRevoked: number;
  /** Used ÷ created, in percent (0 when no key exists). */
  redemptionRate: number;
  /** Keys redeemed per ISO week (Monday to Sunday, UTC), oldest first, the current week last. */
  activationsPerWeek: Array<{ weekStart: number; count: number }>;
};

/** Monday 00:00 UTC of the ISO week holding `ms`. */
function isoWeekStart(ms: number): number {
  const day = new Date(ms);
  const midnight = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
  return midnight - ((day.getUTCDay() + 6) % 7) * MS.DAY;
}

/** Three aggregate queries in one round trip; no row is loaded. */
export async function earlyAccessStats(db: Db, now = Date.now()): Promise<EarlyAccessStats> {
  const first = isoWeekStart(now) - (ACTIVATION_WEEKS - 1) * WEEK;
  // D1 may bind numbers as REAL: the cast makes the division land on whole weeks.
  const weekIndex = sql<number>`CAST((${k.usedAt} - ${first}) / ${WEEK} AS INTEGER)`;
  const [[waitlist], [keys], weeks] = await db.batch([
    db.select({ size: count(), granted: sql<number>`coalesce(sum(${w.earlyAccessGranted}), 0)` }).from(w),
    db
      .select({
        created: count(),
        used: sql<number>`coalesce(sum(${k.isUsed}), 0)`,
        expired: sql<number>`coalesce(sum(CASE WHEN ${k.isUsed} = 0 AND ${k.revokedAt} IS NULL AND ${k.expiresAt} <= ${now} THEN 1 ELSE 0 END), 0)`,
        revoked: sql<number>`coalesce(sum(CASE WHEN ${k.revokedAt} IS NOT NULL THEN 1 ELSE 0 END), 0)`,
      })
      .from(k),
    db
      .select({ week: weekIndex, n: count() })
      .from(k)
      .where(and(eq(k.isUsed, true), sql`${k.usedAt} >= ${first}`))
      .groupBy(weekIndex),
  ]);
  const perWeek = new Map(weeks.map((r) => [Number(r.week), r.n]));
  const created = keys?.created ?? 0;
  const used = Number(keys?.used ?? 0);
  return {
    waitlistSize: waitlist?.size ?? 0,
    granted: Number(waitlist?.granted ?? 0),
    keysCreated: created,
    keysUsed: used,
    keysExpired: Number(keys?.expired ?? 0),
    keysRevoked: Number(keys?.revoked ?? 0),
    redemptionRate: created ? Math.round((used / created) * 1000) / 10 : 0,
    activationsPerWeek: Array.from({ length: ACTIVATION_WEEKS }, (_, i) => ({ weekStart: first + i * WEEK, count: perWeek.get(i) ?? 0 })),
  };
}

// ---- Actions ----------------------------------------------------------------------------------

/**
 * Grants early access to one waitlist entry: a key is created for it and mailed with its link.
 * The conditional UPDATE decides first, so two admins clicking at once create one key and one mail.
 */
export async function grantEarlyAccess(deps: AdminDeps, input: { adminId: string; waitlistId: string }, now = Date.now()): Promise<AdminOutcome> {
  const { db } = deps;
  const [entry] = await db
    .update(w)
    .set({ earlyAccessGranted: true, grantedAt: now })
    .where(and(eq(w.id, input.waitlistId), eq(w.earlyAccessGranted, false)))
    .returning({ id: w.id, email: w.email });
  if (!entry) {
    const exists = await db.query.waitlist.findFirst({ where: eq(w.id, input.waitlistId), columns: { email: true } });
    return exists
      ? { ok: false, status: 409, message: `${exists.email} already has early access.` }
      : { ok: false, status: 404, message: "That waitlist entry does not exist." };
  }
  let created: CreatedKey | undefined;
  try {
    [created] = await createActivationKeys(db, { count: 1, createdBy: input.adminId, waitlistId: entry.id, sentTo: entry.email }, now);
    const key = created!;
    await enqueueMail(deps.queue, earlyAccessKeyMail(entry.email, formatActivationKey(key.key), activationLink(deps.origin, key.key)));
  } catch (error) {
    // Nothing was sent: the entry goes back to waiting and its key (if any) is removed.
    await db.batch([
      db.delete(k).where(eq(k.id, created?.id ?? "")),
      db
        .update(w)
        .set({ earlyAccessGranted: false, grantedAt: null })
        .where(and(eq(w.id, entry.id), eq(w.grantedAt, now))),
    ]);
    throw error;
  }
  await auditInsert(
    db,
    input.adminId,
    "early_access.grant",
    { waitlistId: entry.id, email: entry.email, keyId: created!.id, keyLast4: created!.key.slice(-4) },
    now,
  );
  return { ok: true, message: `Early access granted: the key was e-mailed to ${entry.email}.` };
}

/** Ids per `IN (…)`, under D1's 100 bound parameters. */
const IDS_PER_STATEMENT = 90;

/** Grants the `count` highest-priority waiting entries at once: one batch of keys, one audit row. */
export async function grantTopEntries(deps: AdminDeps, input: { adminId: string; count: number }, now = Date.now()): Promise<AdminOutcome> {
  const { db } = deps;
  // One statement picks and claims the entries, so a parallel grant can never take the same ones.
  const top = db
    .select({ id: w.id })
    .from(w)
    .where(eq(w.earlyAccessGranted, false))
    .orderBy(desc(w.priorityScore), asc(w.createdAt), asc(w.id))
    .limit(input.count);
  const entries = await db
    .update(w)
    .set({ earlyAccessGranted: true, grantedAt: now })
    .where(and(inArray(w.id, top), eq(w.earlyAccessGranted, false)))
    .returning({ id: w.id, email: w.email });
  if (entries.length === 0) return { ok: false, status: 409, message: "Nobody is waiting for early access." };

  const { created, rows } = await activationKeyRows(
    entries.map((e) => ({ waitlistId: e.id, sentTo: e.email })),
    { createdBy: input.adminId },
    now,
  );
  const statements: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] = [
    auditInsert(db, input.adminId, "early_access.grant_bulk", { requested: input.count, granted: entries.length, waitlistIds: entries.map((e) => e.id) }, now),
    ...keyInserts(db, rows),
  ];
  try {
    await db.batch(statements);
  } catch (error) {
    // The batch is one transaction: no key exists, so the entries go back to waiting.
    await releaseClaims(
      db,
      entries.map((e) => e.id),
      now,
    );
    throw error;
  }
  const mails: MailMessage[] = entries.map((entry, i) => ({
    type: "mail.send",
    id: crypto.randomUUID(),
    ...earlyAccessKeyMail(entry.email, formatActivationKey(created[i]!.key), activationLink(deps.origin, created[i]!.key)),
  }));
  await enqueue(deps.queue, mails);
  const n = entries.length;
  return {
    ok: true,
    message: n < input.count ? `Early access granted to ${n} (everyone who was waiting); keys e-mailed.` : `Early access granted to ${n}; keys e-mailed.`,
  };
}

async function releaseClaims(db: Db, ids: string[], grantedAt: number) {
  const statements: BatchItem<"sqlite">[] = chunks(ids, IDS_PER_STATEMENT).map((group) =>
    db
      .update(w)
      .set({ earlyAccessGranted: false, grantedAt: null })
      .where(and(inArray(w.id, group), eq(w.grantedAt, grantedAt))),
  );
  if (statements.length) await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}

/** Keys for no one in particular (handed out by hand): the plaintext exists only in the answer. */
export async function createUnassignedKeys(db: Db, input: { adminId: string; count: number }, now = Date.now()): Promise<CreatedKey[]> {
  const created = await createActivationKeys(db, { count: input.count, createdBy: input.adminId }, now);
  await auditInsert(db, input.adminId, "early_access.keys_create", { count: created.length, keyIds: created.map((c) => c.id) }, now);
  return created;
}

/** The CSV of freshly created keys: `key,expires_at`, keys as 4-4-4-4, times as ISO 8601 (UTC). */
export function keysCsv(keys: CreatedKey[]): string {
  return `${["key,expires_at", ...keys.map((c) => `${formatActivationKey(c.key)},${new Date(c.expiresAt).toISOString()}`)].join("\r\n")}\r\n`;
}

/** Revokes an unused key; a used key keeps the access it gave. */
export async function revokeKey(db: Db, input: { adminId: string; keyId: string }, now = Date.now()): Promise<AdminOutcome> {
  if (!(await revokeActivationKey(db, input.keyId, input.adminId, now))) {
    const row = await db.query.activationKeys.findFirst({ where: eq(k.id, input.keyId), columns: { isUsed: true, revokedAt: true } });
    if (!row) return { ok: false, status: 404, message: "That key does not exist." };
    return { ok: false, status: 409, message: row.isUsed ? "A used key cannot be revoked." : "That key is already revoked." };
  }
  const row = await db.query.activationKeys.findFirst({ where: eq(k.id, input.keyId), columns: { codeLast4: true, sentTo: true } });
  await auditInsert(db, input.adminId, "early_access.key_revoke", { keyId: input.keyId, keyLast4: row?.codeLast4, sentTo: row?.sentTo ?? null }, now);
  return { ok: true, message: `Key ending ${row?.codeLast4 ?? ""} revoked.` };
}
