// Messages on the "events" queue. Producers (the site) validate and enqueue; the consumer
// Worker parses every message with these schemas before acting on it.
import { z } from "zod";

export const mailMessageSchema = z.object({
  type: z.literal("mail.send"),
  id: z.uuid(),
  to: z.email(),
  subject: z.string().min(1).max(300),
  text: z.string().min(1).max(20_000),
  links: z.array(z.url()).max(10),
});

export const queueMessageSchema = z.discriminatedUnion("type", [mailMessageSchema]);

export type MailMessage = z.infer<typeof mailMessageSchema>;
export type QueueMessage = z.infer<typeof queueMessageSchema>;
