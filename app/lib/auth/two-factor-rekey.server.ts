// The hourly cron's share of a TWO_FACTOR_KEY rotation (ADR 0026, docs/runbook.md). An
// authenticator secret must stay readable for as long as two-factor is on, which may be years, so
// it cannot simply wait for its key to age out as a token does: each run re-encrypts a batch of
// the secrets not yet under the current key, and once it reports none remaining the previous key
// can be deleted.
import { and, count, eq, sql } from "drizzle-orm";
import { type Db, schema } from "../db.server";
import { type Keyring, keyId } from "../keys";
import { decryptSecret, encryptSecret } from "./two-factor-secret";

const t = schema.twoFactor;
/** Rows a run re-encrypts: one statement each, well inside a cron invocation's 1,000 D1 queries. */
const REKEY_BATCH = 100;

export type RekeyReport = { reencrypted: number; unreadable: number; remaining: number };

/** Re-encrypts up to REKEY_BATCH secrets under the current key; null when no previous key is set (nothing to move). */
export async function reencryptTwoFactorSecrets(db: Db, keys: Keyring): Promise<RekeyReport | null> {
  if (!keys.previous) return null;
  const prefix = `${await keyId(keys.current)}.`;
  // substr, not LIKE: a key id may hold "_", which LIKE reads as a wildcard.
  const notCurrent = sql`substr(${t.secretEnc}, 1, ${prefix.length}) <> ${prefix}`;
  const rows = await db.select({ userId: t.userId, secretEnc: t.secretEnc }).from(t).where(notCurrent).limit(REKEY_BATCH);
  let unreadable = 0;
  const updates = [];
  for (const row of rows) {
    let clear: string;
    try {
      clear = await decryptSecret(keys, row.secretEnc);
    } catch {
      // Under a key older than the previous one: nobody can read it any more (runbook).
      unreadable++;
      continue;
    }
    const secretEnc = await encryptSecret(keys, clear);
    // Only if unchanged since the read: a setup started meanwhile keeps its new secret.
    updates.push(
      db
        .update(t)
        .set({ secretEnc })
        .where(and(eq(t.userId, row.userId), eq(t.secretEnc, row.secretEnc))),
    );
  }
  const [first, ...rest] = updates;
  const results = first ? await db.batch([first, ...rest]) : [];
  const reencrypted = results.reduce((sum, result) => sum + result.meta.changes, 0);
  const [left] = await db.select({ n: count() }).from(t).where(notCurrent);
  return { reencrypted, unreadable, remaining: left?.n ?? 0 };
}
