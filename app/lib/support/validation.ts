// The Contact Support form: the same schema validates in the browser (conform) and on the server.
import { SUPPORT } from "../constants";
import { z } from "../zod";
import { SUPPORT_MESSAGES as M } from "./messages";

// Control characters other than line breaks and tabs are never part of what a person typed.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

function required(message: string, max: number, multiline = false) {
  return z
    .string({ error: message })
    .trim()
    .min(1, { error: message, abort: true })
    .max(max, { error: M.tooLong(max) })
    .refine((v) => !CONTROL.test(v) && (multiline || !/[\r\n]/.test(v)), { error: message });
}

export const supportMessageSchema = z.object({
  name: required(M.nameRequired, SUPPORT.nameMax),
  email: z
    .string({ error: M.emailRequired })
    .trim()
    .min(1, { error: M.emailRequired, abort: true })
    .max(254, { error: M.emailInvalid })
    .regex(/^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$/u, { error: M.emailInvalid })
    .transform((v) => v.toLowerCase()),
  subject: required(M.subjectRequired, SUPPORT.subjectMax),
  message: required(M.messageRequired, SUPPORT.messageMax, true),
  priority: z.enum(SUPPORT.priorities).default(SUPPORT.defaultPriority),
});

export type SupportMessageForm = z.infer<typeof supportMessageSchema>;
