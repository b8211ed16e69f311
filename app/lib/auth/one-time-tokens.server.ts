// Single-use e-mail link tokens: random, stored only as SHA-256 hashes, expiring.
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { randomToken, sha256Hex } from "../crypto";
import type { Db } from "../db.server";
import { schema } from "../db.server";

// email_change_cancel: the link in the notice to the current address that cancels a pending change.
export type OneTimeTokenType = "signup" | "recovery" | "email_change" | "email_change_cancel";

type IssueOptions = { proofHash?: string | null; now?: number };

/** A new token and the INSERT that stores its hash, for callers that batch it with other writes. */
export async function prepareOneTimeToken(
  db: Db,
  userId: string,
  type: OneTimeTokenType,
  ttlMs: number,
  { proofHash = null, now = Date.now() }: IssueOptions = {},
) {
  const token = randomToken();
  const insert = db.insert(schema.oneTimeTokens).values({
    id: crypto.randomUUID(),
    userId,
    type,
    tokenHash: await sha256Hex(token),
    proofHash,
    expiresAt: now + ttlMs,
    createdAt: now,
  });
  return { token, insert };
}

export async function issueOneTimeToken(db: Db, userId: string, type: OneTimeTokenType, ttlMs: number, options: IssueOptions = {}) {
  const { token, insert } = await prepareOneTimeToken(db, userId, type, ttlMs, options);
  await insert;
  return token;
}

/** An unused, unexpired token's owner (and, for sign-up links, its browser proof), without using it up. */
export async function peekOneTimeToken(
  db: Db,
  type: OneTimeTokenType,
  token: string,
  now = Date.now(),
): Promise<{ userId: string; proofHash: string | null } | null> {
  const row = await db.query.oneTimeTokens.findFirst({
    where: and(
      eq(schema.oneTimeTokens.tokenHash, await sha256Hex(token)),
      eq(schema.oneTimeTokens.type, type),
      isNull(schema.oneTimeTokens.usedAt),
      gt(schema.oneTimeTokens.expiresAt, now),
    ),
    columns: { userId: true, proofHash: true },
  });
  return row ?? null;
}

/** Uses the token up in one conditional UPDATE, so two clicks cannot both succeed. */
export async function consumeOneTimeToken(db: Db, type: OneTimeTokenType, token: string, now = Date.now()): Promise<string | null> {
  const rows = await db
    .update(schema.oneTimeTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(schema.oneTimeTokens.tokenHash, await sha256Hex(token)),
        eq(schema.oneTimeTokens.type, type),
        isNull(schema.oneTimeTokens.usedAt),
        gt(schema.oneTimeTokens.expiresAt, now),
      ),
    )
    .returning({ userId: schema.oneTimeTokens.userId });
  return rows[0]?.userId ?? null;
}

export async function latestTokenIssuedAt(db: Db, userId: string, type: OneTimeTokenType): Promise<number | null> {
  const row = await db.query.oneTimeTokens.findFirst({
    where: and(eq(schema.oneTimeTokens.userId, userId), eq(schema.oneTimeTokens.type, type)),
    orderBy: desc(schema.oneTimeTokens.createdAt),
  });
  return row?.createdAt ?? null;
}

/** A new recovery link (or new sign-up credentials) makes older unused links worthless. */
export function expireUnusedTokens(db: Db, userId: string, type: OneTimeTokenType, now = Date.now()) {
  return db
    .update(schema.oneTimeTokens)
    .set({ usedAt: now })
    .where(and(eq(schema.oneTimeTokens.userId, userId), eq(schema.oneTimeTokens.type, type), isNull(schema.oneTimeTokens.usedAt)));
}
