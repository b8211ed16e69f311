// "Delete my account" (issue 29, GDPR Art. 17): after the owner proves it again, the Stripe
// subscription is cancelled at once (no refund for the partial month, as for any cancellation),
// every session and device key ends, pictures, usage archives and exports leave R2, the usage
// ledger is emptied, and every D1 row about the account is deleted. What stays is what the
// privacy policy names: the audit log, with the address and the account's id only as a hash, and
// what Stripe keeps for invoices. The address may sign up again as a new account. Of requests at
// once (a double click, two tabs), the first to prove the owner claims the deletion; the others
// are told it is under way (409) and delete nothing.
import { and, eq, inArray, ne, notExists, or, sql } from "drizzle-orm";
import { revokeAccountAccess } from "../auth/revocation.server";
import { findUserById } from "../auth/users.server";
import type { Stripe } from "../billing/stripe.server";
import { ACCOUNT_DELETION } from "../constants";
import { sha256Hex } from "../crypto";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import type { KeySettings } from "../keys";
import { clearCounter, countEvent } from "../limits/counters.server";
import { enqueueMail } from "../mail/mail.server";
import { accountDeletedMail } from "../mail/templates";
import { phoneCodeKey } from "../phone/codes.server";
import { type LedgerNamespace, ledgerFor } from "../usage/ledger/api";
import { DELETION_MESSAGES as M } from "./messages";
import { type ProofRefusal, requireEveryFactor } from "../auth/recent-proof.server";
import { log } from "../log/log.server";
import { ownedTeams } from "../teams/teams.server";

export type DeletionDeps = {
  db: Db;
  kv: KVNamespace;
  bucket: R2Bucket;
  ledgers: LedgerNamespace;
  stripe: Stripe | null;
  queue: Queue;
  ip: string | null;
  env: KeySettings<"TWO_FACTOR_KEY" | "TWO_FACTOR_KEY_PREVIOUS">;
  /** For the link in the mail a wrong code sends when it locks the two-factor codes. */
  origin: string;
};

export type DeletionResult =
  | { ok: true }
  | { ok: false; status: 400 | 401 | 409 | 429 | 502; error: string; field?: "password" | "code"; retryAfterSeconds?: number };

/** An owner stays while their team has other members (issue 50): they transfer it first. A team they are alone in goes with the account. */
async function ownsSharedTeam(db: Db, userId: string): Promise<boolean> {
  return (await ownedTeams(db, userId)).some((team) => team.others > 0);
}

/** The R2 prefixes that hold an account's objects: pictures, archived usage, data exports. */
export function accountPrefixes(userId: string): string[] {
  return [`${userId}/`, `usage-archive/${userId}/`, `exports/${userId}/`];
}

// Stripe statuses that can still charge the customer.
const ENDED = new Set(["canceled", "incomplete_expired"]);

function refusal(proof: ProofRefusal): DeletionResult {
  if (proof.reason === "locked") return { ok: false, status: 429, error: M.locked, field: proof.factor, retryAfterSeconds: proof.retryAfterSeconds };
  if (proof.reason === "missing-code" || (proof.reason === "required" && proof.needs.code))
    return { ok: false, status: 401, error: M.codeRequired, field: "code" };
  if (proof.reason === "wrong-code") return { ok: false, status: 401, error: M.codeWrong, field: "code" };
  return { ok: false, status: 401, error: M.passwordWrong, field: "password" };
}

/**
 * The deletion's claim, an atomic counter (one statement, so of any number of requests at once
 * exactly one counts first). Its key holds a hash of the id: deleteRows removes every counter
 * naming the id, and the claim must outlive the deletion, or a request that proved the password
 * just before the rows went would find no claim and run the deletion again.
 */
async function claimKey(userId: string): Promise<string> {
  return `account-deletion:${await sha256Hex(userId)}`;
}

const alreadyDeleting: DeletionResult = { ok: false, status: 409, error: M.alreadyDeleting };

