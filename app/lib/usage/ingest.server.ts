// The consumer side of usage reporting (ADR 0020): a batch's reports are grouped by account and
// written with one call to each account's ledger; D1 gets only what is shared: each account's
// day totals for the cross-account rollup, when the account first and last reported, and each
// device key's last use.
import { inArray, sql } from "drizzle-orm";
import type { Db } from "../db.server";
import { chunks, schema } from "../db.server";
import { BUDGET_DEFAULTS } from "../constants";
import { type BudgetSettings, DEFAULT_BUDGET, thresholdList } from "./budget";
import { ledgerFor, type LedgerNamespace } from "./ledger/api";
import type { HealthRule, IngestResult, LedgerSecure, LedgerUsage } from "./ledger/types";
import { usageAccountsUpsert, usageRollupUpsert } from "./rollup-sql";
import { type QueuedUsageReport, toMicros, type SecureReport } from "./report";
import { isTimeZone, UTC } from "../time-zone";

export type UsageItem = {
  userId: string;
  receivedAt: number;
  report: QueuedUsageReport;
  /** The device key (desktop session) that sent it, and the country the request came from. */
  deviceId?: string | null;
  country?: string | null;
  /** The team the device key reports under (ADR 0038); absent or null: personal only. */
  teamId?: string | null;
};
export type SecureItem = { userId: string; receivedAt: number; report: SecureReport; teamId?: string | null };

function conversationId(metadata: Record<string, unknown> | null | undefined): string | null {
  const value = metadata?.conversation_id;
  return typeof value === "string" && value.length > 0 && value.length <= 200 ? value : typeof value === "number" ? String(value) : null;
}

/**
 * A report as a ledger stores it. `memberId`: in a team's ledger, the member who sent it; the id is
 * then the member's (`<member>:<report_id>`), so no member can make another's report look seen.
 */
export function toLedgerUsage({ receivedAt, report: r, deviceId }: UsageItem, memberId: string | null = null): LedgerUsage {
  return {
    id: memberId === null ? r.report_id.toLowerCase() : `${memberId}:${r.report_id.toLowerCase()}`,
    occurredAt: r.occurred_at,
    receivedAt,
    modelName: r.model_name,
    modelProvider: r.model_provider,
    requestType: r.request_type,
    tokensUsed: r.tokens_used,
    tokensInput: r.tokens_input,
    tokensOutput: r.tokens_output,
    costMicros: toMicros(r.cost_usd),
    durationMs: r.request_duration_ms,
    success: r.success,
    errorMessage: r.error_message ?? null,
    metadata: r.metadata == null ? null : JSON.stringify(r.metadata),
    conversationId: conversationId(r.metadata),
    appVersion: r.app_version ?? null,
    appInstanceId: r.app_instance_id ?? null,
    deviceId: deviceId ?? null,
    memberId,
  };
}

export function toLedgerSecure({ receivedAt, report: r }: SecureItem, memberId: string | null = null): LedgerSecure {
  return {
    reportHash: memberId === null ? r.report_hash : `${memberId}:${r.report_hash}`,
    modelName: r.model_name,
    provider: r.provider,
    tokensUsed: r.tokens_used,
    costMicros: toMicros(r.cost),
    requestCount: r.request_count,
    successCount: r.success_count,
    errorCount: r.error_count,
    reportTimestamp: r.report_timestamp,
    appVersion: r.app_version ?? null,
    appInstanceId: r.app_instance_id ?? null,
    receivedAt,
    memberId,
  };
}

/**
 * What the consumer knows of an account from D1: its address (alerts), budget, time zone, model
 * health rules and how many webhooks it has. `budget.notificationsEnabled` is the e-mail switch.
 */
export type AccountFacts = {
  email: string;
  budget: BudgetSettings;
  timeZone: string;
  rules: HealthRule[];
  webhooks: number;
  /** The teams the account is a member of now: a report counts for its team only if this holds it (ADR 0038). */
  teams: string[];
};

/**
 * The budget as the ledger decides its alerts with: on when anyone listens (e-mail or a webhook),
 * so an account that turned e-mail off still gets its webhooks called.
 */
export function alertBudget(account: AccountFacts): BudgetSettings {
  return { ...account.budget, notificationsEnabled: account.budget.notificationsEnabled || account.webhooks > 0 };
}

function parseRules(json: string | null): HealthRule[] {
  const rows: unknown = json === null ? [] : JSON.parse(json);
  return Array.isArray(rows) ? (rows as HealthRule[]) : [];
}

