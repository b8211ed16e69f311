// What one account's usage ledger does with its SQLite storage (ADR 0020): store reports exactly
// once, keep the aggregates the dashboard reads, decide budget alerts once per period, count
// free-tier claims exactly, and hand rows past retention to the archive. Free of the Durable
// Object class (workers/usage-ledger.ts) so it can be read and tested alone: everything here is
// synchronous, and the object runs one call at a time, so each call is a consistent unit. Hard
// caps' reservations are in caps.ts. The
// writes of an ingest are in ingest.ts, the reads in reads.ts, the shapes in types.ts.
import { FREE_TIER } from "../../constants";
import { isTimeZone, UTC } from "../../time-zone";
import type { BudgetSettings } from "../budget";
import { refusingCap } from "../caps";
import { type UsageCounts, windowBounds, type WindowName } from "../windows";
import { decideBudgetAlerts, decideHealthAlerts } from "./alerts";
import { capStates, release, reserve } from "./caps";
import { storeReports } from "./ingest";
import { rebuildZoneRows } from "./zoned";
import { dayTotals, num, readLedger, windowCounts } from "./reads";
import { LEDGER_MIGRATIONS, SLICES_VERSION } from "./schema";
import { rebuildDaySlices } from "./slices";
import { readTeam, readTeamDetail, type TeamDetailQuery, type TeamDetailRow, type TeamQuery, type TeamRead } from "./team-reads";
import type { ClaimInput, ClaimResult, IngestOptions, IngestResult, LedgerQuery, LedgerRead, LedgerSecure, LedgerUsage, SentAlert } from "./types";

export class LedgerStore {
  /** The account's time zone, as the ledger's zone rows (daily, hourly, the months) are drawn in. */
  private zoneNow: string = UTC;

  /** `upTo`: apply the schema's versions only this far (a test builds an older ledger with it). */
  constructor(
    private readonly sql: SqlStorage,
    { upTo = LEDGER_MIGRATIONS.length }: { upTo?: number } = {},
  ) {
    const from = this.migrate(upTo);
    this.zoneNow = this.meta("zone") ?? UTC;
    // The slices' days are drawn in the ledger's zone, which the SQL of a migration cannot know.
    if (from <= SLICES_VERSION - 1 && upTo >= SLICES_VERSION) rebuildDaySlices(this.sql, this.zoneNow);
  }

  get zone(): string {
    return this.zoneNow;
  }

  /**
   * Draws the zone's rows again for `zone` when it is not the ledger's zone (ADR 0030): exact for
   * every day and hour from the quarter hours. The caller runs it in one storage transaction.
   * Returns whether anything was redrawn. A name that is no zone is refused.
   */
  setZone(zone: string, now: number): boolean {
    if (!isTimeZone(zone)) throw new RangeError(`not a time zone: ${zone}`);
    if (zone === this.zoneNow) return false;
    rebuildZoneRows(this.sql, zone, now);
    this.setMeta("zone", zone);
    this.zoneNow = zone;
    return true;
  }

