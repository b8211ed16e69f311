// The queue's contract: every message on the "events" queue. Producers (the site) validate and
// enqueue; the consumer Worker parses every message with these schemas before acting on it. No
// rule here depends on the time of parsing: a retry hours later must parse the same way.
import { MARKETING, PERSON_NAME, SIGN_UP, USAGE_API } from "../constants";
import { COUNTRY_CODE } from "../country";
import { MARKETING_EVENTS } from "../marketing/events";
import { E164_PATTERN } from "../phone/code";
import { emailAddress } from "../email-address";
import { z } from "../zod";
import { queuedSecureReportSchema, queuedUsageReportSchema } from "../usage/report";
import { alertEventSchema } from "../alerts/events";

const mailMessageSchema = z.object({
  type: z.literal("mail.send"),
  id: z.uuid(),
  to: emailAddress(),
  subject: z.string().min(1).max(300),
  text: z.string().min(1).max(20_000),
  links: z.array(z.url()).max(10),
  /** Where a reply goes (a support message's sender), when not to our no-reply sender. */
  replyTo: emailAddress().optional(),
});

// A text message: to an E.164 number (what normalisePhone makes of a profile's number), at most
// 1600 characters (the longest concatenated SMS providers accept).
const smsMessageSchema = z.object({
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
const stripeEventMessageSchema = z.object({
  type: z.literal("stripe.event"),
  eventId: stripeId,
  eventType: z.string().min(1).max(100),
  subscriptionId: stripeId.nullable(),
  customerId: stripeId.nullable(),
  userId: z.string().max(64).nullable(),
});

// The team the sending device key reports under (ADR 0038), as its session said when the API took
// the report; the consumer counts it for the team only if the sender is still a member then.
const teamId = z.string().min(1).max(64).nullish();

// One validated usage report of one user, as accepted by the API; the consumer also sends one
// again alone when it fails while sharing a usage.reports message with others.
const usageMessageSchema = z.object({
  type: z.literal("usage.report"),
  userId: z.string().min(1).max(64),
  receivedAt: z.number().int().positive(),
  report: queuedUsageReportSchema,
  // The device key (desktop session id) that sent it; absent in messages of older versions.
  deviceId: z.string().min(1).max(64).nullish(),
  // The request's country as Cloudflare saw it (two letters, or T1 for Tor).
  country: z.string().regex(COUNTRY_CODE).nullish(),
  teamId,
});

// A request's reports, for one account, in one message (ADR 0020): the API answers a request of up
// to 100 reports with one message (more only when it is large), so the queue's ceiling of 5,000
// messages/s per queue is not a ceiling on reports. The consumer reads each report on its own, so
// a malformed or poison report is dead-lettered or retried alone (as a usage.report of its own).
const usageReportsMessageSchema = z.object({
  type: z.literal("usage.reports"),
  userId: z.string().min(1).max(64),
  receivedAt: z.number().int().positive(),
  reports: z.array(z.unknown()).min(1).max(USAGE_API.maxReportsPerRequest),
  deviceId: z.string().min(1).max(64).nullish(),
  country: z.string().regex(COUNTRY_CODE).nullish(),
  teamId,
});

const secureUsageMessageSchema = z.object({
  type: z.literal("usage.secure"),
  userId: z.string().min(1).max(64),
  receivedAt: z.number().int().positive(),
  report: queuedSecureReportSchema,
  teamId,
});

// The forms' rule, so every accepted form is a valid message.
const accountEmail = emailAddress();
const hexDigest = z.string().regex(/^[0-9a-f]{64}$/);
const passwordHash = z.string().regex(/^pbkdf2_sha256\$\d{1,6}\$[A-Za-z0-9_-]{1,64}\$[A-Za-z0-9_-]{1,128}$/);

// A valid sign-up form. The site answers every sign-up the same way, whether the address has an
// account or not, and leaves the lookup to the consumer, so neither the answer, its headers, its
// timing nor its database work tells anyone which addresses are registered. Only hashes travel.
const signUpMessageSchema = z.object({
  type: z.literal("account.signup"),
  id: z.uuid(),
  email: accountEmail,
  passwordHash,
  // The browser that submitted the form holds the nonce behind this hash in an HttpOnly cookie.
  proofHash: hexDigest,
  metadata: z.object({
    first_name: z.string().max(PERSON_NAME.maxLength),
    last_name: z.string().max(PERSON_NAME.maxLength),
    initial: z.string().max(SIGN_UP.middleInitialMaxLength).nullable(),
    phone_number: z.string().max(40),
    security_question: z.string().max(64),
    security_answer_hash: passwordHash,
  }),
  origin: z.url(),
  submittedAt: z.number().int().positive(),
});

// A forgot-password request, answered generically by the site for the same reason.
const recoveryMessageSchema = z.object({
  type: z.literal("account.recovery"),
  id: z.uuid(),
  email: accountEmail,
  origin: z.url(),
});

// One first-party marketing event (lib/marketing/events.ts): no personal data beyond a user id.
const marketingEventMessageSchema = z.object({
  type: z.literal("marketing.event"),
  name: z.enum(MARKETING_EVENTS),
  occurredAt: z.number().int().positive(),
  userId: z.string().min(1).max(64).nullable(),
  path: z.string().startsWith("/").max(MARKETING.pathMax).nullable(),
  dedupeKey: z.string().min(1).max(200).nullable(),
});

// "Download my data" (issue 29): the consumer gathers the account's data into one JSON file in R2.
// `origin`: the site the export was asked on, for the "ready" mail's link to the profile (the
// consumer has no public URL of its own); absent in messages queued before it was added.
const accountExportMessageSchema = z.object({
  type: z.literal("account.export"),
  exportId: z.uuid(),
  userId: z.string().min(1).max(64),
  origin: z.url().optional(),
});

// One alert to one of the account's webhooks (ADR 0033): the consumer reads the webhook (it may
// have been removed since), signs the event with its secret and POSTs it; a failed attempt is
// retried by the queue with a growing delay, and the last one ends as a dead letter.
const webhookMessageSchema = z.object({
  type: z.literal("webhook.deliver"),
  userId: z.string().min(1).max(64),
  webhookId: z.uuid(),
  event: alertEventSchema,
});

export const queueMessageSchema = z.discriminatedUnion("type", [
  accountExportMessageSchema,
  marketingEventMessageSchema,
  mailMessageSchema,
  smsMessageSchema,
  stripeEventMessageSchema,
  usageMessageSchema,
  usageReportsMessageSchema,
  secureUsageMessageSchema,
  signUpMessageSchema,
  recoveryMessageSchema,
  webhookMessageSchema,
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
export type AccountExportMessage = z.infer<typeof accountExportMessageSchema>;
export type MarketingEventMessage = z.infer<typeof marketingEventMessageSchema>;
export type WebhookMessage = z.infer<typeof webhookMessageSchema>;
/** A message as a producer hands it to enqueue: before the schemas' defaults are filled in. */
export type OutgoingMessage = z.input<typeof queueMessageSchema>;
