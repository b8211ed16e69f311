// Sending a support message: capped per client address and per sender address on atomic D1
// counters (counted before anything is stored, so a burst cannot slip through), stored, mailed to
// the support mailbox and acknowledged to the sender (quoting the message only to a signed-in
// sender's confirmed address, lib/support/mail.ts). Admins list and close messages.
import { and, desc, eq, sql } from "drizzle-orm";
import { ipSubject } from "../auth/lockout";
import { SUPPORT } from "../constants";
import { sha256Hex } from "../crypto";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { overCap } from "../limits/counters.server";
import { enqueueMail } from "../mail/mail.server";
import { recordMarketingEvents } from "../marketing/events.server";
import { supportAcknowledgementMail, supportCopyMail, supportInboxMail } from "./mail";
import type { SupportMessageForm } from "./validation";

const table = schema.supportMessages;

export type SupportDeps = { db: Db; queue: Queue; origin: string; ip: string | null; inbox: string };
export type SendResult = { ok: true; id: string } | { ok: false; status: 429; retryAfterSeconds: number };

/** The signed-in sender: their account id and its confirmed address. */
export type SupportSender = { id: string; email: string };

export async function sendSupportMessage(deps: SupportDeps, form: SupportMessageForm, sender: SupportSender | null, now = Date.now()): Promise<SendResult> {
  const { db } = deps;
  const userId = sender?.id ?? null;
  const waits = await Promise.all([
    deps.ip ? overCap(db, `support:ip:${ipSubject(deps.ip)}`, SUPPORT.perIp, now) : null,
    overCap(db, `support:address:${await sha256Hex(form.email)}`, SUPPORT.perAddress, now),
  ]);
  const over = waits.filter((w): w is number => w !== null);
  if (over.length > 0) return { ok: false, status: 429, retryAfterSeconds: Math.max(...over) };
  const id = crypto.randomUUID();
  await db.insert(table).values({ id, userId, ...form, createdAt: now });
  const adminLink = `${deps.origin}/dashboard/admin/support?message=${id}`;
  const contactLink = `${deps.origin}/?modal=contact`;
  const proved = sender !== null && sender.email.toLowerCase() === form.email;
  await Promise.all([
    enqueueMail(deps.queue, supportInboxMail(deps.inbox, form, { id, userId, adminLink })),
    enqueueMail(deps.queue, proved ? supportCopyMail(form, contactLink) : supportAcknowledgementMail(form.email, contactLink)),
    recordMarketingEvents(deps.queue, [{ name: "Lead", userId, dedupeKey: `Lead:${id}` }], now),
  ]);
  return { ok: true, id };
}

export type SupportRow = typeof table.$inferSelect;

/** Open messages (or closed ones), newest first. */
export async function listSupportMessages(db: Db, status: "open" | "closed", limit = 50): Promise<SupportRow[]> {
  return db.select().from(table).where(eq(table.status, status)).orderBy(desc(table.createdAt)).limit(limit);
}

/** Closes an open message; false when it is unknown or already closed. Audited by the caller's batch. */
export async function closeSupportMessage(db: Db, input: { id: string; adminId: string }, now = Date.now()): Promise<boolean> {
  const [closed] = await db.batch([
    db
      .update(table)
      .set({ status: "closed", closedAt: now, closedBy: input.adminId })
      .where(and(eq(table.id, input.id), eq(table.status, "open")))
      .returning({ id: table.id }),
    db.insert(schema.auditLog).select(
      db
        .select({
          id: sql`${crypto.randomUUID()}`.as("id"),
          actorUserId: sql`${input.adminId}`.as("actor_user_id"),
          targetUserId: table.userId,
          action: sql`'support.close'`.as("action"),
          details: sql`json_object('messageId', ${input.id})`.as("details"),
          createdAt: sql`${now}`.as("created_at"),
        })
        .from(table)
        .where(and(eq(table.id, input.id), eq(table.closedAt, now), eq(table.closedBy, input.adminId))),
    ),
  ]);
  return closed.length === 1;
}
