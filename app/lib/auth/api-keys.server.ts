// Personal API keys (issue 49, ADR 0034): read-only keys a user makes for their own scripts, which
// read the account's usage through GET /api/v1/usage/summary and /requests. The rules in one place:
//
// - The secret is `mdl_live_` and API_KEYS.secretLength random base62 characters, shown once; D1
//   keeps its SHA-256 only (a 238-bit secret needs no slow hash: nothing can be guessed from it).
// - Making one adds a way to read the account, so it takes a RecentProof (ADR 0028) and mails the
//   owner; revoking one mails too. An account holds at most API_KEYS.maxPerAccount live keys,
//   counted by the statement that inserts, so parallel requests cannot make more.
// - A revoked key stops working at once: every request looks its hash up among live keys.
// - `last_used_at` is written at most once per API_KEYS.lastUsedIntervalMs (a conditional UPDATE),
//   not on every request.
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { API_KEYS } from "../constants";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { randomBytes, sha256Hex } from "../crypto";
import { log } from "../log/log.server";
import { enqueueMail } from "../mail/mail.server";
import { apiKeyCreatedMail, apiKeyRevokedMail } from "../mail/templates";
import { isTimeZone, UTC } from "../time-zone";
import { assertProofOf, type RecentProof } from "./recent-proof.server";
import { deviceLabel } from "./user-agent";

const keys = schema.apiKeys;

/** What making or revoking a key needs besides the database: the owner's mail, and where it came from. */
export type ApiKeyDeps = { db: Db; queue: Queue; origin: string; userAgent: string | null };
type Owner = { id: string; email: string };

/** The page that lists and revokes keys (the mails link it). */
export const API_KEYS_PAGE = "/dashboard/api-keys";

const BASE62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const KEY_SHAPE = new RegExp(`^${API_KEYS.prefix}[A-Za-z0-9]{${API_KEYS.secretLength}}$`);

/** A new secret: uniform base62 (bytes of 248 and above are drawn again, so no character is likelier). */
function newSecret(): string {
  let out = API_KEYS.prefix;
  while (out.length < API_KEYS.prefix.length + API_KEYS.secretLength) {
    for (const byte of randomBytes(API_KEYS.secretLength)) {
      if (byte < 248 && out.length < API_KEYS.prefix.length + API_KEYS.secretLength) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** Whether a bearer token is one of these keys (by its form: the desktop routes refuse it without a lookup). */
export function isApiKeyToken(token: string): boolean {
  return token.startsWith(API_KEYS.prefix);
}

export type CreatedApiKey = { id: string; name: string; prefix: string; secret: string };

/**
 * Makes a key for the proof's owner, unless they hold API_KEYS.maxPerAccount live keys already:
 * one INSERT … SELECT … WHERE, so the count and the insert cannot be split by a parallel request.
 */
export async function createApiKey(
  deps: ApiKeyDeps,
  owner: Owner,
  name: string,
  proof: RecentProof,
  now = Date.now(),
): Promise<{ ok: true; key: CreatedApiKey } | { ok: false; reason: "limit" }> {
  assertProofOf(proof, owner.id);
  const id = crypto.randomUUID();
  const secret = newSecret();
  const prefix = secret.slice(0, API_KEYS.shownLength);
  const hash = await sha256Hex(secret);
  const scopes = JSON.stringify(API_KEYS.scopes);
  const inserted = await deps.db.run(sql`
    INSERT INTO ${keys} (id, user_id, name, prefix, secret_hash, scopes, created_at)
    SELECT ${id}, ${owner.id}, ${name}, ${prefix}, ${hash}, ${scopes}, ${now}
    WHERE (SELECT count(*) FROM ${keys} WHERE user_id = ${owner.id} AND revoked_at IS NULL) < ${API_KEYS.maxPerAccount}`);
  if (inserted.meta.changes !== 1) return { ok: false, reason: "limit" };
  log.info("api_key_created", { userId: owner.id });
  await enqueueMail(deps.queue, apiKeyCreatedMail(owner.email, prefix, deviceLabel(deps.userAgent), new URL(API_KEYS_PAGE, deps.origin).toString()));
  return { ok: true, key: { id, name, prefix, secret } };
}

/**
 * Revokes one of the owner's live keys: it stops working with the next request. Another user's
 * key, or one already revoked, changes nothing (false). Takes no proof: taking a way in away is
 * what a worried owner must be able to do at once, as ending a session is.
 */
export async function revokeApiKey(deps: ApiKeyDeps, owner: Owner, id: string, now = Date.now()): Promise<boolean> {
  const rows = await deps.db
    .update(keys)
    .set({ revokedAt: now })
    .where(and(eq(keys.id, id), eq(keys.userId, owner.id), isNull(keys.revokedAt)))
    .returning({ prefix: keys.prefix });
  if (rows.length !== 1) return false;
  log.info("api_key_revoked", { userId: owner.id });
  await enqueueMail(deps.queue, apiKeyRevokedMail(owner.email, rows[0]!.prefix, deviceLabel(deps.userAgent), new URL(API_KEYS_PAGE, deps.origin).toString()));
  return true;
}

export type ApiKeyListing = {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
};

/** The owner's keys for the dashboard: live ones first, then revoked ones, newest first (never the hash). */
export async function listApiKeys(db: Db, userId: string): Promise<ApiKeyListing[]> {
  return db
    .select({
      id: keys.id,
      name: keys.name,
      prefix: keys.prefix,
      scopes: keys.scopes,
      createdAt: keys.createdAt,
      lastUsedAt: keys.lastUsedAt,
      revokedAt: keys.revokedAt,
    })
    .from(keys)
    .where(eq(keys.userId, userId))
    .orderBy(sql`${keys.revokedAt} IS NOT NULL`, desc(keys.createdAt))
    .limit(API_KEYS.maxPerAccount * 5);
}

/** Who a live key belongs to, in which time zone the account counts its days, and what it may do. */
export type ApiKeyHolder = { keyId: string; userId: string; zone: string; scopes: string[]; lastUsedAt: number | null };

/** The live key of a bearer token, or null (not one of ours, revoked, or its account deleted). */
export async function authenticateApiKey(db: Db, token: string): Promise<ApiKeyHolder | null> {
  if (!KEY_SHAPE.test(token)) return null;
  const hash = await sha256Hex(token);
  const [row] = await db
    .select({ keyId: keys.id, userId: keys.userId, scopes: keys.scopes, lastUsedAt: keys.lastUsedAt, zone: schema.userProfiles.timezone })
    .from(keys)
    .leftJoin(schema.userProfiles, eq(schema.userProfiles.userId, keys.userId))
    .where(and(eq(keys.secretHash, hash), isNull(keys.revokedAt)))
    .limit(1);
  if (!row) return null;
  return { ...row, zone: row.zone !== null && isTimeZone(row.zone) ? row.zone : UTC };
}

/** Whether a key's `last_used_at` is old enough to write again. */
export function lastUseDue(lastUsedAt: number | null, now: number): boolean {
  return lastUsedAt === null || now - lastUsedAt >= API_KEYS.lastUsedIntervalMs;
}

/** Records a use; the condition keeps parallel requests of one interval to one write that changes anything. */
export async function touchApiKey(db: Db, keyId: string, now = Date.now()): Promise<void> {
  await db
    .update(keys)
    .set({ lastUsedAt: now })
    .where(and(eq(keys.id, keyId), sql`(${keys.lastUsedAt} IS NULL OR ${keys.lastUsedAt} <= ${now - API_KEYS.lastUsedIntervalMs})`));
}
