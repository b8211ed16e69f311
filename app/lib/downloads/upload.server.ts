// The admin upload of a build: a multipart upload to R2 (create, parts, complete, abort), then the
// release is recorded by publishRelease, which reads size and SHA-256 from the stored file.
// Every step answers a result, never throws for bad input: the route turns it into JSON.
import { and, desc, eq } from "drizzle-orm";
import { DOWNLOAD } from "../constants";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { optionById } from "./options";
import { publishRelease, type Release, type ReleaseView } from "./releases.server";
import { checkPartList, formatBytes, isUploadKey, maxParts, uploadKey } from "./upload";
import type { CompleteUploadInput, CreateUploadInput, UploadRef } from "./upload-schemas";

export type Refusal = { ok: false; status: 400 | 404 | 409 | 411 | 413; message: string };

const refuse = (status: Refusal["status"], message: string): Refusal => ({ ok: false, status, message });

const NOT_OPEN = "This upload is no longer open (it was completed, aborted or never started). Please start the upload again.";

/** R2's message without its method prefix and error code, e.g. "One or more of the specified parts could not be found". */
function r2Reason(error: unknown): string {
  return String(error instanceof Error ? error.message : error)
    .replace(/^[a-zA-Z]+: /, "")
    .replace(/\s*\(\d+\)\s*$/, "")
    .slice(0, 200);
}
const isNoSuchUpload = (error: unknown) => /\(10024\)|does not exist|NoSuchUpload/i.test(String(error));

/** Every published build, newest first (the admin list; demo builds included and marked). */
export async function listReleases(db: Db): Promise<ReleaseView[]> {
  return db
    .select({
      id: schema.releases.id,
      optionId: schema.releases.optionId,
      platform: schema.releases.platform,
      architecture: schema.releases.architecture,
      version: schema.releases.version,
      fileName: schema.releases.fileName,
      byteSize: schema.releases.byteSize,
      sha256: schema.releases.sha256,
      recommended: schema.releases.recommended,
      demo: schema.releases.demo,
      publishedAt: schema.releases.publishedAt,
    })
    .from(schema.releases)
    .orderBy(desc(schema.releases.publishedAt))
    .limit(200);
}

async function publishedVersion(db: Db, optionId: string, version: string): Promise<Release | undefined> {
  return db.query.releases.findFirst({ where: and(eq(schema.releases.optionId, optionId), eq(schema.releases.version, version)) });
}

const alreadyPublished = (optionId: string, version: string) =>
  refuse(409, `${optionById(optionId)?.name ?? optionId} ${version} is already published. Choose a new version number.`);

export type CreatedUpload = { ok: true; key: string; uploadId: string; partBytes: number; parts: number };

/** Starts a multipart upload for a version that is not published yet. */
export async function createUpload(db: Db, bucket: R2Bucket, input: CreateUploadInput, nonce = crypto.randomUUID()): Promise<CreatedUpload | Refusal> {
  const option = optionById(input.optionId);
  if (!option) return refuse(400, "Unknown build: choose one of the six download options.");
  if (await publishedVersion(db, option.id, input.version)) return alreadyPublished(option.id, input.version);
  const key = uploadKey(option, input.version, nonce);
  const upload = await bucket.createMultipartUpload(key, { httpMetadata: { contentType: "application/octet-stream" } });
  return { ok: true, key: upload.key, uploadId: upload.uploadId, partBytes: DOWNLOAD.uploadPartBytes, parts: Math.ceil(input.size / DOWNLOAD.uploadPartBytes) };
}

/**
 * Streams one part (the request body, `length` bytes as declared by Content-Length) into the
 * multipart upload. Parts are at most DOWNLOAD.uploadPartBytes and numbered so that the whole
 * file stays within DOWNLOAD.maxInstallerBytes.
 */