  /** Applies the versions not yet applied, up to `upTo`; returns the version the ledger was at. */
  private migrate(upTo: number): number {
    const hasMeta = this.sql.exec(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'`).toArray().length > 0;
    let version = hasMeta ? Number(this.meta("schema_version") ?? 0) : 0;
    const from = version;
    while (version < upTo) {
      for (const statement of LEDGER_MIGRATIONS[version]!) this.sql.exec(statement);
      version += 1;
      this.setMeta("schema_version", String(version));
    }
    return from;
  }

  private meta(key: string): string | null {
    const row = this.sql.exec(`SELECT value FROM meta WHERE key = ?`, key).toArray()[0];
    return row ? String(row.value) : null;
  }

  private setMeta(key: string, value: string) {
    this.sql.exec(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value);
  }

  /**
   * Stores the reports not seen before and adds exactly those to the aggregates, then decides the
   * budget and model health alerts (alerts.ts). The caller runs it inside one storage transaction.
   */
  ingest(usage: LedgerUsage[], secure: LedgerSecure[], budget: BudgetSettings | null, now: number, options: IngestOptions = {}): IngestResult {
    if (options.zone !== undefined && options.zone !== this.zoneNow && isTimeZone(options.zone)) this.setZone(options.zone, now);
    const { stored, duplicates, expired, touchedDays, quarters } = storeReports(this.sql, usage, secure, now, this.zoneNow, options);
    // In the same transaction as the reports' cost: a claim never sees both or neither.
    if (options.claimIds?.length) release(this.sql, options.claimIds);
    let version = Number(this.meta("version") ?? 0);
    let firstReceivedAt = this.meta("first_received_at");
    if (stored > 0) {
      version += 1;
      this.setMeta("version", String(version));
      const first = Math.min(...usage.map((u) => u.receivedAt), ...secure.map((s) => s.receivedAt));
      // Imported history can be older than what the ledger received since the deploy.
      if (firstReceivedAt === null || (options.importing && first < Number(firstReceivedAt))) {
        firstReceivedAt = String(first);
        this.setMeta("first_received_at", firstReceivedAt);
      }
    }
    return {
      stored,
      duplicates,
      expired,
      // An import decides no alert: those of the past were sent by the D1-era code (importAlerts).
      alerts: budget && !options.importing ? decideBudgetAlerts(this.sql, budget, now, this.zoneNow) : [],
      health: options.rules && !options.importing ? decideHealthAlerts(this.sql, options.rules, quarters.values(), now, this.zoneNow) : [],
      days: dayTotals(this.sql, [...touchedDays]),
      version,
      firstReceivedAt: firstReceivedAt === null ? null : Number(firstReceivedAt),
    };
  }

  /**
   * Alerts already sent before the ledger existed (D1's budget_alerts, by the move): noted as
   * sent, so the same period's alert is not sent again. Returns how many were new here.
   */
  importAlerts(alerts: SentAlert[]): number {
    let added = 0;
    for (const a of alerts) {
      added += this.sql.exec(
        // Their threshold was not recorded: 0, the lowest of the list (alerts.ts).
        `INSERT INTO budget_alerts (kind, period, threshold, sent_at) VALUES (?, ?, 0, ?) ON CONFLICT DO NOTHING`,
        a.kind,
        a.period,
        a.sentAt,
      ).rowsWritten;
    }
    return added;
  }

  /** The query's parts; the caller has brought the ledger to the query's zone first (setZone). */
  read(q: LedgerQuery): LedgerRead {
    const out = readLedger(this.sql, q, this.zoneNow);
    if (q.caps !== undefined) out.caps = capStates(this.sql, q.caps, q.now, this.zoneNow);
    return out;
  }

  /**
   * A team's ledger's figures in a viewer's range and zone (ADR 0038): the ledger itself stays in UTC.
   * The caller runs it in one storage transaction (a range's first page of members ranks it).
   */
  readTeam(q: TeamQuery): TeamRead {
    return readTeam(this.sql, q);
  }

  readTeamDetail(q: TeamDetailQuery): TeamDetailRow[] {
    return readTeamDetail(this.sql, q);
  }

  /**
   * The desktop app asks to make one model call. A free account's claim must find every window
   * under its limit and is then counted in all of them at once; with hard caps (ADR 0032) the
   * claim's estimate must also fit under every cap that covers it, and a granted one reserves it.
   * The object runs one call at a time, so parallel claims are decided one after another on exact
   * counts and exact spend.
   */
  claim(input: ClaimInput): ClaimResult {
    const { now, free, caps, target, claimId } = input;
    if (input.zone !== this.zoneNow && isTimeZone(input.zone)) this.setZone(input.zone, now);
    const counts = windowCounts(this.sql, now);
    const withinFreeTier =
      !free ||
      (counts.minute < FREE_TIER.perMinute &&
        counts.hour < FREE_TIER.perHour &&
        counts.day < FREE_TIER.perDay &&
        counts.monthRequests < FREE_TIER.requestsPerMonth &&
        counts.monthTokens < FREE_TIER.tokensPerMonth);
    const states = capStates(this.sql, caps, now, this.zoneNow);
    const refusedBy = refusingCap(states, target);
    if (!withinFreeTier || refusedBy !== null) return { granted: false, counts, caps: states, refusedBy };
    if (caps.length > 0) reserve(this.sql, claimId, target, now, this.zoneNow);
    const granted: ClaimResult = { granted: true, counts, caps: capStates(this.sql, caps, now, this.zoneNow), refusedBy: null };
    return free ? { ...granted, counts: this.countClaim(counts, now) } : granted;
  }

  /** Ends the reservations of granted claims whose call will not be made (ADR 0039: the other ledger refused it). */
  releaseClaims(claimIds: string[]): number {
    return release(this.sql, claimIds);
  }

  /**
   * A granted free claim raises each window's count to one above what counted (reports or claims),
   * so a window never holds fewer claims than the calls it let through.
   */
  private countClaim(counts: UsageCounts, now: number): UsageCounts {
    const w = windowBounds(now);
    const next: Record<WindowName, number> = { minute: counts.minute + 1, hour: counts.hour + 1, day: counts.day + 1, month: counts.monthRequests + 1 };
    for (const window of ["minute", "hour", "day", "month"] as const) {
      this.sql.exec(
        `INSERT INTO claims (window, start, count) VALUES (?, ?, ?) ON CONFLICT (window, start) DO UPDATE SET count = max(count, excluded.count)`,
        window,
        w[window].start,
        next[window],
      );
    }
    // Claims of windows that have ended no longer count anywhere.
    this.sql.exec(`DELETE FROM claims WHERE start < ?`, windowBounds(w.month.start - 1).month.start);
    return { ...counts, minute: next.minute, hour: next.hour, day: next.day, monthRequests: next.month };
  }

  /** How many raw reports and fallback reports the ledger holds (tests, the archive's log line). */
  size(): { reports: number; secure: number } {
    return {
      reports: num(this.sql.exec(`SELECT count(*) AS n FROM reports`).one().n),
      secure: num(this.sql.exec(`SELECT count(*) AS n FROM secure_reports`).one().n),
    };
  }

  /** The months ('YYYY-MM') that have raw rows from before `cutoff`, oldest first. */
  monthsBefore(cutoff: number): string[] {
    const months = new Set<string>();
    for (const table of [
      ["reports", "occurred_at"],
      ["secure_reports", "report_timestamp"],
    ] as const) {
      const rows = this.sql
        .exec(`SELECT DISTINCT strftime('%Y-%m', ${table[1]} / 1000, 'unixepoch') AS month FROM ${table[0]} WHERE ${table[1]} < ?`, cutoff)
        .toArray();
      for (const r of rows) months.add(String(r.month));
    }
    return [...months].sort();
  }

  /** Raw rows of a month (all of them, or those before `cutoff`), as NDJSON objects. */
  rawRows(month: string, cutoff = Number.MAX_SAFE_INTEGER, limit = Number.MAX_SAFE_INTEGER): Array<Record<string, unknown>> {
    const [start, end] = monthRange(month);
    const until = Math.min(end, cutoff);
    const usage = this.sql
      .exec(`SELECT * FROM reports WHERE occurred_at >= ? AND occurred_at < ? ORDER BY occurred_at, id LIMIT ?`, start, until, limit)
      .toArray()
      .map((r) => ({ kind: "usage", ...r, success: num(r.success) === 1, metadata: r.metadata === null ? null : JSON.parse(String(r.metadata)) }));
    const secure = this.sql
      .exec(
        `SELECT * FROM secure_reports WHERE report_timestamp >= ? AND report_timestamp < ? ORDER BY report_timestamp, report_hash LIMIT ?`,
        start,
        until,
        limit,
      )
      .toArray()
      .map((r) => ({ kind: "secure", ...r }));
    return [...usage, ...secure];
  }

  /** Deletes the given raw rows (after they were written to the archive) and notes the month. */
  dropArchived(month: string, ids: string[], hashes: string[], totalInArchive: number, now: number) {
    for (const id of ids) this.sql.exec(`DELETE FROM reports WHERE id = ?`, id);
    for (const hash of hashes) this.sql.exec(`DELETE FROM secure_reports WHERE report_hash = ?`, hash);
    this.sql.exec(
      `INSERT INTO archived_months (month, rows, archived_at) VALUES (?, ?, ?) ON CONFLICT (month) DO UPDATE SET rows = excluded.rows, archived_at = excluded.archived_at`,
      month,
      totalInArchive,
      now,
    );
  }

  archivedMonths(): Array<{ month: string; rows: number }> {
    return this.sql
      .exec(`SELECT month, rows FROM archived_months ORDER BY month`)
      .toArray()
      .map((r) => ({ month: String(r.month), rows: num(r.rows) }));
  }
}

/** [start, end) of a 'YYYY-MM' month in epoch ms. */
function monthRange(month: string): [number, number] {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return [Date.UTC(y, m - 1, 1), Date.UTC(y, m, 1)];
}
