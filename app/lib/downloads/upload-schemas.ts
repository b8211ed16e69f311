// Publishing a build: the rules both sides check (the browser before it uploads, the Worker again).
// Apart from upload.ts because zod schemas built at a module's top level stay in every bundle that
// imports the module: the admin page imports upload.ts, and loads these only to publish (issue 31).
import { DOWNLOAD } from "../constants";
import { z } from "../zod";
import { DOWNLOAD_OPTIONS, VERSION_MAX_LENGTH, VERSION_PATTERN } from "./options";
import { formatBytes } from "./upload";

/** R2's own limit on part numbers; the size cap below allows far fewer. */
const MAX_PART_NUMBER = 10_000;

const OPTION_IDS = DOWNLOAD_OPTIONS.map((o) => o.id) as [string, ...string[]];

const versionSchema = z
  .string()
  .trim()
  .min(1, "Please enter a version.")
  .max(VERSION_MAX_LENGTH, `A version has at most ${VERSION_MAX_LENGTH} characters.`)
  .regex(VERSION_PATTERN, "A version looks like 1.4.0 or 1.4.0-beta.1.");

const optionIdSchema = z.enum(OPTION_IDS, { error: "Unknown build: choose one of the six download options." });

export const createUploadSchema = z.object({
  optionId: optionIdSchema,
  version: versionSchema,
  size: z
    .number({ error: "The file's size is missing." })
    .int()
    .min(1, "The file is empty.")
    .max(DOWNLOAD.maxInstallerBytes, `An installer may be at most ${formatBytes(DOWNLOAD.maxInstallerBytes)}.`),
});

/** Names one multipart upload: what it is for, its R2 key and R2's upload id. */
export const uploadRefSchema = z.object({
  optionId: optionIdSchema,
  version: versionSchema,
  key: z.string().min(1).max(300),
  uploadId: z.string().min(1).max(1024),
});

export const partQuerySchema = uploadRefSchema.extend({
  partNumber: z.coerce
    .number({ error: "The part number must be a number." })
    .int("The part number must be a whole number.")
    .min(1, "Part numbers start at 1.")
    .max(MAX_PART_NUMBER, `Part numbers go up to ${MAX_PART_NUMBER}.`),
});

export const completeUploadSchema = uploadRefSchema.extend({
  parts: z
    .array(z.object({ partNumber: z.number().int().min(1).max(MAX_PART_NUMBER), etag: z.string().min(1).max(200) }))
    .min(1, "No parts were uploaded.")
    .max(MAX_PART_NUMBER),
});

export type CreateUploadInput = z.infer<typeof createUploadSchema>;
export type UploadRef = z.infer<typeof uploadRefSchema>;
export type CompleteUploadInput = z.infer<typeof completeUploadSchema>;
