// Hard caps in D1 (ADR 0032): the budget's two switches (budgets) and the caps of single models and
// device keys (budget_caps), each read and written only for its own account. What a cap allows is
// decided in the account's ledger (ledger/caps.ts).
import { and, asc, eq, gt, isNotNull, isNull } from "drizzle-orm";
import type { AccountRef, ZonedAccount } from "../auth/session.server";
import { HARD_CAPS } from "../constants";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import type { BudgetInEffect } from "./budget";
import { budgetOf } from "./budget.server";
import { type CapLine, capLines, type CapRow, type CapState, type HardCap, hardCapsOf } from "./caps";
import { ledgerFor, type LedgerNamespace } from "./ledger/api";

/** A cap of one model or device as the budget tab lists it. */
export type CapListing = CapRow & { id: string; label: string };

/** The account's caps of single models and devices, oldest first, with the device keys' names. */
async function capRowsOf(db: Db, userId: string): Promise<CapListing[]> {
  const rows = await db
    .select({
      id: schema.budgetCaps.id,
      kind: schema.budgetCaps.kind,
      modelName: schema.budgetCaps.modelName,
      modelProvider: schema.budgetCaps.modelProvider,
      deviceId: schema.budgetCaps.deviceId,
      limitUsd: schema.budgetCaps.limitUsd,
      deviceName: schema.sessions.deviceName,
    })
    .from(schema.budgetCaps)
    .leftJoin(schema.sessions, and(eq(schema.sessions.id, schema.budgetCaps.deviceId), eq(schema.sessions.userId, userId)))
    .where(eq(schema.budgetCaps.userId, userId))
    .orderBy(asc(schema.budgetCaps.createdAt), asc(schema.budgetCaps.id));
  return rows.map(({ deviceName, ...r }) => ({
    ...r,
    label: r.kind === "model" ? `${r.modelName} (${r.modelProvider})` : (deviceName ?? "A device key that no longer exists"),
  }));
}

/** The account's budget and every hard cap in effect (both reads at once). */
export async function accountCaps(db: Db, account: AccountRef): Promise<{ budget: BudgetInEffect; rows: CapListing[]; caps: HardCap[] }> {
  // The session's statement counted the caps: an account without any reads none.
  const none = account.accountRows?.capCount === 0;
  const [budget, rows] = await Promise.all([budgetOf(db, account), none ? [] : capRowsOf(db, account.id)]);
  return { budget, rows, caps: hardCapsOf(budget, rows) };
}

/** A device key the account may cap: a live desktop session the app named. */
export type DeviceChoice = { id: string; name: string };

export async function deviceChoices(db: Db, userId: string, now = Date.now()): Promise<DeviceChoice[]> {
  const rows = await db
    .select({ id: schema.sessions.id, name: schema.sessions.deviceName })
    .from(schema.sessions)
    .where(
      and(
        eq(schema.sessions.userId, userId),
        eq(schema.sessions.client, "desktop"),
        isNotNull(schema.sessions.deviceName),
        isNull(schema.sessions.revokedAt),
        gt(schema.sessions.expiresAt, now),
      ),
    )
    .orderBy(asc(schema.sessions.deviceName));
  return rows.map((r) => ({ id: r.id, name: r.name ?? "" }));
}

/** A cap's target as the form sends it: "model:<provider>/<name>" (URI-encoded parts) or "device:<id>". */
export function modelTarget(provider: string, name: string): string {
  return `model:${encodeURIComponent(provider)}/${encodeURIComponent(name)}`;
}

export type NewCap = { kind: "model"; model: { name: string; provider: string } } | { kind: "device"; deviceId: string };

// One statement, so two saves at once cannot both pass the count: the row is written only while
// the account has fewer than the most caps besides this target's own.
const SAVE_CAP = `INSERT INTO budget_caps (id, user_id, kind, target, model_name, model_provider, device_id, limit_usd, created_at, updated_at)
  SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9
  WHERE (SELECT count(*) FROM budget_caps WHERE user_id = ?2 AND target <> ?4) < ?10
  ON CONFLICT (user_id, target) DO UPDATE SET limit_usd = excluded.limit_usd, updated_at = excluded.updated_at`;

/**
 * Sets the cap of a target (a second save of the same model or device changes its limit). Refused
 * when the account already has HARD_CAPS.maxPerAccount others. Returns whether it was saved.
 */
export async function saveCap(db: Db, userId: string, cap: NewCap, limitUsd: number, now = Date.now()): Promise<boolean> {
  const target = cap.kind === "model" ? modelTarget(cap.model.provider, cap.model.name) : `device:${cap.deviceId}`;
  const result = await db.$client
    .prepare(SAVE_CAP)
    .bind(
      crypto.randomUUID(),
      userId,
      cap.kind,
      target,
      cap.kind === "model" ? cap.model.name : null,
      cap.kind === "model" ? cap.model.provider : null,
      cap.kind === "device" ? cap.deviceId : null,
      limitUsd,
      now,
      HARD_CAPS.maxPerAccount,
    )
    .run();
  return result.meta.changes > 0;
}

/** Removes one of the account's caps; another account's id removes nothing. */
export async function removeCap(db: Db, userId: string, id: string): Promise<boolean> {
  const removed = await db
    .delete(schema.budgetCaps)
    .where(and(eq(schema.budgetCaps.id, id), eq(schema.budgetCaps.userId, userId)))
    .returning({ id: schema.budgetCaps.id });
  return removed.length > 0;
}

/**
 * The caps' lines for a page (the usage tab's "cap reached" notice): D1's caps, then one ledger
 * read of their state, only when the account has any (none read at all when the session's
 * statement says there are none).
 */
export async function capLinesOf({ db, ledgers }: { db: Db; ledgers: LedgerNamespace }, account: ZonedAccount, now = Date.now()) {
  // The session's statement already read the budget and counted the caps: most accounts have none,
  // and their pages make no read for them.
  const known = account.accountRows;
  if (known && known.capCount === 0 && !known.budget?.monthlyHardCap && !known.budget?.dailyHardCap)
    return { lines: [] as CapLine[], states: [] as CapState[] };
  const { caps, rows } = await accountCaps(db, account);
  if (caps.length === 0) return { lines: [] as CapLine[], states: [] as CapState[] };
  const { caps: states = [] } = await ledgerFor(ledgers, account.id).read({ now, zone: account.profile.timeZone, caps });
  return { lines: capLines(states, rows), states };
}
