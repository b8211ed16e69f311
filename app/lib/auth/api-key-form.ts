// The API-keys page's forms (issue 49): making a key (its name, and "Confirm it's you" while the
// session has no recent proof) and revoking one. Shared by the route's action and the page's
// conform form, so the browser and the server read the fields alike.
import { API_KEYS } from "../constants";
import { z } from "../zod";

const NAME_REQUIRED = "Name the key, e.g. after the script that uses it.";

export const createApiKeySchema = z.object({
  intent: z.literal("create"),
  name: z.string({ error: NAME_REQUIRED }).trim().min(1, NAME_REQUIRED).max(API_KEYS.nameMaxLength, `Use at most ${API_KEYS.nameMaxLength} characters.`),
  password: z.string().max(1024).optional(),
  code: z.string().max(64).optional(),
});

export const revokeApiKeySchema = z.object({ intent: z.literal("revoke"), id: z.uuid() });
