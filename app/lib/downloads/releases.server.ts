// Published installer builds (D1 rows describing files in R2), the download history, and the
// download call: who may download which build, and the short-lived link they get.
import { and, desc, eq } from "drizzle-orm";
import { DOWNLOAD } from "../constants";
import { BoundedMap } from "../bounded-map";
import { toHex } from "../crypto";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { isAccountActivated } from "../early-access/activation.server";
import type { Keyring } from "../keys";
import { signDownloadToken } from "./link";
import { DOWNLOAD_MESSAGES, type DownloadErrorCode } from "./messages";
import { type DownloadOption, findOption, installerFileName, optionById } from "./options";

export type Release = typeof schema.releases.$inferSelect;

/** What the pages show of a build. */
export type ReleaseView = Pick<
  Release,
  "id" | "optionId" | "platform" | "architecture" | "version" | "fileName" | "byteSize" | "sha256" | "recommended" | "demo" | "publishedAt"
>;

const toView = ({ id, optionId, platform, architecture, version, fileName, byteSize, sha256, recommended, demo, publishedAt }: Release): ReleaseView => ({
  id,
  optionId,
  platform,
  architecture,
  version,
  fileName,
  byteSize,
  sha256,
  recommended,
  demo,
  publishedAt,
});

// The landing page, the Downloads tab and the post-payment page all show the newest builds, and a
// build is published a few times a month: the isolate keeps the list for as long as the page
// cache keeps a page (DOWNLOAD.currentReleasesMs), so a signed-out page runs no D1 statement. A
// publish through this isolate forgets it at once; other isolates, and the CLI's insert
// (scripts/release-publish.mjs), show the new build within that time, as the stored landing
// page already does.
const remembered = new BoundedMap<"current", ReleaseView[]>(1);

/** The newest build of every option that has one, in the options' order. */
export async function currentReleases(db: Db, now = Date.now()): Promise<ReleaseView[]> {
  const held = remembered.get("current", now);
  if (held) return held;
  const rows = await db.select().from(schema.releases).orderBy(desc(schema.releases.publishedAt));
  const newest = new Map<string, Release>();
  for (const row of rows) if (!newest.has(row.optionId)) newest.set(row.optionId, row);
  const releases = [...newest.values()].map(toView);
  remembered.set("current", releases, now + DOWNLOAD.currentReleasesMs);
  return releases;
}

export async function getRelease(db: Db, id: string): Promise<Release | undefined> {
  return db.query.releases.findFirst({ where: eq(schema.releases.id, id) });
}

async function newestRelease(db: Db, option: DownloadOption): Promise<Release | undefined> {
  return db.query.releases.findFirst({ where: eq(schema.releases.optionId, option.id), orderBy: desc(schema.releases.publishedAt) });
}

export type PublishInput = { optionId: string; version: string; r2Key: string; publishedBy: string | null; demo?: boolean };
export type PublishResult = { ok: true; release: Release } | { ok: false; status: 400 | 404 | 409; message: string };

/**
 * Records a build whose file is already in R2 (a finished multipart upload, or a put). The size
 * and SHA-256 are read from the stored object itself, so the row describes exactly what users get.
 */
export async function publishRelease(db: Db, bucket: R2Bucket, input: PublishInput): Promise<PublishResult> {
  const option = optionById(input.optionId);
  if (!option) return { ok: false, status: 400, message: "Unknown build: choose one of the listed versions." };
  const existing = await db.query.releases.findFirst({ where: and(eq(schema.releases.optionId, option.id), eq(schema.releases.version, input.version)) });
  if (existing) return { ok: false, status: 409, message: `${option.name} ${input.version} is already published.` };
  const object = await bucket.get(input.r2Key);
  if (!object) return { ok: false, status: 404, message: "The uploaded file was not found. Please upload it again." };
  // workerd's DigestStream hashes the object as it streams: a 140 MB build never sits in memory.
  const digest = new (crypto as unknown as { DigestStream: typeof DigestStream }).DigestStream("SHA-256");
  await object.body.pipeTo(digest);
  const sha256 = toHex(await digest.digest);
  const release: Release = {
    id: crypto.randomUUID(),
    optionId: option.id,
    platform: option.platform,
    architecture: option.arch,
    version: input.version,
    fileName: installerFileName(option, input.version),
    r2Key: input.r2Key,
    byteSize: object.size,
    sha256,
    recommended: option.recommended,
    demo: input.demo ?? false,
    publishedBy: input.publishedBy,
    publishedAt: Date.now(),
  };
  try {
    await db.insert(schema.releases).values(release);
  } catch (error) {
    // Two publishes of the same version racing: the unique index decides, the loser is told.
    if (/UNIQUE/i.test(`${error} ${(error as { cause?: unknown }).cause}`))
      return { ok: false, status: 409, message: `${option.name} ${input.version} is already published.` };
    throw error;
  }
  remembered.delete("current");
  return { ok: true, release };
}

export type DownloadHistoryItem = {
  id: string;
  platform: string;
  architecture: string;
  downloadedAt: number;
  releaseId: string | null;
  version: string | null;
};

/** The spec's history read: newest first, at most 10 (the tab shows 5). */
export async function recentDownloads(db: Db, userId: string): Promise<DownloadHistoryItem[]> {
  return db
    .select({
      id: schema.downloadHistory.id,
      platform: schema.downloadHistory.platform,
      architecture: schema.downloadHistory.architecture,
      downloadedAt: schema.downloadHistory.downloadedAt,
      releaseId: schema.downloadHistory.releaseId,
      version: schema.releases.version,
    })
    .from(schema.downloadHistory)
    .leftJoin(schema.releases, eq(schema.releases.id, schema.downloadHistory.releaseId))
    .where(eq(schema.downloadHistory.userId, userId))
    .orderBy(desc(schema.downloadHistory.downloadedAt))
    .limit(DOWNLOAD.historyFetchLimit);
}

export type PreparedDownload =
  | { ok: true; url: string; release: ReleaseView }
  | { ok: false; status: 400 | 401 | 403 | 404; code: DownloadErrorCode; message: string; needsSubscription?: boolean };

const refusal = (status: 400 | 401 | 403 | 404, code: DownloadErrorCode) => ({ ok: false as const, status, code, message: DOWNLOAD_MESSAGES[code] });

/**
 * The download call: a signed-in subscriber asks for a platform and architecture and gets a
 * short-lived link to the newest build; the request is recorded in the download history.
 * Refusals write nothing.
 */
export async function prepareDownload(
  db: Db,
  linkKeys: Keyring,
  origin: string,
  userId: string | null,
  request: { platform: string; arch: string },
  now = Date.now(),
): Promise<PreparedDownload> {
  if (!userId) return refusal(401, "signInRequired");
  const option = findOption(request.platform, request.arch);
  if (!option) return refusal(400, "unknownOption");
  if (!(await isAccountActivated(db, userId, now))) return { ...refusal(403, "subscriptionRequired"), needsSubscription: true };
  const release = await newestRelease(db, option);
  if (!release) return refusal(404, "notPublished");
  await db.insert(schema.downloadHistory).values({
    id: crypto.randomUUID(),
    userId,
    platform: option.platform,
    architecture: option.arch,
    releaseId: release.id,
    downloadedAt: now,
  });
  const token = await signDownloadToken(linkKeys, { releaseId: release.id, userId, expiresAt: now + DOWNLOAD.linkTtlMs });
  return { ok: true, url: `${origin}/downloads/file/${token}`, release: toView(release) };
}
