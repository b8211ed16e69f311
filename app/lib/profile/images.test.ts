import { describe, expect, it } from "vitest";
import {
  checkFileBeforeUpload,
  contentTypeForExt,
  etagMatches,
  imageKey,
  imageKeys,
  imageUrl,
  isOtherImageFormat,
  parseImageFile,
  sniffImageType,
  uploadErrorMessage,
  uploadNoticeFromQuery,
} from "./images";
import { UPLOAD_MESSAGES } from "./messages";

const bytes = (...parts: Array<number[] | string>) => new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)));

const PNG_HEADER = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const USER = "3b241101-e2bb-4255-8caf-4136c566a962";

describe("sniffImageType", () => {
  it("recognises the four formats by their magic bytes", () => {
    expect(sniffImageType(bytes(PNG_HEADER, [0, 0, 0, 13]))).toBe("png");
    expect(sniffImageType(bytes([0xff, 0xd8, 0xff, 0xe0, 0, 16], "JFIF"))).toBe("jpg");
    expect(sniffImageType(bytes("GIF87a", [1, 0, 1, 0]))).toBe("gif");
    expect(sniffImageType(bytes("GIF89a", [1, 0, 1, 0]))).toBe("gif");
    expect(sniffImageType(bytes("RIFF", [36, 0, 0, 0], "WEBPVP8 "))).toBe("webp");
  });

  it("refuses a text file renamed .png, whatever it is called", () => {
    expect(sniffImageType(new TextEncoder().encode("hello, I am not a picture\n"))).toBeNull();
    expect(sniffImageType(new TextEncoder().encode("PNG but only in name"))).toBeNull();
  });

  it("refuses truncated headers and empty files", () => {
    expect(sniffImageType(new Uint8Array(0))).toBeNull();
    expect(sniffImageType(bytes(PNG_HEADER.slice(0, 7)))).toBeNull();
    expect(sniffImageType(bytes([0xff, 0xd8]))).toBeNull();
    expect(sniffImageType(bytes("GIF89"))).toBeNull();
    expect(sniffImageType(bytes("RIFF", [36, 0, 0, 0], "WEB"))).toBeNull();
  });

  it("refuses RIFF files that are not WebP (a WAV file) and a GIF-like version it does not know", () => {
    expect(sniffImageType(bytes("RIFF", [36, 0, 0, 0], "WAVEfmt "))).toBeNull();
    expect(sniffImageType(bytes("GIF88a", [1, 0]))).toBeNull();
  });

  it("refuses SVG: it is not one of the four and can carry script", () => {
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect(sniffImageType(svg)).toBeNull();
    expect(isOtherImageFormat(svg)).toBe(true);
    expect(isOtherImageFormat(new TextEncoder().encode('<?xml version="1.0"?>\n<svg></svg>'))).toBe(true);
  });

  it("tells other image formats (invalid type) from files that are no image at all", () => {
    expect(isOtherImageFormat(bytes("BM", [0, 0, 0, 0]))).toBe(true);
    expect(isOtherImageFormat(bytes([0, 0, 0, 0x1c], "ftypheic"))).toBe(true);
    expect(isOtherImageFormat(bytes([0, 0, 0, 0x1c], "ftypavif"))).toBe(true);
    expect(isOtherImageFormat(bytes([0, 0, 0, 0x1c], "ftypisom"))).toBe(false); // an MP4 video
    expect(isOtherImageFormat(new TextEncoder().encode("just text"))).toBe(false);
    expect(isOtherImageFormat(new TextEncoder().encode("<html><body>hi</body></html>"))).toBe(false);
  });
});