/**
 * Deletes the account of the session's owner once every factor proves it is them, now: it cannot
 * be undone, so a recent proof is not enough.
 */
export async function deleteAccount(
  deps: DeletionDeps,
  session: { userId: string; sessionId: string },
  input: { password: string; code?: string },
): Promise<DeletionResult> {
  const userId = session.userId;
  const user = await findUserById(deps.db, userId);
  // Its session was live when the request began: the account went since, with another request.
  if (!user) return alreadyDeleting;
  if (await ownsSharedTeam(deps.db, userId)) return { ok: false, status: 409, error: M.ownsTeam };
  const proof = await requireEveryFactor(deps, { ...session, provenAt: null }, input);
  if (!proof.ok) return refusal(proof);
  const claim = await claimKey(userId);
  if ((await countEvent(deps.db, claim, ACCOUNT_DELETION.claimMs)).count > 1) return alreadyDeleting;

  // First what costs money: if Stripe cannot be reached, nothing is deleted and the user may retry at once.
  if (!(await cancelSubscriptions(deps, userId))) {
    await clearCounter(deps.db, claim);
    return { ok: false, status: 502, error: M.billingFailed };
  }
  await revokeAccountAccess(deps, userId, "account_deleted");
  const profile = await deps.db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, userId), columns: { phoneNumber: true } });
  await Promise.all([
    ...accountPrefixes(userId).map((prefix) => deletePrefix(deps.bucket, prefix)),
    ledgerFor(deps.ledgers, userId).erase(),
    deps.kv.delete(phoneCodeKey(userId)),
  ]);
  await deleteRows(deps.db, { id: userId, email: user.email, phone: profile?.phoneNumber ?? null });
  await enqueueMail(deps.queue, accountDeletedMail(user.email));
  log.info("account_deleted");
  return { ok: true };
}

/** Cancels every subscription of the account's Stripe customer that can still charge, at once and without proration. */
async function cancelSubscriptions(deps: Pick<DeletionDeps, "db" | "stripe">, userId: string): Promise<boolean> {
  const [profile, stored] = await Promise.all([
    deps.db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, userId), columns: { stripeCustomerId: true } }),
    deps.db.query.subscriptions.findFirst({ where: eq(schema.subscriptions.userId, userId), columns: { stripeSubscriptionId: true, status: true } }),
  ]);
  const customerId = profile?.stripeCustomerId ?? null;
  const storedId = stored && !ENDED.has(stored.status) ? stored.stripeSubscriptionId : null;
  if (!customerId && !storedId) return true;
  const { stripe } = deps;
  if (!stripe) return false;
  try {
    const ids = new Set<string>(storedId ? [storedId] : []);
    if (customerId) {
      const all = await stripe.subscriptions.list({ customer: customerId, status: "all", limit: 100 });
      for (const s of all.data) if (!ENDED.has(s.status)) ids.add(s.id);
    }
    for (const id of ids) {
      try {
        await stripe.subscriptions.cancel(id, { prorate: false, invoice_now: false }, { idempotencyKey: `modelify-account-deleted-${id}` });
      } catch (error) {
        // Cancelled already (by Stripe or a concurrent request): the outcome is the same.
        if ((error as { statusCode?: number }).statusCode !== 400) throw error;
      }
    }
    return true;
  } catch (error) {
    log.error("account_delete_billing_failed", {}, error);
    return false;
  }
}

/** Deletes every R2 object under `prefix`, a page (up to 1,000 keys) at a time. */
async function deletePrefix(bucket: R2Bucket, prefix: string): Promise<void> {
  for (;;) {
    const page = await bucket.list({ prefix, limit: 1000 });
    if (page.objects.length === 0) return;
    await bucket.delete(page.objects.map((o) => o.key));
    if (!page.truncated) return;
  }
}

/**
 * Every D1 row about the account, in one transaction. The audit log stays, with the address and the
 * account's id replaced by the hash of the address; the account's marks elsewhere (attempt counters
 * and dead letters whose key or body names the account) go.
 */
