// "E-mail me the link" (issue 46): on a phone or tablet, where no build runs, the Downloads page
// sends the account's own confirmed address a link to itself, to open on a computer. Our own
// text and our own page only (a signed installer link would expire before it is read); capped
// per account by one atomic counter, so a burst of requests sends at most the cap.
import { eq } from "drizzle-orm";
import { DOWNLOAD } from "../constants";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { overCap } from "../limits/counters.server";
import { log } from "../log/log.server";
import { enqueueMail } from "../mail/mail.server";
import { downloadLinkMail } from "../mail/templates";
import { z } from "../zod";

/** The form that asks for it: a button and nothing else the server would read. */
export const emailLinkFormSchema = z.object({ intent: z.literal("email-link") });

export type EmailLinkOutcome = { ok: true; to: string } | { ok: false; reason: "unconfirmed" } | { ok: false; reason: "too-many"; retryAfterSeconds: number };

const DOWNLOADS_PAGE = "/dashboard/downloads";

export async function emailDownloadLink(deps: { db: Db; queue: Queue; origin: string }, userId: string, now = Date.now()): Promise<EmailLinkOutcome> {
  // The address as stored now, not as the session read it: only the inbox that proved itself.
  const user = await deps.db.query.users.findFirst({ where: eq(schema.users.id, userId), columns: { email: true, emailConfirmedAt: true } });
  if (!user || user.emailConfirmedAt === null) return { ok: false, reason: "unconfirmed" };
  const wait = await overCap(deps.db, `download-link:user:${userId}`, DOWNLOAD.emailLinkPerUser, now);
  if (wait !== null) return { ok: false, reason: "too-many", retryAfterSeconds: wait };
  await enqueueMail(deps.queue, downloadLinkMail(user.email, new URL(DOWNLOADS_PAGE, deps.origin).toString()));
  log.info("download_link_mailed");
  return { ok: true, to: user.email };
}