describe("keys, URLs and the served file names", () => {
  it("keeps a picture at {userId}/profile.{ext} and a cover at {userId}/cover.{ext}", () => {
    expect(imageKey(USER, "avatar", "png")).toBe(`${USER}/profile.png`);
    expect(imageKey(USER, "cover", "webp")).toBe(`${USER}/cover.webp`);
    expect(imageKeys(USER, "avatar")).toEqual(["jpg", "png", "gif", "webp"].map((e) => `${USER}/profile.${e}`));
  });

  it("serves under a versioned same-origin URL", () => {
    expect(imageUrl(USER, "avatar", "jpg", "abc123")).toBe(`/profile-images/${USER}/profile.jpg?v=abc123`);
    expect(imageUrl(USER, "cover", "gif", "0f")).toBe(`/profile-images/${USER}/cover.gif?v=0f`);
  });

  it("gives each format its content type", () => {
    expect([contentTypeForExt("jpg"), contentTypeForExt("png"), contentTypeForExt("gif"), contentTypeForExt("webp")]).toEqual([
      "image/jpeg",
      "image/png",
      "image/gif",
      "image/webp",
    ]);
  });

  it("parses only profile|cover with one of the four extensions", () => {
    expect(parseImageFile("profile.png")).toEqual({ kind: "avatar", ext: "png" });
    expect(parseImageFile("cover.webp")).toEqual({ kind: "cover", ext: "webp" });
    for (const bad of ["profile.svg", "profile.jpeg", "Profile.png", "cover.png.html", "../profile.png", "profile", "avatar.png", "profile.png ", ""]) {
      expect(parseImageFile(bad), bad).toBeNull();
    }
  });
});

describe("checkFileBeforeUpload (the client's check; the server decides by the bytes)", () => {
  it("refuses pictures over the caps with the spec's texts", () => {
    expect(checkFileBeforeUpload("avatar", { size: 5 * 1024 * 1024 + 1, type: "image/png" })).toBe("Image size must be less than 5MB.");
    expect(checkFileBeforeUpload("avatar", { size: 5 * 1024 * 1024, type: "image/png" })).toBeNull();
    expect(checkFileBeforeUpload("cover", { size: 10 * 1024 * 1024 + 1, type: "image/jpeg" })).toBe("Cover photo size must be less than 10MB.");
    expect(checkFileBeforeUpload("cover", { size: 9 * 1024 * 1024, type: "image/jpeg" })).toBeNull();
  });

  it("refuses what is declared as no image, or as another image format", () => {
    expect(checkFileBeforeUpload("avatar", { size: 10, type: "text/plain" })).toBe("Please select a valid image file.");
    expect(checkFileBeforeUpload("avatar", { size: 0, type: "image/png" })).toBe("Please select a valid image file.");
    expect(checkFileBeforeUpload("avatar", { size: 10, type: "image/svg+xml" })).toBe(UPLOAD_MESSAGES.invalidType);
    expect(checkFileBeforeUpload("avatar", { size: 10, type: "image/webp" })).toBeNull();
    // No declared type: the server's check of the bytes decides.
    expect(checkFileBeforeUpload("avatar", { size: 10, type: "" })).toBeNull();
  });
});

describe("uploadErrorMessage", () => {
  it("names the cap of the picture that was refused", () => {
    expect(uploadErrorMessage("too-large", "avatar")).toBe("Image size must be less than 5MB.");
    expect(uploadErrorMessage("too-large", "cover")).toBe("Cover photo size must be less than 10MB.");
    expect(uploadErrorMessage("not-an-image", "cover")).toBe("Please select a valid image file.");
    expect(uploadErrorMessage("failed", "cover")).toMatch(/^Upload failed: /);
  });
});

describe("etagMatches", () => {
  it("compares weakly and accepts lists and *", () => {
    expect(etagMatches('"abc"', '"abc"')).toBe(true);
    expect(etagMatches('W/"abc"', '"abc"')).toBe(true);
    expect(etagMatches('"x", "abc"', '"abc"')).toBe(true);
    expect(etagMatches("*", '"abc"')).toBe(true);
    expect(etagMatches('"abd"', '"abc"')).toBe(false);
    expect(etagMatches(null, '"abc"')).toBe(false);
  });
});

describe("uploadNoticeFromQuery (the form without JavaScript comes back with its outcome)", () => {
  it("reads the success and the refusal the upload route redirects with", () => {
    expect(uploadNoticeFromQuery(new URLSearchParams("edit=1&uploaded=cover"))).toEqual({
      kind: "cover",
      tone: "success",
      message: "Cover photo uploaded successfully!",
    });
    expect(uploadNoticeFromQuery(new URLSearchParams("edit=1&uploadError=too-large&kind=avatar"))).toEqual({
      kind: "avatar",
      tone: "error",
      message: "Image size must be less than 5MB.",
    });
  });

  it("ignores anything it does not know (nobody can put a text of their own on the page)", () => {
    for (const query of ["", "edit=1", "uploaded=banner", "uploadError=<script>&kind=avatar", "uploadError=too-large", "uploadError=too-large&kind=x"]) {
      expect(uploadNoticeFromQuery(new URLSearchParams(query)), query).toBeNull();
    }
  });
});