/** The accounts of a batch that still exist, with their budgets and zones: one statement per 90 accounts. */
export async function accountFacts(db: Db, userIds: string[]): Promise<Map<string, AccountFacts>> {
  const facts = new Map<string, AccountFacts>();
  for (const ids of chunks(userIds, 90)) {
    const rows = await db
      .select({
        id: schema.users.id,
        email: schema.users.email,
        monthlyBudget: schema.budgets.monthlyBudget,
        dailyBudget: schema.budgets.dailyBudget,
        alertThreshold: schema.budgets.alertThreshold,
        alertThresholds: schema.budgets.alertThresholds,
        notificationsEnabled: schema.budgets.notificationsEnabled,
        timeZone: schema.userProfiles.timezone,
        rules: sql<
          string | null
        >`(SELECT json_group_array(json_object('id', r.id, 'kind', r.kind, 'threshold', r.threshold)) FROM alert_rules AS r WHERE r.user_id = ${schema.users.id})`,
        webhooks: sql<number>`(SELECT count(*) FROM webhooks AS w WHERE w.user_id = ${schema.users.id})`,
        teams: sql<string>`(SELECT json_group_array(m.team_id) FROM team_members AS m WHERE m.user_id = ${schema.users.id})`,
      })
      .from(schema.users)
      .leftJoin(schema.budgets, sql`${schema.budgets.userId} = ${schema.users.id}`)
      .leftJoin(schema.userProfiles, sql`${schema.userProfiles.userId} = ${schema.users.id}`)
      .where(inArray(schema.users.id, ids));
    for (const r of rows) {
      facts.set(r.id, {
        email: r.email,
        timeZone: r.timeZone !== null && isTimeZone(r.timeZone) ? r.timeZone : UTC,
        rules: parseRules(r.rules),
        webhooks: Number(r.webhooks ?? 0),
        teams: JSON.parse(r.teams ?? "[]") as string[],
        budget:
          r.monthlyBudget === null
            ? DEFAULT_BUDGET
            : {
                monthlyBudget: r.monthlyBudget,
                dailyBudget: r.dailyBudget ?? 0,
                alertThresholds: thresholdList(r.alertThresholds, r.alertThreshold ?? BUDGET_DEFAULTS.alertThresholdPercent),
                notificationsEnabled: Boolean(r.notificationsEnabled),
              },
      });
    }
  }
  return facts;
}

/**
 * One account's part of a batch, written with one ledger call. `zone`: the account's time zone as
 * D1 has it, so a ledger that missed a change of it redraws its days first (ADR 0030).
 */
export async function ingestAccount(
  ledgers: LedgerNamespace,
  userId: string,
  usage: UsageItem[],
  secure: SecureItem[],
  budget: BudgetSettings | null,
  now = Date.now(),
  zone?: string,
  rules?: HealthRule[],
): Promise<IngestResult> {
  // The claims these reports answer: their hard-cap reservations end as the reports' cost is stored.
  const claimIds = usage.flatMap((u) => (u.report.claim_id ? [u.report.claim_id.toLowerCase()] : []));
  return ledgerFor(ledgers, userId).ingest({
    usage: usage.map((u) => toLedgerUsage(u)),
    secure: secure.map((s) => toLedgerSecure(s)),
    budget,
    now,
    zone,
    claimIds,
    rules,
  });
}

/**
 * What one ledger call stored, for D1: the ledger's answer, and when each report was received and
 * by which device key (the move of D1's history passes none: D1 already has the devices' last use).
 */
export type AccountOutcome = {
  userId: string;
  result: IngestResult;
  usage: Array<Pick<UsageItem, "receivedAt"> & Partial<Pick<UsageItem, "deviceId" | "country">>>;
  secure: Array<Pick<SecureItem, "receivedAt">>;
};

// D1 binds at most 100 parameters: a rollup row has 6, a device 3, an account 3.
const ROLLUP_ROWS_PER_STATEMENT = 16;
const DEVICES_PER_STATEMENT = 33;
const ACCOUNTS_PER_STATEMENT = 33;

/**
 * What the ledgers said, written to D1 in one batch (one transaction): the accounts' day totals
 * (absolute, newest version wins, so a retried batch writes the same figures again), when each
 * account first and last reported, and each device key's last use. Redelivered reports change
 * nothing: totals are absolute and times only move forward.
 */
export async function writeShared(db: Db, outcomes: AccountOutcome[]): Promise<void> {
  const d1 = db.$client;
  const statements: D1PreparedStatement[] = [];
  const rollup = outcomes.flatMap((o) => o.result.days.map((d) => [o.userId, d.date, d.requests, d.tokens, d.costMicros, o.result.version]));
  for (const rows of chunks(rollup, ROLLUP_ROWS_PER_STATEMENT)) {
    statements.push(d1.prepare(usageRollupUpsert(rows.length)).bind(...rows.flat()));
  }
  const accounts = outcomes
    .filter((o) => o.result.firstReceivedAt !== null)
    .map((o) => [o.userId, o.result.firstReceivedAt!, Math.max(...o.usage.map((u) => u.receivedAt), ...o.secure.map((s) => s.receivedAt))]);
  for (const rows of chunks(accounts, ACCOUNTS_PER_STATEMENT)) {
    statements.push(d1.prepare(usageAccountsUpsert(rows.length)).bind(...rows.flat()));
  }
  const devices = lastUseByDevice(outcomes.flatMap((o) => o.usage));
  for (const rows of chunks(devices, DEVICES_PER_STATEMENT)) {
    statements.push(
      d1
        .prepare(
          // The country moves only with the last use: a late (redelivered) older report keeps the newer one's.
          `UPDATE sessions SET last_used_at = max(coalesce(sessions.last_used_at, 0), v.column2),
             last_country = CASE WHEN v.column2 >= coalesce(sessions.last_used_at, 0) THEN coalesce(v.column3, sessions.last_country) ELSE sessions.last_country END
           FROM (VALUES ${rows.map(() => "(?, ?, ?)").join(", ")}) AS v WHERE sessions.id = v.column1`,
        )
        .bind(...rows.flat()),
    );
  }
  if (statements.length) await d1.batch(statements);
}

/** Each device's latest report: when, and from which country (if known). */
function lastUseByDevice(usage: AccountOutcome["usage"]): Array<[string, number, string | null]> {
  const latest = new Map<string, [string, number, string | null]>();
  for (const { deviceId, receivedAt, country } of usage) {
    if (!deviceId) continue;
    const seen = latest.get(deviceId);
    if (!seen || receivedAt >= seen[1]) latest.set(deviceId, [deviceId, receivedAt, country ?? seen?.[2] ?? null]);
  }
  return [...latest.values()];
}
