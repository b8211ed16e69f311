// The queue's contract: every message on the "events" queue. Producers (the site) validate and
// enqueue; the consumer Worker parses every message with these schemas before acting on it. No
// rule here depends on the time of parsing: a retry hours later must parse the same way.
import { MARKETING, USAGE_API } from "./constants";
import { COUNTRY_CODE } from "./country";
import { MARKETING_EVENTS } from "./marketing/events";
import { E164_PATTERN } from "./phone/code";
import { z } from "./zod";
import { queuedSecureReportSchema, queuedUsageReportSchema, readQueuedUsageReport } from "./usage/report";

export const mailMessageSchema = z.object({
  type: z.literal("mail.send"),
  id: z.uuid(),
  to: z.email(),
  subject: z.string().min(1).max(300),
  text: z.string().min(1).max(20_000),
  links: z.array(z.url()).max(10),
  /** Where a reply goes (a support message's sender), when not to our no-reply sender. */
  replyTo: z.email().optional(),
});

// A text message: to an E.164 number (what normalisePhone makes of a profile's number), at most
// 1600 characters (the longest concatenated SMS providers accept).
export const smsMessageSchema = z.object({
  type: z.literal("sms.send"),
  id: z.uuid(),
  to: z.string().regex(E164_PATTERN),
  text: z.string().min(1).max(1600),
  links: z.array(z.url()).max(10),
});

const stripeId = z
  .string()
  .min(3)
  .max(255)
  .regex(/^[A-Za-z0-9_]+$/);

// A verified Stripe webhook: the event id (deduplication) and what it is about. The consumer
// re-reads the subscription from Stripe rather than trusting the event's copy of it.
export const stripeEventMessageSchema = z.object({
  type: z.literal("stripe.event"),
  eventId: stripeId,
  eventType: z.string().min(1).max(100),
  subscriptionId: stripeId.nullable(),
  customerId: stripeId.nullable(),
  userId: z.string().max(64).nullable(),
});

// One validated usage report (or fallback aggregate) of one user, as accepted by the API.
export const usageMessageRules = z.object({
  type: z.literal("usage.report"),
  userId: z.string().min(1).max(64),
  receivedAt: z.number().int().positive(),
  report: queuedUsageReportSchema,
  // The device key (desktop session id) that sent it; absent in messages of older versions.
  deviceId: z.string().min(1).max(64).nullish(),
  // The request's country as Cloudflare saw it (two letters, or T1 for Tor).
  country: z.string().regex(COUNTRY_CODE).nullish(),
});

// The consumer reads up to 100 of these per batch: the same rules by hand first (as for the
// report, readQueuedUsageReport), the schema for anything they do not accept outright.
export const usageMessageSchema = z.withParser(usageMessageRules, (input) => {
  if (typeof input !== "object" || input === null) return z.INVALID;
  const { type, userId, receivedAt, report } = input as Record<string, unknown>;
  if (type !== "usage.report" || typeof userId !== "string" || userId.length < 1 || userId.length > 64) return z.INVALID;
  if (!Number.isSafeInteger(receivedAt) || (receivedAt as number) < 1) return z.INVALID;
  const { deviceId, country } = input as Record<string, unknown>;
  if (deviceId != null && (typeof deviceId !== "string" || deviceId.length < 1 || deviceId.length > 64)) return z.INVALID;
  if (country != null && (typeof country !== "string" || !COUNTRY_CODE.test(country))) return z.INVALID;
  const parsed = readQueuedUsageReport(report);
  if (parsed === z.INVALID) return parsed;
  const message: z.output<typeof usageMessageRules> = { type: "usage.report" as const, userId, receivedAt: receivedAt as number, report: parsed };
  if (deviceId !== undefined) message.deviceId = deviceId as string | null;
  if (country !== undefined) message.country = country as string | null;
  return message;
});

// A request's reports, for one account, in one message (ADR 0020): the API answers a request of up
// to 100 reports with one message (more only when it is large), so the queue's ceiling of 5,000
// messages/s per queue is not a ceiling on reports. The consumer reads each report on its own, so
// a malformed or poison report is dead-lettered or retried alone (as a usage.report of its own).
export const usageReportsMessageSchema = z.object({
  type: z.literal("usage.reports"),
  userId: z.string().min(1).max(64),
  receivedAt: z.number().int().positive(),
  reports: z.array(z.unknown()).min(1).max(USAGE_API.maxReportsPerRequest),
  deviceId: z.string().min(1).max(64).nullish(),
  country: z.string().regex(COUNTRY_CODE).nullish(),
});

export const secureUsageMessageSchema = z.object({
  type: z.literal("usage.secure"),
  userId: z.string().min(1).max(64),
  receivedAt: z.number().int().positive(),
  report: queuedSecureReportSchema,
});

// The forms' rule (spec: an address contains @), so every accepted form is a valid message.
const accountEmail = z
  .string()
  .max(254)
  .regex(/^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u);
const hexDigest = z.string().regex(/^[0-9a-f]{64}$/);
const passwordHash = z.string().regex(/^pbkdf2_sha256\$\d{1,6}\$[A-Za-z0-9_-]{1,64}\$[A-Za-z0-9_-]{1,128}$/);

