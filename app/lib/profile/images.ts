// Profile pictures and cover photos: what a file is (by its bytes, never by its name or declared
// type), where it lives in R2 and under which URL the site serves it. Pure: the upload route,
// the serving route, storage and the upload component share these rules.
import { imageMaxBytes, imageTooLargeMessage, PROFILE_MESSAGES, UPLOAD_MESSAGES } from "./messages";
import type { ImageKind } from "./view";

export type { ImageKind };

/** The four formats the spec accepts. SVG is not one: it is a document that can carry script. */
const IMAGE_EXTS = ["jpg", "png", "gif", "webp"] as const;
export type ImageExt = (typeof IMAGE_EXTS)[number];

export const IMAGE_KINDS = ["avatar", "cover"] as const satisfies readonly ImageKind[];

const CONTENT_TYPES: Record<ImageExt, string> = {
  jpg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
};

/** What the file input offers and the client accepts before the server decides by the bytes. */
export const ACCEPTED_CONTENT_TYPES = Object.values(CONTENT_TYPES);

export const contentTypeForExt = (ext: ImageExt): string => CONTENT_TYPES[ext];

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

const JPEG = [0xff, 0xd8, 0xff];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const GIF87 = ascii("GIF87a");
const GIF89 = ascii("GIF89a");
const RIFF = ascii("RIFF");
const WEBP = ascii("WEBP");

/** The image format by its magic bytes; null for anything else (text, SVG, a truncated header). */
export function sniffImageType(bytes: Uint8Array): ImageExt | null {
  if (startsWith(bytes, PNG)) return "png";
  if (startsWith(bytes, JPEG)) return "jpg";
  if (startsWith(bytes, GIF87) || startsWith(bytes, GIF89)) return "gif";
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return "webp";
  return null;
}

/**
 * Images in formats we do not take (BMP, TIFF, ICO, HEIC/AVIF, SVG): these get "invalid file
 * type" rather than "not an image", so the user knows to convert the picture.
 */
export function isOtherImageFormat(bytes: Uint8Array): boolean {
  if (startsWith(bytes, ascii("BM")) || startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return true;
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0x00])) return true;
  if (startsWith(bytes, ascii("ftyp"), 4)) {
    const brand = String.fromCharCode(...bytes.subarray(8, 12));
    return /^(heic|heix|hevc|mif1|msf1|avif|avis)$/.test(brand);
  }
  const head = new TextDecoder().decode(bytes.subarray(0, 512)).trimStart().toLowerCase();
  return head.startsWith("<svg") || (head.startsWith("<?xml") && head.includes("<svg"));
}

const BASE_NAMES: Record<ImageKind, "profile" | "cover"> = { avatar: "profile", cover: "cover" };

/** The file name inside the user's folder: profile.png, cover.webp (ADR 0011). */
const imageFileName = (kind: ImageKind, ext: ImageExt) => `${BASE_NAMES[kind]}.${ext}`;

/** The R2 key: {userId}/profile.{ext} or {userId}/cover.{ext}. */
export const imageKey = (userId: string, kind: ImageKind, ext: ImageExt) => `${userId}/${imageFileName(kind, ext)}`;

/** Every key a picture of this kind may have: the ones a new upload makes stale. */
export const imageKeys = (userId: string, kind: ImageKind) => IMAGE_EXTS.map((ext) => imageKey(userId, kind, ext));

/** The path the site serves a picture under; the version changes with the content, so a new picture shows at once. */
export const imageUrl = (userId: string, kind: ImageKind, ext: ImageExt, version: string) =>
  `/profile-images/${encodeURIComponent(userId)}/${imageFileName(kind, ext)}?v=${encodeURIComponent(version)}`;

export type ImageFile = { kind: ImageKind; ext: ImageExt };

const FILE_PATTERN = /^(profile|cover)\.(jpg|png|gif|webp)$/;

/** The serving route's `:file`: only profile|cover with one of the four extensions. */
export function parseImageFile(file: string): ImageFile | null {
  const match = FILE_PATTERN.exec(file);
  if (!match) return null;
  return { kind: match[1] === "profile" ? "avatar" : "cover", ext: match[2] as ImageExt };
}

/** Why an upload was refused, as a short code (the no-JavaScript form's redirect carries it). */
const UPLOAD_ERROR_CODES = ["too-large", "not-an-image", "invalid-type", "storage", "failed", "busy", "no-profile", "sign-in"] as const;
export type UploadErrorCode = (typeof UPLOAD_ERROR_CODES)[number];

/** A query value that is one of `values`, or null. A plain lookup, not zod: the page runs this (issue 31). */
function oneOf<T extends string>(values: readonly T[], value: string | null): T | null {
  return values.find((v) => v === value) ?? null;
}

/** The text for a refusal code; the page shows it after a form upload (`?uploadError=…`). */
export function uploadErrorMessage(code: UploadErrorCode, kind: ImageKind): string {
  switch (code) {
    case "too-large":
      return imageTooLargeMessage(kind);
    case "not-an-image":
      return UPLOAD_MESSAGES.notAnImage;
    case "invalid-type":
      return UPLOAD_MESSAGES.invalidType;
    case "storage":
      return UPLOAD_MESSAGES.storageNotConfigured;
    case "busy":
      return UPLOAD_MESSAGES.failed("another upload of this picture is still in progress. Please try again.");
    case "no-profile":
      return PROFILE_MESSAGES.notCreated;
    case "sign-in":
      return UPLOAD_MESSAGES.permissionDenied;
    case "failed":
      return UPLOAD_MESSAGES.failed("the picture could not be stored. Please try again.");
  }
}

export const uploadedMessage = (kind: ImageKind) => (kind === "avatar" ? UPLOAD_MESSAGES.avatarUploaded : UPLOAD_MESSAGES.coverUploaded);

/**
 * The client's check before sending (size, then the declared type); the server decides again by
 * the bytes. Returns the message to show, or null when the file may be sent.
 */
export function checkFileBeforeUpload(kind: ImageKind, file: { size: number; type: string }): string | null {
  if (file.size > imageMaxBytes(kind)) return imageTooLargeMessage(kind);
  if (file.size === 0) return UPLOAD_MESSAGES.notAnImage;
  // Some systems give no type for a valid picture: the server's check of the bytes decides then.
  if (file.type === "") return null;
  if (!file.type.startsWith("image/")) return UPLOAD_MESSAGES.notAnImage;
  if (!ACCEPTED_CONTENT_TYPES.includes(file.type)) return UPLOAD_MESSAGES.invalidType;
  return null;
}

const bareEtag = (value: string) => value.trim().replace(/^W\//, "").replace(/^"|"$/g, "");

/** If-None-Match's weak comparison: any listed tag (or *) equal to the object's. */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || bareEtag(tag) === bareEtag(etag));
}

export type UploadNotice = { kind: ImageKind; tone: "success" | "error"; message: string };

/**
 * The outcome of a form upload without JavaScript, from the query the upload route redirects
 * to: `?uploaded=avatar` or `?uploadError=too-large&kind=avatar`. Unknown values give null.
 */
export function uploadNoticeFromQuery(params: URLSearchParams): UploadNotice | null {
  const uploaded = oneOf(IMAGE_KINDS, params.get("uploaded"));
  if (uploaded) return { kind: uploaded, tone: "success", message: uploadedMessage(uploaded) };
  const code = oneOf(UPLOAD_ERROR_CODES, params.get("uploadError"));
  const kind = oneOf(IMAGE_KINDS, params.get("kind"));
  if (code && kind) return { kind, tone: "error", message: uploadErrorMessage(code, kind) };
  return null;
}
