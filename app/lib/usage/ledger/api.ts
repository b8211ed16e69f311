// How the Workers talk to an account's usage ledger (workers/usage-ledger.ts): the RPC methods
// the class offers, and the stub for an account. Pages make one call per page (read with the
// parts they need); the consumer makes one call per account and batch.
import type { BudgetSettings } from "../budget";
import type {
  ClaimInput,
  ClaimResult,
  HealthRule,
  IngestResult,
  LedgerQuery,
  LedgerRead,
  LedgerSecure,
  LedgerUsage,
  LogPage,
  LogQuery,
  ReportDetail,
  SentAlert,
} from "./types";

import type { TeamDetailQuery, TeamDetailRow, TeamQuery, TeamRead } from "./team-reads";

export type ArchiveResult = { months: string[]; rows: number; remaining: number };

export interface UsageLedgerApi {
  /**
   * `importing`: the move of D1's history (rows of any age are stored, no alert is decided).
   * `zone`: the account's time zone as the caller read it (a ledger still on another redraws first).
   * `claimIds`: the claims these reports answer, whose hard-cap reservations end (ADR 0032).
   */
  ingest(input: {
    usage: LedgerUsage[];
    secure: LedgerSecure[];
    budget: BudgetSettings | null;
    now: number;
    importing?: boolean;
    zone?: string;
    claimIds?: string[];
    /** The account's model health rules (D1 alert_rules), decided over each touched model's last hour. */
    rules?: HealthRule[];
  }): Promise<IngestResult>;
  /** Budget alerts the D1-era code sent, so their periods' alerts are not sent again; how many were new. */
  importAlerts(alerts: SentAlert[]): Promise<number>;
  read(query: LedgerQuery): Promise<LedgerRead>;
  /**
   * The account's time zone changed (ADR 0030): days, hours and months are drawn again in it
   * from the ledger's quarter hours, in one transaction. Whether anything was redrawn.
   */
  setZone(zone: string, now: number): Promise<boolean>;
  claim(input: ClaimInput): Promise<ClaimResult>;
  /** Ends the hard-cap reservations of claims granted here whose call another ledger refused (ADR 0039); how many ended. */
  releaseClaims(claimIds: string[]): Promise<number>;
  /** Moves raw rows older than the retention window to R2 (one gzipped NDJSON object per month). */
  archive(now: number, userId: string): Promise<ArchiveResult>;
  /** Every raw report of a month, archived or not (the data export). */
  rawReports(month: string, userId: string): Promise<Array<Record<string, unknown>>>;
  /**
   * A page of an archived month's request log (a UTC month 'YYYY-MM' whose raw reports are in R2),
   * filtered and newest first like `read`'s `log`; `fromMs`/`toMs` narrow it within the month.
   */
  archivedLog(month: string, userId: string, query: LogQuery): Promise<LogPage>;
  /** One archived report in full, from its month's R2 object. */
  archivedReport(month: string, userId: string, id: string): Promise<ReportDetail | null>;
  /** Every raw report of every month, archived or not (the data export). */
  exportReports(userId: string): Promise<Array<Record<string, unknown>>>;
  /**
   * Closes the live-usage sockets of ended sessions at once: `only` these sessions, or every one
   * `except` a session that stays. Returns how many closed.
   */
  endLive(sessions: { only: string[] } | { except: string | null }): Promise<number>;
  /** A team's ledger (ADR 0038): totals, models, the viewer's days and a page of members, in the viewer's range. */
  readTeam(query: TeamQuery): Promise<TeamRead>;
  /** A team's ledger: every member × day × model of the range (the team's CSV). */
  readTeamDetail(query: TeamDetailQuery): Promise<TeamDetailRow[]>;
  /** A team's ledger: closes the live sockets of a member who was removed; how many closed. */
  endMember(memberId: string): Promise<number>;
  /** Deletes all the ledger's storage (the account is being deleted). */
  erase(): Promise<void>;
  size(): Promise<{ reports: number; secure: number; archivedMonths: Array<{ month: string; rows: number }> }>;
}

/** The binding, as both Workers' Env types name it. */
export type LedgerNamespace = DurableObjectNamespace;

/** The ledger of one account: an object named by the account's id. */
export function ledgerFor(namespace: LedgerNamespace, userId: string): UsageLedgerApi {
  return namespace.get(namespace.idFromName(userId)) as unknown as UsageLedgerApi;
}

/** Ends the live-usage sockets of sessions that just ended (issue 45: a socket belongs to its session). */
export async function endLiveSockets(namespace: LedgerNamespace, userId: string, sessions: { only: string[] } | { except: string | null }): Promise<void> {
  if ("only" in sessions && sessions.only.length === 0) return;
  await ledgerFor(namespace, userId).endLive(sessions);
}

/** Where a month of an account's archived raw reports is kept in R2. */
export function archiveKey(userId: string, month: string): string {
  return `usage-archive/${userId}/${month}.ndjson.gz`;
}