export async function uploadPart(
  bucket: R2Bucket,
  ref: UploadRef & { partNumber: number },
  body: ReadableStream<Uint8Array> | null,
  length: number | null,
): Promise<{ ok: true; partNumber: number; etag: string } | Refusal> {
  if (!isUploadKey(ref.key, ref.optionId, ref.version)) return refuse(400, "This upload does not belong to that build and version.");
  if (ref.partNumber > maxParts())
    return refuse(413, `Part ${ref.partNumber} would make the installer larger than ${formatBytes(DOWNLOAD.maxInstallerBytes)}.`);
  if (length === null) return refuse(411, "Send each part with its Content-Length.");
  if (length > DOWNLOAD.uploadPartBytes) return refuse(413, `A part may be at most ${formatBytes(DOWNLOAD.uploadPartBytes)}.`);
  if (length === 0 || !body) return refuse(400, "The part is empty.");
  // A stream of known length, which R2 needs; it also fails if the body is not `length` bytes.
  const fixed = new FixedLengthStream(length);
  void body.pipeTo(fixed.writable).catch(() => {});
  try {
    const part = await bucket.resumeMultipartUpload(ref.key, ref.uploadId).uploadPart(ref.partNumber, fixed.readable);
    return { ok: true, partNumber: part.partNumber, etag: part.etag };
  } catch (error) {
    if (isNoSuchUpload(error)) return refuse(404, NOT_OPEN);
    return refuse(400, `The part could not be stored: ${r2Reason(error)}.`);
  }
}

/**
 * Assembles the parts into the file and records the release. Parallel completes of one upload
 * (a double click, a retry) publish once; the others are told it is already published.
 */
export async function completeUpload(
  db: Db,
  bucket: R2Bucket,
  input: CompleteUploadInput,
  publishedBy: string | null,
): Promise<{ ok: true; release: ReleaseView } | Refusal> {
  if (!isUploadKey(input.key, input.optionId, input.version)) return refuse(400, "This upload does not belong to that build and version.");
  const gap = checkPartList(input.parts);
  if (gap) return refuse(400, gap);
  const existing = await publishedVersion(db, input.optionId, input.version);
  if (existing) {
    // Another upload of this version won: this one's parts are of no use.
    if (existing.r2Key !== input.key) await abortQuietly(bucket, input);
    return alreadyPublished(input.optionId, input.version);
  }
  let object: R2Object;
  try {
    const parts = [...input.parts].sort((a, b) => a.partNumber - b.partNumber);
    object = await bucket.resumeMultipartUpload(input.key, input.uploadId).complete(parts);
  } catch (error) {
    // A parallel complete of this upload may have published it meanwhile.
    if (await publishedVersion(db, input.optionId, input.version)) return alreadyPublished(input.optionId, input.version);
    if (isNoSuchUpload(error)) return refuse(404, NOT_OPEN);
    return refuse(400, `The parts could not be put together: ${r2Reason(error)}. Upload every part again, or abort.`);
  }
  if (object.size > DOWNLOAD.maxInstallerBytes) {
    await bucket.delete(input.key);
    return refuse(413, `An installer may be at most ${formatBytes(DOWNLOAD.maxInstallerBytes)}.`);
  }
  const published = await publishRelease(db, bucket, { optionId: input.optionId, version: input.version, r2Key: input.key, publishedBy });
  if (!published.ok) {
    // The file is this upload's own key: delete it unless a row (a parallel complete) points to it.
    const owner = await db.query.releases.findFirst({ where: eq(schema.releases.r2Key, input.key) });
    if (!owner) await bucket.delete(input.key);
    return refuse(published.status, published.message);
  }
  const { r2Key: _key, publishedBy: _by, ...view } = published.release;
  return { ok: true, release: view };
}

async function abortQuietly(bucket: R2Bucket, ref: UploadRef) {
  try {
    await bucket.resumeMultipartUpload(ref.key, ref.uploadId).abort();
  } catch {
    // Already completed or aborted: nothing left to free.
  }
}

/** Drops an unfinished upload and its parts. Aborting twice, or after completing, is harmless. */
export async function abortUpload(bucket: R2Bucket, ref: UploadRef): Promise<{ ok: true } | Refusal> {
  if (!isUploadKey(ref.key, ref.optionId, ref.version)) return refuse(400, "This upload does not belong to that build and version.");
  await abortQuietly(bucket, ref);
  return { ok: true };
}