async function deleteRows(db: Db, account: { id: string; email: string; phone: string | null }): Promise<void> {
  const { id, email } = account;
  const hash = `sha256:${await sha256Hex(email)}`;
  const t = schema;
  const audit = t.auditLog;
  const hashed = sql`replace(replace(${audit.details}, ${email}, ${hash}), ${id}, ${hash})`;
  const counterKeys = [sql`${t.attemptCounters.key} LIKE ${`%${id}%`}`];
  if (account.phone) counterKeys.push(sql`${t.attemptCounters.key} = ${`phone-send:number:${account.phone}`}`);
  await db.batch([
    db
      .update(audit)
      .set({ details: sql`json_set(${hashed}, '$.subject', ${hash})`, targetUserId: null })
      .where(eq(audit.targetUserId, id)),
    db
      .update(audit)
      .set({ details: sql`json_set(${hashed}, '$.actor', ${hash})`, actorUserId: null })
      .where(eq(audit.actorUserId, id)),
    db
      .insert(audit)
      .values({ id: crypto.randomUUID(), actorUserId: null, targetUserId: null, action: "account.deleted", details: { subject: hash }, createdAt: Date.now() }),
    db.delete(t.supportMessages).where(or(eq(t.supportMessages.userId, id), eq(t.supportMessages.email, email))),
    db.update(t.supportMessages).set({ closedBy: null }).where(eq(t.supportMessages.closedBy, id)),
    db.delete(t.waitlist).where(eq(t.waitlist.email, email)),
    db.delete(t.activationKeys).where(or(eq(t.activationKeys.userId, id), eq(t.activationKeys.sentTo, email))),
    db.update(t.activationKeys).set({ createdBy: null }).where(eq(t.activationKeys.createdBy, id)),
    db.update(t.activationKeys).set({ revokedBy: null }).where(eq(t.activationKeys.revokedBy, id)),
    db.delete(t.marketingEvents).where(eq(t.marketingEvents.userId, id)),
    db.delete(t.attemptCounters).where(or(...counterKeys)),
    db.delete(t.deadLetters).where(sql`${t.deadLetters.body} LIKE ${`%${id}%`}`),
    // Before the webhooks they belong to (their foreign key cascades too).
    db
      .delete(t.webhookDeliveries)
      .where(inArray(t.webhookDeliveries.webhookId, db.select({ id: t.webhooks.id }).from(t.webhooks).where(eq(t.webhooks.userId, id)))),
    ...ACCOUNT_TABLES.map((table) => db.delete(table).where(eq(table.userId, id))),
    // The teams the account owns alone (their memberships, invitations and activity cascade). One
    // someone joined since the check above stays, and its owner_id then refuses the user's
    // DELETE: the whole transaction rolls back rather than leave members without an owner.
    db.delete(t.teams).where(
      and(
        eq(t.teams.ownerId, id),
        notExists(
          db
            .select({ one: sql`1` })
            .from(t.teamMembers)
            .where(and(eq(t.teamMembers.teamId, t.teams.id), ne(t.teamMembers.userId, id))),
        ),
      ),
    ),
    db.delete(t.users).where(eq(t.users.id, id)),
  ]);
}

// The tables whose rows belong to one account (user_id), deleted with it. Their foreign keys
// cascade too; deleting them by name keeps the list readable and independent of that.
const ACCOUNT_TABLES = [
  schema.sessions,
  schema.deviceAuthorizations,
  schema.oneTimeTokens,
  schema.userProfiles,
  schema.subscriptions,
  schema.checkoutSessions,
  schema.usageRollup,
  schema.usageAccounts,
  schema.downloadHistory,
  schema.budgets,
  schema.budgetCaps,
  schema.alertRules,
  schema.webhooks,
  schema.dataExports,
  schema.twoFactor,
  schema.twoFactorRecoveryCodes,
  schema.passkeys,
  schema.passkeyChallenges,
  schema.apiKeys,
  schema.teamMembers,
] as const;
