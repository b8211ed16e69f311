// Hard caps inside an account's ledger (ADR 0032): each cap's spend in its period (the account
// zone's day or month, as the budget tab reads it), what granted claims still hold against it
// (`cap_reservations`), and the reservations a claim makes and its report releases. The object
// runs one call at a time, so a claim decided here sees every claim granted before it.
import { HARD_CAPS } from "../../constants";
import { type CapState, capResetAt, type ClaimTarget, type HardCap } from "../caps";
import { dayKey, monthKey } from "../dates";
import { num, spend } from "./reads";

/**
 * Spend of the cap's period in micro-dollars: the budgets from `spend()`, a model from `daily`, a
 * device from `device_months`, a team member from the member's `day_slices` (ADR 0039).
 */
function spentOn(sql: SqlStorage, cap: HardCap, now: number, zone: string, budgets: { monthMicros: number; dayMicros: number }): number {
  const month = monthKey(now, zone);
  if (cap.kind === "monthly") return budgets.monthMicros;
  if (cap.kind === "daily") return budgets.dayMicros;
  if (cap.kind === "member") {
    return num(
      sql
        .exec(
          `SELECT coalesce(sum(total_cost_micros), 0) AS spent FROM day_slices WHERE member_id = ? AND member_id <> '' AND date >= ?`,
          cap.memberId ?? "",
          `${month}-01`,
        )
        .one().spent,
    );
  }
  if (cap.kind === "model") {
    return num(
      sql
        .exec(
          `SELECT coalesce(sum(total_cost_micros), 0) AS spent FROM daily WHERE date >= ? AND model_name = ? AND model_provider = ?`,
          `${month}-01`,
          cap.model?.name ?? "",
          cap.model?.provider ?? "",
        )
        .one().spent,
    );
  }
  return num(
    sql.exec(`SELECT coalesce(sum(cost_micros), 0) AS spent FROM device_months WHERE month = ? AND device_id = ?`, month, cap.deviceId ?? "").one().spent,
  );
}

/** What open reservations (granted, not reported, not expired) of the cap's period hold against it. */
function reservedOn(sql: SqlStorage, cap: HardCap, now: number, zone: string): number {
  const period = cap.kind === "daily" ? ["day = ?", dayKey(now, zone)] : ["month = ?", monthKey(now, zone)];
  const where = [`expires_at > ?`, period[0]];
  const args: SqlStorageValue[] = [now, period[1]!];
  if (cap.kind === "model") {
    where.push("model_name = ?", "model_provider = ?");
    args.push(cap.model?.name ?? "", cap.model?.provider ?? "");
  } else if (cap.kind === "device") {
    where.push("device_id = ?");
    args.push(cap.deviceId ?? "");
  } else if (cap.kind === "member") {
    where.push("member_id = ?");
    args.push(cap.memberId ?? "");
  }
  return num(sql.exec(`SELECT coalesce(sum(cost_micros), 0) AS held FROM cap_reservations WHERE ${where.join(" AND ")}`, ...args).one().held);
}

/** Every cap's state at `now`, in the ledger's zone. */
export function capStates(sql: SqlStorage, caps: HardCap[], now: number, zone: string): CapState[] {
  if (caps.length === 0) return [];
  const budgets = spend(sql, now, zone);
  return caps.map((cap) => {
    const spentMicros = spentOn(sql, cap, now, zone, budgets);
    const reservedMicros = reservedOn(sql, cap, now, zone);
    return { ...cap, spentMicros, reservedMicros, resetsAt: capResetAt(cap.kind, now, zone), reached: spentMicros + reservedMicros >= cap.limitMicros };
  });
}

/**
 * A granted claim holds its estimate against the caps of its period until its report arrives or
 * HARD_CAPS.reservationTimeoutMs passes. Expired reservations are dropped here, as claims come.
 */
export function reserve(sql: SqlStorage, claimId: string, target: ClaimTarget, now: number, zone: string) {
  sql.exec(`DELETE FROM cap_reservations WHERE expires_at <= ?`, now);
  if (target.estimateMicros <= 0) return;
  sql.exec(
    `INSERT INTO cap_reservations (claim_id, expires_at, cost_micros, day, month, model_name, model_provider, device_id, member_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    claimId,
    now + HARD_CAPS.reservationTimeoutMs,
    target.estimateMicros,
    dayKey(now, zone),
    monthKey(now, zone),
    target.model?.name ?? null,
    target.model?.provider ?? null,
    target.deviceId,
    target.memberId ?? null,
  );
}

/** The reservations of claims whose reports arrived: their cost is now in the spend itself. */
export function release(sql: SqlStorage, claimIds: string[]): number {
  let released = 0;
  for (const id of new Set(claimIds)) released += sql.exec(`DELETE FROM cap_reservations WHERE claim_id = ?`, id).rowsWritten;
  return released;
}
