// The account's time zone as the profile and the dashboard's question change it (issue 48, ADR
// 0030): the profile row, then the usage ledger's history drawn again in the new zone.
import { eq } from "drizzle-orm";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { log } from "../log/log.server";
import { timeZoneSchema } from "../time-zone-schema";
import { ledgerFor, type LedgerNamespace } from "../usage/ledger/api";
import { z } from "../zod";
import { ensureProfile, type ProfileOwner } from "./profile.server";

/**
 * Draws the account's usage history again in its new zone at once. Should the ledger not answer,
 * its next read or report finds the profile's zone and redraws then: the change stands.
 */
export async function redrawUsage(ledgers: LedgerNamespace, userId: string, zone: string, now = Date.now()): Promise<void> {
  await ledgerFor(ledgers, userId)
    .setZone(zone, now)
    .catch((error: unknown) => log.error("usage_zone_change_failed", {}, error));
}

/** The dashboard's question, answered: count in the browser's zone ("use"), or keep the account's ("keep"). */
export const zoneAnswerSchema = z.object({
  answer: z.enum(["use", "keep"], { error: "Please choose one of the two answers." }),
  timeZone: timeZoneSchema("Your browser's time zone is not one we know.").unwrap(),
});

export type ZoneAnswer = z.infer<typeof zoneAnswerSchema>;

/** Remembers the answer (the question is asked once) and, for "use", moves the account to the browser's zone. */
export async function answerZoneQuestion(
  { db, ledgers }: { db: Db; ledgers: LedgerNamespace },
  owner: ProfileOwner & { profile: { timeZone: string } },
  answer: ZoneAnswer,
  now = Date.now(),
): Promise<void> {
  await ensureProfile(db, owner, now);
  const moves = answer.answer === "use" && answer.timeZone !== owner.profile.timeZone;
  await db
    .update(schema.userProfiles)
    .set({ timeZoneConfirmedAt: now, updatedAt: now, ...(moves ? { timezone: answer.timeZone } : {}) })
    .where(eq(schema.userProfiles.userId, owner.id));
  if (moves) await redrawUsage(ledgers, owner.id, answer.timeZone, now);
}
