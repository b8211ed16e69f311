// Publishing a build from the admin area: what both sides share (the requests' schemas are in
// upload-schemas.ts, which the browser loads when a build is published). A build goes to R2 as a multipart upload in
// parts of DOWNLOAD.uploadPartBytes (R2 wants every part but the last the same size), then the
// Worker completes it and records the release.
import { DOWNLOAD } from "../constants";
import { type DownloadOption, installerFileName, optionById } from "./options";

/** The most parts an installer of the largest allowed size can need. */
export const maxParts = (partBytes = DOWNLOAD.uploadPartBytes, maxBytes = DOWNLOAD.maxInstallerBytes) => Math.ceil(maxBytes / partBytes);

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
