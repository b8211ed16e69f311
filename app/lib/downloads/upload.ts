// Publishing a build from the admin area: the rules both sides share (the browser checks them
// before it uploads, the Worker checks them again). A build goes to R2 as a multipart upload in
// parts of DOWNLOAD.uploadPartBytes (R2 wants every part but the last the same size), then the
// Worker completes it and records the release.
import { DOWNLOAD } from "../constants";
import { z } from "../zod";
import { DOWNLOAD_OPTIONS, type DownloadOption, installerFileName, optionById, VERSION_MAX_LENGTH, VERSION_PATTERN } from "./options";

/** R2's own limit on part numbers; the size cap below allows far fewer. */
const MAX_PART_NUMBER = 10_000;

/** The most parts an installer of the largest allowed size can need. */
export const maxParts = (partBytes = DOWNLOAD.uploadPartBytes, maxBytes = DOWNLOAD.maxInstallerBytes) => Math.ceil(maxBytes / partBytes);

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

/**
 * Each upload gets a key of its own under the version's folder, so two admins uploading the same
 * version at once can never overwrite the file the other one published.
 */
export function uploadKey(option: DownloadOption, version: string, nonce: string): string {
  return `releases/${version}/upload-${nonce}/${installerFileName(option, version)}`;
}

/** Whether `key` is an upload key this site made for that option and version (never any other R2 object). */
export function isUploadKey(key: string, optionId: string, version: string): boolean {
  const option = optionById(optionId);
  if (!option) return false;
  const prefix = `releases/${version}/upload-`;
  const suffix = `/${installerFileName(option, version)}`;
  if (!key.startsWith(prefix) || !key.endsWith(suffix)) return false;
  return /^[0-9a-f-]{36}$/.test(key.slice(prefix.length, key.length - suffix.length));
}

/** The parts to complete with: numbered 1..n without gaps or repeats, else a message. */
export function checkPartList(parts: { partNumber: number }[]): string | null {
  const numbers = parts.map((p) => p.partNumber).sort((a, b) => a - b);
  for (let i = 0; i < numbers.length; i++) {
    if (numbers[i] !== i + 1) return `Part ${i + 1} is missing: every part from 1 to ${numbers.length} must be uploaded before completing.`;
  }
  return null;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${trim(bytes / (1024 * 1024 * 1024))} GB`;
  if (bytes >= 1024 * 1024) return `${trim(bytes / (1024 * 1024))} MB`;
  if (bytes >= 1024) return `${trim(bytes / 1024)} KB`;
  return `${bytes} B`;
}

function trim(n: number): string {
  return n.toFixed(1).replace(/\.0$/, "");
}
