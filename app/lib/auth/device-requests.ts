// The device authorization grant's requests (RFC 8628) as the API reads them. Apart from
// device-codes.ts because zod schemas built at a module's top level stay in every bundle that
// imports the module: /device imports the codes and messages, and must not load zod (issue 31).
import { DEVICE_AUTH } from "../constants";
import { z } from "../zod";
import { DEVICE_CODE_GRANT, DEVICE_PLATFORMS } from "./device-codes";

// Shown to the user on /device and in the devices list: no control or bidirectional-override
// characters, which could make one device's name look like another's. The control characters
// (Unicode's Cc) are spelled as ranges, not \p{Cc}: the pattern goes into the OpenAPI document,
// and JSON Schema tools outside JavaScript (Python's re, for one) cannot read \p{…}.
const text = (field: string, max: number) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it refuses
    .regex(/^[^\x00-\x1F\x7F-\x9F\u202A-\u202E\u2066-\u2069]*$/, `${field} must not contain control characters`);

/** POST /api/v1/auth/device: the app names itself. */
export const deviceAuthorizationRequestSchema = z.object({
  client_id: z.string({ error: "client_id is required" }).meta({ example: DEVICE_AUTH.clientId }),
  device_name: text("device_name", 100).meta({ description: "The computer's name, as the user knows it", example: "Ada's MacBook Pro" }),
  platform: z.enum(DEVICE_PLATFORMS, { error: "platform must be windows, macos or linux" }),
  app_version: text("app_version", 50).meta({ example: "1.4.2" }),
  app_instance_id: text("app_instance_id", 100).meta({ description: "Stable per installation; a new sign-in of the same installation replaces its key" }),
});

/** POST /api/v1/auth/token with the device code grant: the app polls for its tokens. */
export const deviceTokenRequestSchema = z.object({
  grant_type: z.literal(DEVICE_CODE_GRANT),
  device_code: z.string({ error: "device_code is required" }).min(1, "device_code is required").max(200, "device_code is invalid"),
  client_id: z.string({ error: "client_id is required" }),
});
