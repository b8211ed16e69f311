// The one mail port. Producers call enqueueMail; the consumer Worker calls deliverMail, which
// uses the HTTP provider when MAIL_API_URL is configured and the local outbox otherwise.
import type { Db } from "../db.server";
import { schema } from "../db.server";
import type { MailConfig } from "../config";
import { enqueue, type MailMessage } from "../queue";

export type OutgoingMail = Omit<MailMessage, "type" | "id">;

export async function enqueueMail(queue: Queue, mail: OutgoingMail): Promise<void> {
  const message: MailMessage = { type: "mail.send", id: crypto.randomUUID(), ...mail };
  await enqueue(queue, message);
}

/** Several mails in as few queue calls as the queue's batch limits allow. */
export async function enqueueMails(queue: Queue, mails: OutgoingMail[]): Promise<void> {
  await enqueue(
    queue,
    mails.map((mail): MailMessage => ({ type: "mail.send", id: crypto.randomUUID(), ...mail })),
  );
}

class MailDeliveryError extends Error {}

export async function deliverMail(env: MailConfig, db: Db, mail: MailMessage, fetcher: typeof fetch = fetch): Promise<void> {
  if (env.MAIL_API_URL && env.MAIL_API_KEY) {
    // Resend-compatible JSON API. The idempotency key makes a redelivered queue message a no-op.
    const response = await fetcher(env.MAIL_API_URL, {
      method: "POST",
      headers: {
        authorization: `Bearer ${env.MAIL_API_KEY}`,
        "content-type": "application/json",
        "idempotency-key": mail.id,
      },
      body: JSON.stringify({ from: env.MAIL_FROM, to: [mail.to], subject: mail.subject, text: mail.text, ...(mail.replyTo ? { reply_to: mail.replyTo } : {}) }),
    });
    if (!response.ok) throw new MailDeliveryError(`Mail provider answered ${response.status}`);
    return;
  }
  await db
    .insert(schema.outbox)
    .values({ id: mail.id, to: mail.to, subject: mail.subject, text: mail.text, links: mail.links, createdAt: Date.now() })
    .onConflictDoNothing();
}
