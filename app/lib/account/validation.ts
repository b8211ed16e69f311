// The "Delete my account" form, checked the same way in the browser and on the server.
import { TWO_FACTOR } from "../constants";
import { z } from "../zod";
import { DELETION_MESSAGES as M } from "./messages";

export const deleteAccountSchema = z.object({
  password: z.string({ error: M.passwordRequired }).min(1, M.passwordRequired).max(1024),
  // A 6-digit code or a recovery code; asked only when the account has two-factor on.
  code: z
    .string()
    .trim()
    .max(TWO_FACTOR.codeMaxLength)
    .regex(/^[A-Za-z0-9-]*$/, M.codeWrong)
    .optional(),
});
