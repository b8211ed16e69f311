// Messages on the "events" queue. Producers (the site) validate and enqueue; the consumer
// Worker parses every message with these schemas before acting on it.
import { z } from "zod";
import { secureReportSchema, usageReportSchema } from "./usage/report";

export const mailMessageSchema = z.object({
  type: z.literal("mail.send"),
  id: z.uuid(),
  to: z.email(),
  subject: z.string().min(1).max(300),
  text: z.string().min(1).max(20_000),
  links: z.array(z.url()).max(10),
});

const stripeId = z.string().min(3).max(255).regex(/^[A-Za-z0-9_]+$/);

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
export const usageMessageSchema = z.object({
  type: z.literal("usage.report"),
  userId: z.string().min(1).max(64),
  receivedAt: z.number().int().positive(),
  report: usageReportSchema(),
});

export const secureUsageMessageSchema = z.object({
  type: z.literal("usage.secure"),
  userId: z.string().min(1).max(64),
  receivedAt: z.number().int().positive(),
  report: secureReportSchema(),
});

export const queueMessageSchema = z.discriminatedUnion("type", [mailMessageSchema, stripeEventMessageSchema, usageMessageSchema, secureUsageMessageSchema]);

export type MailMessage = z.infer<typeof mailMessageSchema>;
export type StripeEventMessage = z.infer<typeof stripeEventMessageSchema>;
export type UsageMessage = z.input<typeof usageMessageSchema>;
export type SecureUsageMessage = z.input<typeof secureUsageMessageSchema>;
export type QueueMessage = z.infer<typeof queueMessageSchema>;
