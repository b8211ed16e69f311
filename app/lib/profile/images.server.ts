// Profile pictures in R2 and their URLs in user_profiles. A picture of a kind lives at one of
// four keys ({userId}/profile.png, …); the row's URL names the key and a content version.
//
// Uploads of the same picture are serialised per user and kind by a short lease in D1: without
// it, one upload's clean-up (delete the keys the row no longer points to) could read the row,
// then delete the object a parallel upload had just written and pointed the row to. Inside the
// lease the order is: write the object, point the row to it, delete the other formats' keys.
import { eq, sql } from "drizzle-orm";
import { PROFILE_IMAGES } from "../constants";
import { toHex } from "../crypto";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import {
  type ImageExt,
  type ImageKind,
  contentTypeForExt,
  etagMatches,
  imageKey,
  imageKeys,
  imageUrl,
  isOtherImageFormat,
  parseImageFile,
  sniffImageType,
} from "./images";
import { imageMaxBytes } from "./messages";
import { log } from "../log/log.server";

type StoreRefusal = { ok: false; code: "too-large" | "not-an-image" | "invalid-type" | "storage" | "failed" | "busy" | "no-profile" };
export type StoreResult = { ok: true; url: string; ext: ImageExt; key: string } | StoreRefusal;

// Longer than any put of a 10 MB picture plus two D1 statements; a request that dies holding it
// blocks the next upload of that picture only this long.
const LEASE_MS = 30_000;
// How long an upload waits for a parallel one of the same picture before giving up.
const LEASE_WAIT_MS = 10_000;

const leaseKey = (userId: string, kind: ImageKind) => `lease:profile-image:${userId}:${kind}`;

/** Takes the lease when it is free or expired; returns its token, or null while another holds it. */
async function tryLease(db: Db, key: string, now: number): Promise<number | null> {
  const table = schema.attemptCounters;
  // The token tells this holder's row from a later one's when releasing.
  const token = crypto.getRandomValues(new Uint32Array(1))[0]! & 0x7fffffff;
  const rows = await db
    .insert(table)
    .values({ key, count: token, expiresAt: now + LEASE_MS })
    .onConflictDoUpdate({ target: table.key, set: { count: token, expiresAt: now + LEASE_MS }, setWhere: sql`${table.expiresAt} <= ${now}` })
    .returning({ count: table.count });
  return rows[0]?.count === token ? token : null;
}

async function acquireLease(db: Db, key: string): Promise<number | null> {
  const deadline = Date.now() + LEASE_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    const token = await tryLease(db, key, Date.now());
    if (token !== null) return token;
    if (Date.now() >= deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, Math.min(25 * 2 ** attempt, 250) + Math.random() * 25));
  }
}

async function releaseLease(db: Db, key: string, token: number): Promise<void> {
  const table = schema.attemptCounters;
  await db.delete(table).where(sql`${table.key} = ${key} AND ${table.count} = ${token}`);
}

/** A short content hash: the URL's version, so a new picture gets a new URL and shows at once. */
async function contentVersion(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", bytes)).slice(0, 16);
}

export type StoreInput = { userId: string; kind: ImageKind; bytes: Uint8Array<ArrayBuffer>; now?: number };

/**
 * Stores a picture the user uploaded and points their profile to it. Checks again what the
 * route checked (size, format by magic bytes), so no caller can store anything else.
 */
export async function storeProfileImage({ bucket, db }: { bucket: R2Bucket | undefined; db: Db }, input: StoreInput): Promise<StoreResult> {
  const { userId, kind, bytes, now = Date.now() } = input;
  if (bytes.byteLength > imageMaxBytes(kind)) return { ok: false, code: "too-large" };
  const ext = sniffImageType(bytes);
  if (!ext) return { ok: false, code: isOtherImageFormat(bytes) ? "invalid-type" : "not-an-image" };
  if (!bucket) return { ok: false, code: "storage" };

  const key = imageKey(userId, kind, ext);
  const url = imageUrl(userId, kind, ext, await contentVersion(bytes));
  const lease = leaseKey(userId, kind);
  const token = await acquireLease(db, lease);
  if (token === null) return { ok: false, code: "busy" };
  try {
    try {
      await bucket.put(key, bytes, {
        httpMetadata: { contentType: contentTypeForExt(ext), cacheControl: `private, max-age=${PROFILE_IMAGES.cacheSeconds}` },
      });
    } catch (error) {
      log.error("profile_image_put_failed", { kind }, error);
      return { ok: false, code: "failed" };
    }
    const column = kind === "avatar" ? { avatarUrl: url } : { coverPhotoUrl: url };
    const updated = await db
      .update(schema.userProfiles)
      .set({ ...column, updatedAt: now })
      .where(eq(schema.userProfiles.userId, userId))
      .returning({ id: schema.userProfiles.id });
    if (updated.length === 0) {
      // No profile row points anywhere: the object just written would be an orphan.
      await bucket.delete(key).catch(() => {});
      return { ok: false, code: "no-profile" };
    }
    const stale = imageKeys(userId, kind).filter((k) => k !== key);
    try {
      await bucket.delete(stale);
    } catch (error) {
      // The row already points to the new picture; a stale object only costs storage until the next upload.
      log.error("profile_image_cleanup_failed", { kind }, error);
    }
    return { ok: true, url, ext, key };
  } finally {
    await releaseLease(db, lease, token).catch(() => {});
  }
}

export type ImageRead =
  | { status: 404 }
  | { status: 304; etag: string }
  | { status: 200; etag: string; size: number; contentType: string; uploaded: Date; body: ReadableStream<Uint8Array> | null };

/**
 * A stored picture for the serving route (the caller has checked who may see it). `file` is
 * the route's `:file` (profile.png, cover.webp, …); anything else is a 404. With a matching
 * If-None-Match the answer is 304 and no body is read; `head` reads no body either.
 */
export async function readProfileImage(
  bucket: R2Bucket | undefined,
  userId: string,
  file: string,
  request: { ifNoneMatch: string | null; head: boolean },
): Promise<ImageRead> {
  const parsed = parseImageFile(file);
  if (!parsed || !bucket) return { status: 404 };
  const key = imageKey(userId, parsed.kind, parsed.ext);
  const contentType = contentTypeForExt(parsed.ext);
  // Revalidations (and HEAD) need only the metadata.
  if (request.head || request.ifNoneMatch) {
    const meta = await bucket.head(key);
    if (!meta) return { status: 404 };
    if (etagMatches(request.ifNoneMatch, meta.httpEtag)) return { status: 304, etag: meta.httpEtag };
    if (request.head) return { status: 200, etag: meta.httpEtag, size: meta.size, contentType, uploaded: meta.uploaded, body: null };
  }
  const object = await bucket.get(key);
  if (!object) return { status: 404 };
  return { status: 200, etag: object.httpEtag, size: object.size, contentType, uploaded: object.uploaded, body: object.body };
}
