// The one SMS port, like the mail port: producers call enqueueSms; the consumer Worker calls
// deliverSms, which uses a Twilio-compatible HTTP API when SMS_* is configured and the local
// outbox otherwise.
import { eq } from "drizzle-orm";
import type { SmsConfig } from "../config";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { enqueue, type SmsMessage } from "../queue";

export type OutgoingSms = Omit<SmsMessage, "type" | "id">;

export async function enqueueSms(queue: Queue, sms: OutgoingSms): Promise<void> {
  const message: SmsMessage = { type: "sms.send", id: crypto.randomUUID(), ...sms };
  await enqueue(queue, message);
}

class SmsDeliveryError extends Error {}

type Provider = { url: string; sid: string; token: string; from: string };

function providerOf(config: SmsConfig): Provider | null {
  const { SMS_API_URL, SMS_ACCOUNT_SID, SMS_AUTH_TOKEN, SMS_FROM } = config;
  if (!SMS_API_URL || !SMS_ACCOUNT_SID || !SMS_AUTH_TOKEN || !SMS_FROM) return null;
  return { url: SMS_API_URL.replace(/\/+$/, ""), sid: SMS_ACCOUNT_SID, token: SMS_AUTH_TOKEN, from: SMS_FROM };
}

function basicAuth(user: string, password: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(`${user}:${password}`)) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

const claimId = (message: SmsMessage) => `sms:${message.id}`;

/**
 * Texts one message at most once. The queue delivers at least once and the provider has no
 * idempotency key, so the message is claimed in processed_messages (one INSERT, which only one
 * delivery can win) before it is sent; a failed send gives the claim back and throws, so the
 * queue retries. A delivery that dies between claim and send loses the text rather than sending
 * it twice: the user can ask for a new code once the old one has expired.
 */
export async function deliverSms(config: SmsConfig, db: Db, message: SmsMessage, fetcher: typeof fetch = fetch): Promise<void> {
  const claimed = await db
    .insert(schema.processedMessages)
    .values({ id: claimId(message), kind: "sms.send", processedAt: Date.now() })
    .onConflictDoNothing()
    .returning({ id: schema.processedMessages.id });
  if (claimed.length === 0) return;
  try {
    await send(config, db, message, fetcher);
  } catch (error) {
    await db.delete(schema.processedMessages).where(eq(schema.processedMessages.id, claimId(message)));
    throw error;
  }
}

async function send(config: SmsConfig, db: Db, message: SmsMessage, fetcher: typeof fetch) {
  const provider = providerOf(config);
  if (provider) {
    const response = await fetcher(`${provider.url}/2010-04-01/Accounts/${encodeURIComponent(provider.sid)}/Messages.json`, {
      method: "POST",
      headers: { authorization: basicAuth(provider.sid, provider.token), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ To: message.to, From: provider.from, Body: message.text }).toString(),
    });
    if (!response.ok) throw new SmsDeliveryError(`SMS provider answered ${response.status}`);
    return;
  }
  await db
    .insert(schema.outbox)
    .values({
      id: message.id,
      channel: "sms",
      to: message.to,
      subject: `SMS to ${message.to}`,
      text: message.text,
      links: message.links,
      createdAt: Date.now(),
    })
    .onConflictDoNothing();
}
