// What "Download my data" holds (issue 29, GDPR Art. 20): every D1 row about the account, its
// usage from the ledger (within retention and the months archived to R2), and its subscription and
// invoices from Stripe. Secrets (password and token hashes) are left out: they are ours, not data
// about the person, and would only help an attacker who got the file. So are other people: the
// audit log's entries keep only the account's side of each action.
import { eq, or } from "drizzle-orm";
import { getStripe } from "../billing/stripe.server";
import type { StripeConfig } from "../config";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { isoInZone, isTimeZone, UTC } from "../time-zone";
import { dayKey } from "../usage/dates";
import { type LedgerNamespace, ledgerFor } from "../usage/ledger/api";

export type ExportDeps = { db: Db; ledgers: LedgerNamespace; env: StripeConfig };

// Never written to an export.
const SECRET_COLUMNS = new Set([
  "passwordHash",
  "refreshTokenHash",
  "previousRefreshTokenHash",
  "tokenHash",
  "proofHash",
  // A personal API key's SHA-256 (issue 49): a credential, not data about the user.
  "secretHash",
  "codeHash",
  "deviceCodeHash",
  "userCodeHash",
  "securityAnswerHash",
  "security_answer_hash",
  // The authenticator app's and a webhook's shared secrets (encrypted): credentials, not data about the user.
  "secretEnc",
  // An unanswered WebAuthn challenge: single use, minutes long, nothing about the user.
  "challenge",
]);

// Other people, never written to an export: the admin who closed a support message, made or revoked
// an activation key, or granted a year (their id, or in a grant's metadata their address).
// A team invitation's inviter is another person too (issue 50).
const OTHER_PEOPLE_COLUMNS = new Set(["closedBy", "createdBy", "revokedBy", "granted_by", "invitedBy"]);

function withoutSecrets<T extends Record<string, unknown>>(row: T): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (SECRET_COLUMNS.has(key) || OTHER_PEOPLE_COLUMNS.has(key)) continue;
    out[key] = value && typeof value === "object" && !Array.isArray(value) ? withoutSecrets(value as Record<string, unknown>) : value;
  }
  return out;
}

type AuditRow = typeof schema.auditLog.$inferSelect;

/**
 * The details an audit entry about the account may keep, by action: those known to be about the
 * account alone (its subscription's states and Stripe ids, how many of its sessions ended, which
 * of its support messages was closed, what became of a queued message about it). Any other
 * action's details stay out of an export, whatever they hold: subscription.grant_year's name the
 * admin who granted the year, and a new action's are not known yet.
 */
const OWN_DETAILS: Record<string, readonly string[]> = {
  "subscription.set_status": ["from", "to"],
  "subscription.sync_from_stripe": ["status"],
  "subscription.cancel_duplicate": ["canceled", "kept", "customer", "status", "trial"],
  "account.sign_out_everywhere": ["sessionsEnded"],
  "support.close": ["messageId"],
  "dead_letter.replay": ["queue", "kind", "reason"],
  "dead_letter.discard": ["queue", "kind", "reason"],
};

/**
 * An audit entry as the account's own record. The log names both parties of an action, and an
 * admin's entries name the people it acted on (their ids, and in the details their addresses):
 * an export holds the account's data only. So an entry the account made keeps what it did and
 * when, without whom to or any details; an entry about the account keeps its own details, without
 * who acted.
 */
function ownAuditEntry(row: AuditRow, accountId: string): Record<string, unknown> {
  const entry: Record<string, unknown> = { id: row.id, action: row.action, createdAt: row.createdAt };
  if (row.actorUserId === accountId) entry.actorUserId = accountId;
  if (row.targetUserId === accountId) {
    entry.targetUserId = accountId;
    const kept = OWN_DETAILS[row.action] ?? [];
    entry.details = Object.fromEntries(kept.filter((key) => Object.hasOwn(row.details, key)).map((key) => [key, row.details[key]]));
  }
  return entry;
}

/** A team activity row the account acted in: what, when, in which team; whom it acted on only when that was the account itself. */
function ownActivityEntry(row: Record<string, unknown>, accountId: string): Record<string, unknown> {
  const { subjectId, ...rest } = row;
  return subjectId === accountId ? { ...rest, subjectId } : rest;
}

/**
 * The D1 tables an export covers, by name: every table holding rows about an account. A test
 * compares this list with the schema's tables that refer to users (tests/integration/account-data.test.ts),
 * so a new table cannot be forgotten here.
 */