// A valid sign-up form. The site answers every sign-up the same way, whether the address has an
// account or not, and leaves the lookup to the consumer, so neither the answer, its headers, its
// timing nor its database work tells anyone which addresses are registered. Only hashes travel.
export const signUpMessageSchema = z.object({
  type: z.literal("account.signup"),
  id: z.uuid(),
  email: accountEmail,
  passwordHash,
  // The browser that submitted the form holds the nonce behind this hash in an HttpOnly cookie.
  proofHash: hexDigest,
  metadata: z.object({
    first_name: z.string().max(100),
    last_name: z.string().max(100),
    initial: z.string().max(10).nullable(),
    phone_number: z.string().max(40),
    security_question: z.string().max(64),
    security_answer_hash: passwordHash,
  }),
  origin: z.url(),
  submittedAt: z.number().int().positive(),
});

// A forgot-password request, answered generically by the site for the same reason.
export const recoveryMessageSchema = z.object({
  type: z.literal("account.recovery"),
  id: z.uuid(),
  email: accountEmail,
  origin: z.url(),
});

// One first-party marketing event (lib/marketing/events.ts): no personal data beyond a user id.
export const marketingEventMessageSchema = z.object({
  type: z.literal("marketing.event"),
  name: z.enum(MARKETING_EVENTS),
  occurredAt: z.number().int().positive(),
  userId: z.string().min(1).max(64).nullable(),
  path: z.string().startsWith("/").max(MARKETING.pathMax).nullable(),
  dedupeKey: z.string().min(1).max(200).nullable(),
});

export const queueMessageSchema = z.discriminatedUnion("type", [
  marketingEventMessageSchema,
  mailMessageSchema,
  smsMessageSchema,
  stripeEventMessageSchema,
  usageMessageSchema,
  usageReportsMessageSchema,
  secureUsageMessageSchema,
  signUpMessageSchema,
  recoveryMessageSchema,
]);

export type MailMessage = z.infer<typeof mailMessageSchema>;
export type SmsMessage = z.infer<typeof smsMessageSchema>;
export type StripeEventMessage = z.infer<typeof stripeEventMessageSchema>;
export type UsageMessage = z.input<typeof usageMessageSchema>;
export type UsageReportsMessage = z.input<typeof usageReportsMessageSchema>;
export type SecureUsageMessage = z.input<typeof secureUsageMessageSchema>;
export type QueueMessage = z.infer<typeof queueMessageSchema>;
export type SignUpMessage = z.infer<typeof signUpMessageSchema>;
export type RecoveryMessage = z.infer<typeof recoveryMessageSchema>;
export type MarketingEventMessage = z.infer<typeof marketingEventMessageSchema>;

// Queues accept at most 100 messages and 256 KB per sendBatch call.
const MAX_MESSAGES = 100;
const MAX_BATCH_BYTES = 250 * 1024;

// These messages travel in V8's structured-clone format (the Workers default): usage reports are
// sent on every request, and V8's format is the one neither side stringifies and parses again. A
// single message is one send() (the local queue parses a sendBatch's envelope as JSON and its
// bodies as base64; production treats both alike).
export async function enqueueAll(queue: Queue, bodies: unknown[]): Promise<void> {
  if (bodies.length === 1) {
    await queue.send(bodies[0], { contentType: "v8" });
    return;
  }
  let batch: MessageSendRequest[] = [];
  let bytes = 0;
  for (const body of bodies) {
    const size = v8Size(body) + 100;
    if (batch.length === MAX_MESSAGES || (batch.length > 0 && bytes + size > MAX_BATCH_BYTES)) {
      await queue.sendBatch(batch);
      batch = [];
      bytes = 0;
    }
    batch.push({ body, contentType: "v8" });
    bytes += size;
  }
  if (batch.length) await queue.sendBatch(batch);
}

// V8 stores a string with any character beyond Latin-1 at two bytes a character (JSON escapes those
// below a space): its JSON length, doubled then, bounds its size in the queue.
const TWO_BYTE = /[^ -\u00ff]/;
export function v8Size(value: unknown): number {
  const json = JSON.stringify(value) ?? "";
  return TWO_BYTE.test(json) ? json.length * 2 : json.length;
}

// Queues take at most 128 KB a message.
const MAX_MESSAGE_BYTES = 120 * 1024;

/**
 * One account's reports of one request as usage.reports messages: one, unless together they would
 * pass a message's size (reports carry up to 8 KB of metadata each).
 */
export function usageReportsMessages(head: Omit<UsageReportsMessage, "type" | "reports">, reports: unknown[]): UsageReportsMessage[] {
  const messages: UsageReportsMessage[] = [];
  let current: unknown[] = [];
  let bytes = 0;
  for (const report of reports) {
    const size = v8Size(report);
    if (current.length > 0 && bytes + size > MAX_MESSAGE_BYTES) {
      messages.push({ type: "usage.reports", ...head, reports: current });
      current = [];
      bytes = 0;
    }
    current.push(report);
    bytes += size;
  }
  if (current.length) messages.push({ type: "usage.reports", ...head, reports: current });
  return messages;
}
