// Joining the waitlist. One INSERT … ON CONFLICT DO NOTHING decides whether this address is new,
// so the same address sent twice at once is stored once and mailed once. The answer depends only
// on the waitlist, never on whether the address already has an account.
import { sql } from "drizzle-orm";
import { EARLY_ACCESS } from "../constants";
import { ipSubject } from "../auth/lockout";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { overCap } from "../limits/counters.server";
import { enqueueMail } from "../mail/mail.server";
import { recordMarketingEvents } from "../marketing/events.server";
import { waitlistConfirmationMail } from "./mail";
import { priorityScore, type WaitlistForm } from "./waitlist";

export type JoinDeps = { db: Db; queue: Queue; origin: string; ip: string | null };
export type JoinResult = { status: "joined" | "already" } | { status: "limited"; retryAfterSeconds: number };

export async function joinWaitlist(deps: JoinDeps, form: WaitlistForm, now = Date.now()): Promise<JoinResult> {
  const { db } = deps;
  if (deps.ip) {
    const wait = await overCap(db, `waitlist:ip:${ipSubject(deps.ip)}`, EARLY_ACCESS.waitlistJoinsPerIp, now);
    if (wait !== null) return { status: "limited", retryAfterSeconds: wait };
  }

  const member = form.ref
    ? await db.query.userProfiles.findFirst({ where: sql`lower(${schema.userProfiles.username}) = lower(${form.ref})`, columns: { userId: true } })
    : undefined;
  const company = form.company || null;
  const { early, earlyPlaces } = EARLY_ACCESS.priority;
  // The early-place bonus is decided inside the INSERT: D1 runs statements one at a time, so
  // parallel joins around the last early place cannot all count themselves in.
  const score = priorityScore({ company, referredByMember: Boolean(member), place: Number.POSITIVE_INFINITY });
  const inserted = await db
    .insert(schema.waitlist)
    .values({
      id: crypto.randomUUID(),
      email: form.email,
      firstName: form.firstName,
      lastName: form.lastName,
      company,
      referredBy: form.ref ?? null,
      priorityScore: sql`${score} + CASE WHEN (SELECT count(*) FROM ${schema.waitlist}) < ${earlyPlaces} THEN ${early} ELSE 0 END`,
      createdAt: now,
    })
    .onConflictDoNothing({ target: schema.waitlist.email })
    .returning({ id: schema.waitlist.id });
  if (inserted.length === 0) return { status: "already" };
  await enqueueMail(deps.queue, waitlistConfirmationMail(form.email, `${deps.origin}/activate`));
  await recordMarketingEvents(deps.queue, [{ name: "WaitlistSubmission", dedupeKey: `WaitlistSubmission:${inserted[0]!.id}` }], now);
  return { status: "joined" };
}