export const EXPORTED_TABLES = [
  "users",
  "user_profiles",
  "sessions",
  "device_authorizations",
  "one_time_tokens",
  "subscriptions",
  "checkout_sessions",
  "usage_rollup",
  "usage_accounts",
  "download_history",
  "budgets",
  "budget_caps",
  "alert_rules",
  "webhooks",
  "waitlist",
  "activation_keys",
  "support_messages",
  "marketing_events",
  "audit_log",
  "data_exports",
  "two_factor",
  "two_factor_recovery_codes",
  "passkeys",
  "passkey_challenges",
  "api_keys",
  "teams",
  "team_members",
  "team_invitations",
  "team_activity",
  "team_member_caps",
] as const;
type ExportedTable = (typeof EXPORTED_TABLES)[number];

/** The query of each exported table: the account's rows, by its id (or its address where a row names only that). */
function tableQueries(db: Db, { id, email }: { id: string; email: string }) {
  const t = schema;
  return {
    users: db.select().from(t.users).where(eq(t.users.id, id)),
    user_profiles: db.select().from(t.userProfiles).where(eq(t.userProfiles.userId, id)),
    sessions: db.select().from(t.sessions).where(eq(t.sessions.userId, id)),
    device_authorizations: db.select().from(t.deviceAuthorizations).where(eq(t.deviceAuthorizations.userId, id)),
    one_time_tokens: db.select().from(t.oneTimeTokens).where(eq(t.oneTimeTokens.userId, id)),
    subscriptions: db.select().from(t.subscriptions).where(eq(t.subscriptions.userId, id)),
    checkout_sessions: db.select().from(t.checkoutSessions).where(eq(t.checkoutSessions.userId, id)),
    usage_rollup: db.select().from(t.usageRollup).where(eq(t.usageRollup.userId, id)),
    usage_accounts: db.select().from(t.usageAccounts).where(eq(t.usageAccounts.userId, id)),
    download_history: db.select().from(t.downloadHistory).where(eq(t.downloadHistory.userId, id)),
    budgets: db.select().from(t.budgets).where(eq(t.budgets.userId, id)),
    budget_caps: db.select().from(t.budgetCaps).where(eq(t.budgetCaps.userId, id)),
    alert_rules: db.select().from(t.alertRules).where(eq(t.alertRules.userId, id)),
    // The signing secret (secretEnc) stays out, as every secret does.
    webhooks: db.select().from(t.webhooks).where(eq(t.webhooks.userId, id)),
    waitlist: db.select().from(t.waitlist).where(eq(t.waitlist.email, email)),
    activation_keys: db
      .select()
      .from(t.activationKeys)
      .where(or(eq(t.activationKeys.userId, id), eq(t.activationKeys.sentTo, email))),
    support_messages: db
      .select()
      .from(t.supportMessages)
      .where(or(eq(t.supportMessages.userId, id), eq(t.supportMessages.email, email))),
    marketing_events: db.select().from(t.marketingEvents).where(eq(t.marketingEvents.userId, id)),
    audit_log: db
      .select()
      .from(t.auditLog)
      .where(or(eq(t.auditLog.targetUserId, id), eq(t.auditLog.actorUserId, id))),
    data_exports: db.select().from(t.dataExports).where(eq(t.dataExports.userId, id)),
    two_factor: db.select().from(t.twoFactor).where(eq(t.twoFactor.userId, id)),
    two_factor_recovery_codes: db.select().from(t.twoFactorRecoveryCodes).where(eq(t.twoFactorRecoveryCodes.userId, id)),
    passkeys: db.select().from(t.passkeys).where(eq(t.passkeys.userId, id)),
    passkey_challenges: db.select().from(t.passkeyChallenges).where(eq(t.passkeyChallenges.userId, id)),
    api_keys: db.select().from(t.apiKeys).where(eq(t.apiKeys.userId, id)),
    // Teams (issue 50): those the account owns, its memberships, the invitations sent to its
    // address (not those it sent, which hold other people's addresses), and the activity rows it
    // acted in (ownActivityEntry drops whom they acted on).
    teams: db.select().from(t.teams).where(eq(t.teams.ownerId, id)),
    // role_rank is left out: SQLite derives it from role for the members page's order.
    team_members: db
      .select({ teamId: t.teamMembers.teamId, userId: t.teamMembers.userId, role: t.teamMembers.role, joinedAt: t.teamMembers.joinedAt })
      .from(t.teamMembers)
      .where(eq(t.teamMembers.userId, id)),
    team_invitations: db
      .select()
      .from(t.teamInvitations)
      .where(or(eq(t.teamInvitations.email, email), eq(t.teamInvitations.acceptedBy, id))),
    team_activity: db.select().from(t.teamActivity).where(eq(t.teamActivity.actorId, id)),
    // The caps a team's owner or admins set on this account's spending in the team.
    team_member_caps: db.select().from(t.teamMemberCaps).where(eq(t.teamMemberCaps.userId, id)),
  } satisfies Record<ExportedTable, unknown>;
}

