// The Contact Support form: the same schema validates in the browser (conform) and on the server.
import { SUPPORT } from "../constants";
import { emailAddress } from "../email-address";
import { z } from "../zod";
import { SUPPORT_MESSAGES as M } from "./messages";

// Control characters are never part of what a person typed; a message may hold line breaks and
// tabs, a one-line field not even those (a line break in a subject could forge mail headers).
const CONTROL = /\p{Cc}/u;
const hasControl = (v: string, multiline: boolean) => CONTROL.test(multiline ? v.replace(/[\r\n\t]/g, "") : v);

function required(message: string, max: number, multiline = false) {
  return z
    .string({ error: message })
    .trim()
    .min(1, { error: message, abort: true })
    .max(max, { error: M.tooLong(max) })
    .refine((v) => !hasControl(v, multiline), { error: message });
}

export const supportMessageSchema = z.object({
  name: required(M.nameRequired, SUPPORT.nameMax),
  email: emailAddress({ required: M.emailRequired, invalid: M.emailInvalid }),
  subject: required(M.subjectRequired, SUPPORT.subjectMax),
  message: required(M.messageRequired, SUPPORT.messageMax, true),
  priority: z.enum(SUPPORT.priorities).default(SUPPORT.defaultPriority),
});

export type SupportMessageForm = z.infer<typeof supportMessageSchema>;
