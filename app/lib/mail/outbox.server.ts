// The local outbox: e-mails (to an address) and text messages (to an E.164 number) that a real
// provider would have sent.
import { desc, eq } from "drizzle-orm";
import type { Db } from "../db.server";
import { schema } from "../db.server";

export async function listOutbox(db: Db, to?: string | null, limit = 100) {
  return db
    .select({
      id: schema.outbox.id,
      channel: schema.outbox.channel,
      to: schema.outbox.to,
      subject: schema.outbox.subject,
      text: schema.outbox.text,
      links: schema.outbox.links,
      createdAt: schema.outbox.createdAt,
    })
    .from(schema.outbox)
    .where(to ? eq(schema.outbox.to, to.toLowerCase()) : undefined)
    .orderBy(desc(schema.outbox.createdAt))
    .limit(limit);
}