async function tableRows(db: Db, user: { id: string; email: string }): Promise<Record<ExportedTable, Array<Record<string, unknown>>>> {
  const queries = tableQueries(db, user);
  // One round trip for every table.
  const [first, ...rest] = EXPORTED_TABLES.map((name) => queries[name]);
  const results = (await db.batch([first!, ...rest])) as Array<Array<Record<string, unknown>>>;
  return Object.fromEntries(
    EXPORTED_TABLES.map((name, i) => [
      name,
      name === "audit_log"
        ? results[i]!.map((r) => ownAuditEntry(r as AuditRow, user.id))
        : name === "team_activity"
          ? results[i]!.map((r) => ownActivityEntry(r, user.id))
          : results[i]!.map((r) => withoutSecrets(r)),
    ]),
  ) as Record<ExportedTable, Array<Record<string, unknown>>>;
}

type StripeRecords = { customerId: string | null; subscriptions: Array<Record<string, unknown>>; invoices: Array<Record<string, unknown>> };

/** The customer's subscriptions and invoices as Stripe keeps them (amounts in the currency's smallest unit). */
async function stripeRecords(env: StripeConfig, customerId: string | null): Promise<StripeRecords> {
  const stripe = getStripe(env);
  if (!stripe || !customerId) return { customerId, subscriptions: [], invoices: [] };
  const [subs, invoices] = await Promise.all([
    stripe.subscriptions.list({ customer: customerId, status: "all", limit: 100 }),
    stripe.invoices.list({ customer: customerId, limit: 100 }),
  ]);
  return {
    customerId,
    subscriptions: subs.data.map((s) => ({ id: s.id, status: s.status, created: s.created, canceledAt: s.canceled_at, endedAt: s.ended_at })),
    invoices: invoices.data.map((i) => ({
      id: i.id,
      number: i.number,
      created: i.created,
      status: i.status,
      currency: i.currency,
      total: i.total,
      amountPaid: i.amount_paid,
      pdfUrl: i.invoice_pdf ?? null,
    })),
  };
}

export type AccountData = {
  format: "modelify-account-export";
  version: 1;
  generatedAt: string;
  account: { id: string; email: string };
  tables: Record<ExportedTable, Array<Record<string, unknown>>>;
  /** The account's time zone: each usage report's local_date and local_time are in it (ADR 0030). */
  timeZone: string;
  usageReports: Array<Record<string, unknown>>;
  stripe: StripeRecords;
};

/** Everything held about the account, as one JSON-ready object. */
export async function gatherAccountData(deps: ExportDeps, user: { id: string; email: string }, now = Date.now()): Promise<AccountData> {
  const tables = await tableRows(deps.db, user);
  const customerId = (tables.user_profiles[0]?.stripeCustomerId as string | null | undefined) ?? null;
  const [usageReports, stripe] = await Promise.all([ledgerFor(deps.ledgers, user.id).exportReports(user.id), stripeRecords(deps.env, customerId)]);
  const saved = tables.user_profiles[0]?.timezone;
  const timeZone = typeof saved === "string" && isTimeZone(saved) ? saved : UTC;
  return {
    format: "modelify-account-export",
    version: 1,
    generatedAt: new Date(now).toISOString(),
    account: { id: user.id, email: user.email },
    tables,
    timeZone,
    usageReports: usageReports.map((r) => withLocalTime(r, timeZone)),
    stripe,
  };
}

/** A raw report with the day and the time it happened in the account's zone (raw rows keep UTC epoch ms). */
function withLocalTime(report: Record<string, unknown>, zone: string): Record<string, unknown> {
  const at = Number(report.kind === "secure" ? report.report_timestamp : report.occurred_at);
  if (!Number.isFinite(at)) return report;
  return { ...report, local_date: dayKey(at, zone), local_time: isoInZone(at, zone) };
}
