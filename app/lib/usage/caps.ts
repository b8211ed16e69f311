// Hard caps (issue 49, ADR 0032) without I/O: which caps an account has, when each starts again,
// and how the API and the pages write a cap's state. The decision itself is the ledger's
// (ledger/caps.ts), one claim at a time.
import { isoInZone } from "../time-zone";
import { addDays, dayKey, dayStart, startOfNextMonth } from "./dates";

/**
 * The account's monthly and daily budgets, and caps of one model or one device key (monthly); in a
 * team's ledger (ADR 0039), the team's budgets and one member's monthly cap.
 */
export type CapKind = "monthly" | "daily" | "model" | "device" | "member";
type CapModel = { name: string; provider: string };

/** One hard cap as the ledger applies it: its limit in micro-dollars, and what it covers. */
export type HardCap = { kind: CapKind; limitMicros: number; model?: CapModel; deviceId?: string; memberId?: string };

/** What a claim says of the call it asks for: its estimated cost, model and device key (each may be unknown). */
export type ClaimTarget = { estimateMicros: number; model: CapModel | null; deviceId: string | null; memberId?: string | null };

/**
 * A cap at an instant: the period's spend (as `spend()` reads it, in the account's zone), what
 * granted claims still hold against it, and when the period starts again (epoch ms).
 */
export type CapState = HardCap & { spentMicros: number; reservedMicros: number; resetsAt: number; reached: boolean };

/** A cap of a single model or device, as D1 keeps it (budget_caps). */
export type CapRow = { kind: "model" | "device"; modelName: string | null; modelProvider: string | null; deviceId: string | null; limitUsd: number };

const micros = (usd: number) => Math.round(usd * 1_000_000);

/** The hard caps in effect: a budget marked as a hard cap (and above 0), and every single cap. */
type CappedBudget = { monthlyBudget: number; dailyBudget: number; monthlyHardCap: boolean; dailyHardCap: boolean };

export function hardCapsOf(budget: CappedBudget, rows: CapRow[]): HardCap[] {
  const caps: HardCap[] = [];
  if (budget.monthlyHardCap && budget.monthlyBudget > 0) caps.push({ kind: "monthly", limitMicros: micros(budget.monthlyBudget) });
  if (budget.dailyHardCap && budget.dailyBudget > 0) caps.push({ kind: "daily", limitMicros: micros(budget.dailyBudget) });
  for (const r of rows) {
    if (r.kind === "model" && r.modelName !== null && r.modelProvider !== null) {
      caps.push({ kind: "model", limitMicros: micros(r.limitUsd), model: { name: r.modelName, provider: r.modelProvider } });
    } else if (r.kind === "device" && r.deviceId !== null) {
      caps.push({ kind: "device", limitMicros: micros(r.limitUsd), deviceId: r.deviceId });
    }
  }
  return caps;
}

/** When a cap's period starts again: the account's next midnight (daily), else its next 1st (ADR 0030). */
export function capResetAt(kind: CapKind, now: number, zone: string): number {
  return kind === "daily" ? dayStart(addDays(dayKey(now, zone), 1), zone) : startOfNextMonth(now, zone);
}

/** Whether a cap covers a claim: the budgets cover every call, a model's or device's cap only its own. */
function capCovers(cap: HardCap, target: ClaimTarget): boolean {
  if (cap.kind === "model") return target.model !== null && target.model.name === cap.model?.name && target.model.provider === cap.model?.provider;
  if (cap.kind === "device") return target.deviceId !== null && target.deviceId === cap.deviceId;
  if (cap.kind === "member") return !!target.memberId && target.memberId === cap.memberId;
  return true;
}

/**
 * Whether a claim fits under a cap: nothing may be left to spend at the cap itself, and the
 * claim's estimate must fit in what is left (an estimate of 0 only needs something left).
 */
function capFits(state: CapState, estimateMicros: number): boolean {
  const held = state.spentMicros + state.reservedMicros;
  return held < state.limitMicros && held + estimateMicros <= state.limitMicros;
}

/**
 * The cap that refuses a claim, or null: of the covering caps it does not fit, the one that starts
 * again last (so Retry-After is when every refusing cap has started again).
 */
export function refusingCap(states: CapState[], target: ClaimTarget): CapState | null {
  let refusing: CapState | null = null;
  for (const s of states) {
    if (!capCovers(s, target) || capFits(s, target.estimateMicros)) continue;
    if (refusing === null || s.resetsAt > refusing.resetsAt) refusing = s;
  }
  return refusing;
}

/** A cap's state as the API writes it: dollars, the reset in the account's zone (ISO with its offset). */
export type CapEntitlement = {
  kind: CapKind;
  limit_usd: number;
  spent_usd: number;
  reserved_usd: number;
  reached: boolean;
  resets_at: string;
  model?: string;
  provider?: string;
  device_id?: string;
  /** A member's cap in a team's ledger (ADR 0039): the member's account id. */
  member_id?: string;
  /** A team's cap (ADR 0039): the team's slug. */
  team?: string;
};

export function capEntitlement(s: CapState, zone: string): CapEntitlement {
  return {
    kind: s.kind,
    limit_usd: s.limitMicros / 1e6,
    spent_usd: s.spentMicros / 1e6,
    reserved_usd: s.reservedMicros / 1e6,
    reached: s.reached,
    resets_at: isoInZone(s.resetsAt, zone),
    ...(s.model ? { model: s.model.name, provider: s.model.provider } : {}),
    ...(s.deviceId ? { device_id: s.deviceId } : {}),
    ...(s.memberId ? { member_id: s.memberId } : {}),
  };
}

/** The caps an account reached that refuse every call (the monthly and daily budgets). */
export function accountWideReached(states: CapState[]): CapState[] {
  return states.filter((s) => s.reached && (s.kind === "monthly" || s.kind === "daily"));
}

/**
 * A cap as the pages show it: `id` is a model's or device's cap row (null for the monthly and daily
 * budgets), `label` what it covers; figures in dollars, the reset as epoch ms.
 */
export type CapLine = {
  id: string | null;
  kind: CapKind;
  label: string;
  limitUsd: number;
  spentUsd: number;
  reached: boolean;
  resetsAt: number;
};

const capKey = (c: HardCap) => `${c.kind}:${c.model?.provider ?? ""}/${c.model?.name ?? ""}:${c.deviceId ?? ""}`;
const rowKey = (r: CapRow) => `${r.kind}:${r.modelProvider ?? ""}/${r.modelName ?? ""}:${r.deviceId ?? ""}`;

/** The pages' lines of the caps in effect: the states the ledger read, each with its row's id and label. */
export function capLines(states: CapState[], rows: Array<CapRow & { id: string; label: string }>): CapLine[] {
  const byKey = new Map(rows.map((r) => [rowKey(r), r]));
  return states.map((s) => {
    const row = byKey.get(capKey(s));
    return {
      id: row?.id ?? null,
      kind: s.kind,
      label: row?.label ?? (s.kind === "monthly" ? "Monthly budget" : "Daily budget"),
      limitUsd: s.limitMicros / 1e6,
      spentUsd: (s.spentMicros + s.reservedMicros) / 1e6,
      reached: s.reached,
      resetsAt: s.resetsAt,
    };
  });
}
