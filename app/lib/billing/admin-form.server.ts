// The admin tools' form (/dashboard/admin), as its action reads it. Apart from the route because
// a zod schema built at a module's top level stays in the browser's bundle of the module: the
// route's own bundle would load zod for nothing (issue 31).
import { AUTH_MESSAGES } from "../auth/messages";
import { emailAddress } from "../email-address";
import { z } from "../zod";
import { ADMIN_STATUSES } from "./statuses";

const email = emailAddress({ invalid: AUTH_MESSAGES.invalidEmail });
export const adminToolsFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("lookup"), email }),
  // The grant asks first: only a POST that says confirm=yes grants (the confirmation's button).
  z.object({ intent: z.literal("grant-year"), email, confirm: z.literal("yes").optional() }),
  z.object({ intent: z.literal("sync"), email }),
  z.object({ intent: z.literal("set-status"), email, status: z.enum(ADMIN_STATUSES, { error: "Choose one of the listed statuses." }) }),
  z.object({ intent: z.literal("sign-out-everywhere"), email }),
]);
