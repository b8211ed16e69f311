// Creating, redeeming and revoking activation keys. Redeeming is decided by one conditional
// UPDATE in a batch with the profile change, so two users racing for one key get one winner and
// a key is never marked used without the account getting its access (or the other way round).
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { EARLY_ACCESS, MS } from "../constants";
import type { Db } from "../db.server";
import { chunks, schema } from "../db.server";
import { activationKeyHash, generateActivationKey, keyState } from "./keys";

const keys = schema.activationKeys;
const profiles = schema.userProfiles;

export type CreatedKey = { id: string; key: string; expiresAt: number };
type KeyRowInsert = typeof keys.$inferInsert;

/** The profile columns early access is read from. */
export const earlyAccessColumns = { earlyAccessStatus: true, earlyAccessExpiresAt: true } as const;

/**
 * New keys, one per target (a waitlist entry it is mailed to, or nobody): the keys themselves,
 * returned once and never stored, and the rows (hash and last four) to insert.
 */
export async function activationKeyRows(
  targets: Array<{ waitlistId?: string | null; sentTo?: string | null }>,
  input: { createdBy: string | null; validityDays?: number },
  now: number,
): Promise<{ created: CreatedKey[]; rows: KeyRowInsert[] }> {
  const expiresAt = now + (input.validityDays ?? EARLY_ACCESS.keyValidityDays) * MS.DAY;
  const created: CreatedKey[] = [];
  const rows: KeyRowInsert[] = [];
  for (const target of targets) {
    const key = generateActivationKey();
    const id = crypto.randomUUID();
    created.push({ id, key, expiresAt });
    rows.push({
      id,
      codeHash: await activationKeyHash(key),
      codeLast4: key.slice(-4),
      waitlistId: target.waitlistId ?? null,
      createdBy: input.createdBy,
      sentTo: target.sentTo ?? null,
      expiresAt,
      createdAt: now,
    });
  }
  return { created, rows };
}

/** Up to 8 key rows per INSERT: 12 columns each stays under D1's 100 bound parameters. */
const ROWS_PER_INSERT = 8;

/** The INSERT statements for key rows, to run in a batch. */
export function keyInserts(db: Db, rows: KeyRowInsert[]) {
  return chunks(rows, ROWS_PER_INSERT).map((group) => db.insert(keys).values(group));
}

/** Creates `count` keys for one target (or none) and returns them: the only time they are seen. */
export async function createActivationKeys(
  db: Db,
  input: { count: number; createdBy: string | null; waitlistId?: string | null; sentTo?: string | null; validityDays?: number },
  now = Date.now(),
): Promise<CreatedKey[]> {
  const target = { waitlistId: input.waitlistId, sentTo: input.sentTo };
  const { created, rows } = await activationKeyRows(
    Array.from({ length: input.count }, () => target),
    input,
    now,
  );
  const [first, ...rest] = keyInserts(db, rows);
  if (first) await db.batch([first, ...rest]);
  return created;
}

export type RedeemFailure = "unknown" | "used" | "expired" | "revoked" | "alreadyActive";
export type RedeemResult = { ok: true; expiresAt: number } | { ok: false; reason: RedeemFailure };

/**
 * Redeems a normalised key for a user: marks it used and gives the account early access. An
 * account that already has early access keeps its key unspent (checked again inside the claim, so
 * two keys sent at once by one user spend one).
 */
export async function redeemActivationKey(db: Db, userId: string, key: string, now = Date.now()): Promise<RedeemResult> {
  const [row, profile] = await Promise.all([
    db.query.activationKeys.findFirst({ where: eq(keys.codeHash, await activationKeyHash(key)) }),
    db.query.userProfiles.findFirst({ where: eq(profiles.userId, userId), columns: earlyAccessColumns }),
  ]);
  if (hasEarlyAccess(profile, now)) return { ok: false, reason: "alreadyActive" };
  if (!row) return { ok: false, reason: "unknown" };
  const state = keyState(row, now);
  if (state !== "unused") return { ok: false, reason: state };

  const accessUntil = now + EARLY_ACCESS.accessMs;
  const withoutEarlyAccess = sql`EXISTS (SELECT 1 FROM ${profiles} WHERE ${profiles.userId} = ${userId} AND NOT (${profiles.earlyAccessStatus} IS 'active' AND (${profiles.earlyAccessExpiresAt} IS NULL OR ${profiles.earlyAccessExpiresAt} > ${now})))`;
  const [claimed] = await db.batch([
    db
      .update(keys)
      .set({ isUsed: true, usedAt: now, userId })
      .where(and(eq(keys.id, row.id), eq(keys.isUsed, false), isNull(keys.revokedAt), gt(keys.expiresAt, now), withoutEarlyAccess))
      .returning({ id: keys.id }),
    // Only when the statement above claimed the key for this user in this batch.
    db
      .update(profiles)
      .set({ earlyAccessStatus: "active", earlyAccessGrantedAt: now, earlyAccessExpiresAt: accessUntil, updatedAt: now })
      .where(
        and(
          eq(profiles.userId, userId),
          sql`EXISTS (SELECT 1 FROM ${keys} WHERE ${keys.id} = ${row.id} AND ${keys.userId} = ${userId} AND ${keys.usedAt} = ${now})`,
        ),
      ),
  ]);
  if (claimed.length === 0) {
    // Lost the claim: to another redemption, a revocation, the clock, or this account's other key.
    const fresh = await db.query.activationKeys.findFirst({ where: eq(keys.id, row.id) });
    if (!fresh) return { ok: false, reason: "unknown" };
    const state = keyState(fresh, now);
    return { ok: false, reason: state === "unused" ? "alreadyActive" : state };
  }
  return { ok: true, expiresAt: accessUntil };
}

/** Withdraws an unused key; a used one stays as it is (its access was already given). */
export async function revokeActivationKey(db: Db, keyId: string, revokedBy: string, now = Date.now()): Promise<boolean> {
  const rows = await db
    .update(keys)
    .set({ revokedAt: now, revokedBy })
    .where(and(eq(keys.id, keyId), eq(keys.isUsed, false), isNull(keys.revokedAt)))
    .returning({ id: keys.id });
  return rows.length === 1;
}

/** Early access as the profile holds it: active and not past its expiry. */
export function hasEarlyAccess(
  profile: { earlyAccessStatus: string | null; earlyAccessExpiresAt: number | null } | null | undefined,
  now = Date.now(),
): boolean {
  return profile?.earlyAccessStatus === "active" && (profile.earlyAccessExpiresAt === null || profile.earlyAccessExpiresAt > now);
}
