// The admins hear of new dead letters by e-mail, at most once per DEAD_LETTERS.alertWindowMs: the
// first dead letter of a window counts 1 in an atomic D1 counter (lib/limits/counters.server.ts)
// and only that count sends, so a burst across many batches and consumers mails once. The mail
// goes through the queue like every other (and if it dies itself, the counter stops a loop).
import { and, eq, gte, isNotNull, sql } from "drizzle-orm";
import { DEAD_LETTERS } from "../constants";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { clearCounter, countEvent } from "../limits/counters.server";
import { log } from "../log/log.server";
import { enqueueMails, type OutgoingMail } from "../mail/mail.server";

const ALERT_COUNTER = "alert:dead-letters";

/** The alert's text: how many of which kind, and where to act. No account, address or content. */
function deadLetterAlertMail(to: string, kinds: Array<{ kind: string; count: number }>): OutgoingMail {
  const total = kinds.reduce((sum, k) => sum + k.count, 0);
  return {
    to,
    subject: `Modelify: ${total} queue message${total === 1 ? "" : "s"} dead-lettered`,
    text: [
      `${total} queue message${total === 1 ? "" : "s"} failed for good in the last hour:`,
      ...kinds.map((k) => `- ${k.kind}: ${k.count}`),
      "",
      "Replay or discard them under Dashboard → Dead Letters. Others arriving within the hour are listed there without another e-mail.",
    ].join("\n"),
    links: [],
  };
}

/** Mails the admins if this is the first dead letter of the window; true when it did. */
export async function alertAdminsOfDeadLetters(deps: { db: Db; queue: Queue }, now = Date.now()): Promise<boolean> {
  const { count } = await countEvent(deps.db, ALERT_COUNTER, DEAD_LETTERS.alertWindowMs, now);
  if (count !== 1) return false;
  try {
    const kind = sql<string>`json_extract(${schema.deadLetters.body}, '$.kind')`;
    const [admins, kinds] = await Promise.all([
      deps.db
        .select({ email: schema.users.email })
        .from(schema.users)
        .where(and(eq(schema.users.role, "admin"), isNotNull(schema.users.emailConfirmedAt))),
      deps.db
        .select({ kind, count: sql<number>`count(*)` })
        .from(schema.deadLetters)
        .where(gte(schema.deadLetters.createdAt, now - DEAD_LETTERS.alertWindowMs))
        .groupBy(kind)
        .orderBy(kind),
    ]);
    if (admins.length === 0 || kinds.length === 0) return false;
    await enqueueMails(
      deps.queue,
      admins.map((admin) => deadLetterAlertMail(admin.email, kinds)),
    );
    log.info("dead_letter_alert_sent", { admins: admins.length });
    return true;
  } catch (error) {
    // Give the window back: the next dead letter tries again.
    await clearCounter(deps.db, ALERT_COUNTER);
    log.error("dead_letter_alert_failed", {}, error);
    return false;
  }
}
