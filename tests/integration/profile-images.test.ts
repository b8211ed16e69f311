// Profile pictures and cover photos end to end: the upload route (raw bodies and the form without
// JavaScript), R2 and the profile row, and the serving route, tried as the owner, as another
// user, signed out, with oversized and lying bodies, files that only pretend to be images, and
// parallel uploads.
import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "~/lib/db.server";
import { storeProfileImage } from "~/lib/profile/images.server";
import { UPLOAD_MESSAGES } from "~/lib/profile/messages";
import { type Browser, createConfirmedUser, db, ORIGIN, waitFor } from "./helpers";

// Real 2×2 pictures (made with an image encoder), so the bytes are what a browser would send.
const fromBase64 = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
const IMAGES = {
  png: fromBase64("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWMwTjtjnHaGAUIBACS2BZUFBQd/AAAAAElFTkSuQmCC"),
  jpg: fromBase64(
    "/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAACAAIDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAT/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAABf/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AIADg9//2Q==",
  ),
  gif: fromBase64("R0lGODlhAgACAIAAAExpcTNmzCH5BAUAAAAALAAAAAACAAIAAAICjFMAOw=="),
  webp: fromBase64("UklGRjoAAABXRUJQVlA4IC4AAADQAQCdASoCAAIAAUAmJaACdLoB+AADsAD+7nZ//q0PlofLQ/c+/+QWlct3YAAA"),
} as const;
type Ext = keyof typeof IMAGES;
const CONTENT_TYPE: Record<Ext, string> = { png: "image/png", jpg: "image/jpeg", gif: "image/gif", webp: "image/webp" };
const MB = 1024 * 1024;

/** A PNG signature followed by `size` bytes in all: the server checks the magic bytes and the size. */
function pngOfSize(size: number) {
  const bytes = new Uint8Array(size);
  bytes.set(IMAGES.png);
  return bytes;
}

type UploadOptions = { json?: boolean; contentType?: string; query?: string; headers?: Record<string, string> };

function upload(browser: Browser | null, kind: string, body: BodyInit, options: UploadOptions = {}) {
  return SELF.fetch(`${ORIGIN}/dashboard/profile/image?kind=${kind}${options.query ?? ""}`, {
    method: "POST",
    redirect: "manual",
    body,
    headers: {
      ...(browser ? { Cookie: browser.cookieHeader(), "CF-Connecting-IP": browser.ip } : {}),
      Origin: ORIGIN,
      ...(options.contentType ? { "Content-Type": options.contentType } : {}),
      ...(options.json === false ? {} : { Accept: "application/json" }),
      ...options.headers,
    },
  });
}

/** The form without JavaScript: multipart with a `file` field; the browser sends no Accept: JSON. */
function formUpload(browser: Browser | null, kind: string, file: File, extra: Record<string, string> = {}, options: UploadOptions = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(extra)) form.set(k, v);
  form.set("file", file);
  return upload(browser, kind, form, { json: false, ...options });
}

async function userIdOf(email: string) {
  const user = await db.query.users.findFirst({ where: eq(schema.users.email, email) });
  return user!.id;
}

async function profileOf(userId: string) {
  return (await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, userId) }))!;
}

async function storedKeys(userId: string) {
  const listed = await env.BUCKET.list({ prefix: `${userId}/` });
  return listed.objects.map((o) => o.key).sort();
}

async function storedBytes(key: string) {
  const object = await env.BUCKET.get(key);
  return object ? new Uint8Array(await object.arrayBuffer()) : null;
}

async function versionOf(bytes: Uint8Array<ArrayBuffer>) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("")
    .slice(0, 16);
}

async function answer(response: Response) {
  return (await response.json()) as { ok: boolean; url?: string; message?: string; error?: string };
}

async function signedInUser() {
  const { browser, email } = await createConfirmedUser();
  return { browser, userId: await userIdOf(email) };
}

describe("uploading a picture", () => {
  it("stores a raw PNG at {userId}/profile.png, points the profile to a versioned URL and serves it to its owner", async () => {
    const { browser, userId } = await signedInUser();
    const response = await upload(browser, "avatar", IMAGES.png, { contentType: "image/png" });
    expect(response.status).toBe(200);
    const body = await answer(response);
    const version = await versionOf(IMAGES.png);
    expect(body).toEqual({ ok: true, url: `/profile-images/${userId}/profile.png?v=${version}`, message: UPLOAD_MESSAGES.avatarUploaded });
    expect(await storedBytes(`${userId}/profile.png`)).toEqual(IMAGES.png);
    const object = await env.BUCKET.head(`${userId}/profile.png`);
    expect(object?.httpMetadata?.contentType).toBe("image/png");
    expect(object?.httpMetadata?.cacheControl).toBe("private, max-age=3600");
    expect((await profileOf(userId)).avatarUrl).toBe(body.url);

    const served = await browser.get(body.url!);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");
    expect(served.headers.get("Cache-Control")).toBe("private, max-age=3600");
    expect(served.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(served.headers.get("Content-Disposition")).toBe("inline");
    expect(served.headers.get("Content-Length")).toBe(String(IMAGES.png.byteLength));
    const etag = served.headers.get("ETag");
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(IMAGES.png);

    const revalidated = await browser.get(body.url!, { headers: { "If-None-Match": etag! } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("ETag")).toBe(etag);
    expect(await revalidated.text()).toBe("");
    const changed = await browser.get(body.url!, { headers: { "If-None-Match": '"something-else"' } });
    expect(changed.status).toBe(200);
    await changed.arrayBuffer();

    const head = await browser.get(body.url!, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("Content-Type")).toBe("image/png");
    expect(head.headers.get("ETag")).toBe(etag);
  });

  it.each(["jpg", "gif", "webp"] as const)("stores a %s cover sent as application/octet-stream and serves it with its own type", async (ext) => {
    const { browser, userId } = await signedInUser();
    const response = await upload(browser, "cover", IMAGES[ext], { contentType: "application/octet-stream" });
    expect(response.status).toBe(200);
    const body = await answer(response);
    expect(body.message).toBe(UPLOAD_MESSAGES.coverUploaded);
    expect(body.url).toBe(`/profile-images/${userId}/cover.${ext}?v=${await versionOf(IMAGES[ext])}`);
    expect(await storedKeys(userId)).toEqual([`${userId}/cover.${ext}`]);
    expect((await profileOf(userId)).coverPhotoUrl).toBe(body.url);
    const served = await browser.get(body.url!);
    expect(served.headers.get("Content-Type")).toBe(CONTENT_TYPE[ext]);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(IMAGES[ext]);
  });

  it.each(["png", "jpg", "gif", "webp"] as const)("takes a %s from the form without JavaScript and redirects back to the modal", async (ext) => {
    const { browser, userId } = await signedInUser();
    const response = await formUpload(browser, "avatar", new File([IMAGES[ext]], `me.${ext}`, { type: CONTENT_TYPE[ext] }));
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/dashboard/profile?edit=1&uploaded=avatar");
    expect(await storedBytes(`${userId}/profile.${ext}`)).toEqual(IMAGES[ext]);
    expect((await profileOf(userId)).avatarUrl).toBe(`/profile-images/${userId}/profile.${ext}?v=${await versionOf(IMAGES[ext])}`);
  });

  it("decides the type by the bytes, not by the declared type or the file name", async () => {
    const { browser, userId } = await signedInUser();
    const response = await formUpload(browser, "avatar", new File([IMAGES.jpg], "holiday.png", { type: "image/png" }), {}, { json: true });
    expect(response.status).toBe(200);
    expect((await answer(response)).url).toContain("/profile.jpg?v=");
    expect(await storedKeys(userId)).toEqual([`${userId}/profile.jpg`]);
    expect((await browser.get((await profileOf(userId)).avatarUrl!)).headers.get("Content-Type")).toBe("image/jpeg");
  });

  it("gives a new picture a new URL, and replacing a PNG with a JPEG removes profile.png", async () => {
    const { browser, userId } = await signedInUser();
    const first = await answer(await upload(browser, "avatar", IMAGES.png, { contentType: "image/png" }));
    const second = await answer(await upload(browser, "avatar", IMAGES.jpg, { contentType: "image/jpeg" }));
    expect(second.url).not.toBe(first.url);
    expect(await storedKeys(userId)).toEqual([`${userId}/profile.jpg`]);
    expect((await profileOf(userId)).avatarUrl).toBe(second.url);
    expect((await browser.get(first.url!)).status).toBe(404);
    // The same format again with other bytes: same key, new version.
    const other = new Uint8Array(IMAGES.jpg);
    other[other.length - 3] = 0x11;
    const third = await answer(await upload(browser, "avatar", other, { contentType: "image/jpeg" }));
    expect(third.url).toMatch(/\/profile\.jpg\?v=/);
    expect(third.url).not.toBe(second.url);
    expect(await storedBytes(`${userId}/profile.jpg`)).toEqual(other);
  });

  it("keeps the avatar and the cover apart", async () => {
    const { browser, userId } = await signedInUser();
    await upload(browser, "avatar", IMAGES.png, { contentType: "image/png" });
    await upload(browser, "cover", IMAGES.png, { contentType: "image/png" });
    await upload(browser, "cover", IMAGES.webp, { contentType: "image/webp" });
    expect(await storedKeys(userId)).toEqual([`${userId}/cover.webp`, `${userId}/profile.png`]);
    const profile = await profileOf(userId);
    expect(profile.avatarUrl).toContain("/profile.png?v=");
    expect(profile.coverPhotoUrl).toContain("/cover.webp?v=");
  });
});

describe("size caps", () => {
  it("refuses a 6 MB avatar with 413 and the spec's text, from Content-Length, storing nothing", async () => {
    const { browser, userId } = await signedInUser();
    const response = await upload(browser, "avatar", pngOfSize(6 * MB), { contentType: "image/png" });
    expect(response.status).toBe(413);
    expect(await answer(response)).toEqual({ ok: false, error: "Image size must be less than 5MB." });
    expect(await storedKeys(userId)).toEqual([]);
    expect((await profileOf(userId)).avatarUrl).toBeNull();
  });

  it("sends the form without JavaScript back with the reason when the avatar is too large", async () => {
    const { browser, userId } = await signedInUser();
    const response = await formUpload(browser, "avatar", new File([pngOfSize(6 * MB)], "big.png", { type: "image/png" }));
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/dashboard/profile?edit=1&uploadError=too-large&kind=avatar");
    expect(await storedKeys(userId)).toEqual([]);
  });

  it("takes an avatar of exactly 5 MB", async () => {
    const { browser, userId } = await signedInUser();
    expect((await upload(browser, "avatar", pngOfSize(5 * MB), { contentType: "image/png" })).status).toBe(200);
    expect((await env.BUCKET.head(`${userId}/profile.png`))?.size).toBe(5 * MB);
  });

  it("refuses an 11 MB cover and takes a 9 MB one", async () => {
    const { browser, userId } = await signedInUser();
    const big = await upload(browser, "cover", pngOfSize(11 * MB), { contentType: "image/png" });
    expect(big.status).toBe(413);
    expect((await answer(big)).error).toBe("Cover photo size must be less than 10MB.");
    expect(await storedKeys(userId)).toEqual([]);
    const fine = await upload(browser, "cover", pngOfSize(9 * MB), { contentType: "image/png" });
    expect(fine.status).toBe(200);
    expect((await env.BUCKET.head(`${userId}/cover.png`))?.size).toBe(9 * MB);
  });

  it("refuses an 11 MB cover sent through the form too (the form's overhead allowance is no loophole)", async () => {
    const { browser, userId } = await signedInUser();
    const justOver = await formUpload(browser, "cover", new File([pngOfSize(10 * MB + 1)], "c.png", { type: "image/png" }), {}, { json: true });
    expect(justOver.status).toBe(413);
    expect((await answer(justOver)).error).toBe("Cover photo size must be less than 10MB.");
    expect(await storedKeys(userId)).toEqual([]);
  });

  it("counts the bytes of a body without Content-Length and stops at the cap", async () => {
    const { browser, userId } = await signedInUser();
    const chunk = new Uint8Array(MB);
    chunk.set(IMAGES.png);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 8) return controller.close();
        sent++;
        controller.enqueue(chunk.slice());
      },
    });
    const response = await upload(browser, "avatar", stream, { contentType: "image/png" });
    expect(response.status).toBe(413);
    expect((await answer(response)).error).toBe("Image size must be less than 5MB.");
    expect(await storedKeys(userId)).toEqual([]);
  });

  it("does not trust a Content-Length smaller than the body", async () => {
    const { browser, userId } = await signedInUser();
    const request = new Request(`${ORIGIN}/dashboard/profile/image?kind=avatar`, {
      method: "POST",
      body: pngOfSize(6 * MB),
      headers: { Cookie: browser.cookieHeader(), Origin: ORIGIN, "Content-Type": "image/png", Accept: "application/json", "Content-Length": "1024" },
    });
    const response = await SELF.fetch(request);
    // Whether the runtime passes the header on or the real length, the cap counts what arrives.
    expect(response.status).toBe(413);
    expect((await answer(response)).error).toBe("Image size must be less than 5MB.");
    expect(await storedKeys(userId)).toEqual([]);
  });
});

describe("files that are not pictures", () => {
  it("refuses a text file named .png and declared image/png: 400, the spec's text, nothing stored", async () => {
    const { browser, userId } = await signedInUser();
    const text = new TextEncoder().encode("This is a shopping list, not a picture.\n");
    const raw = await upload(browser, "avatar", text, { contentType: "image/png" });
    expect(raw.status).toBe(400);
    expect(await answer(raw)).toEqual({ ok: false, error: "Please select a valid image file." });
    const form = await formUpload(browser, "avatar", new File([text], "photo.png", { type: "image/png" }));
    expect(form.status).toBe(303);
    expect(form.headers.get("Location")).toBe("/dashboard/profile?edit=1&uploadError=not-an-image&kind=avatar");
    expect(await storedKeys(userId)).toEqual([]);
    expect((await profileOf(userId)).avatarUrl).toBeNull();
  });

  it("refuses SVG (it can carry script) as an invalid file type", async () => {
    const { browser, userId } = await signedInUser();
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="2" height="2"/></svg>');
    const response = await upload(browser, "avatar", svg, { contentType: "image/svg+xml" });
    expect(response.status).toBe(415);
    expect((await answer(response)).error).toBe(UPLOAD_MESSAGES.invalidType);
    expect(await storedKeys(userId)).toEqual([]);
  });

  it("refuses a truncated PNG header, an empty body, a form without a file and bodies of other types", async () => {
    const { browser, userId } = await signedInUser();
    expect((await upload(browser, "avatar", IMAGES.png.slice(0, 6), { contentType: "image/png" })).status).toBe(400);
    expect((await upload(browser, "avatar", new Uint8Array(0), { contentType: "image/png" })).status).toBe(400);
    const noFile = new FormData();
    noFile.set("file", "just a string");
    expect((await upload(browser, "avatar", noFile, { json: true })).status).toBe(400);
    const emptyFile = await formUpload(browser, "avatar", new File([], ""), {}, { json: true });
    expect(emptyFile.status).toBe(400);
    const json = await upload(browser, "avatar", JSON.stringify({ file: "x" }), { contentType: "application/json" });
    expect(json.status).toBe(415);
    expect((await answer(json)).error).toBe("Please select a valid image file.");
    expect((await upload(browser, "avatar", "a=b", { contentType: "application/x-www-form-urlencoded" })).status).toBe(415);
    const broken = await upload(browser, "avatar", "--x\r\nContent-Disposition: form-data; name=file\r\n\r\nno end", {
      contentType: "multipart/form-data; boundary=x",
    });
    expect(broken.status).toBe(400);
    expect(await storedKeys(userId)).toEqual([]);
  });
});

describe("whose pictures", () => {
  it("never shows a user's picture to another user or to a signed-out visitor (404, as for none)", async () => {
    const owner = await signedInUser();
    const { url } = await answer(await upload(owner.browser, "avatar", IMAGES.png, { contentType: "image/png" }));
    const other = await signedInUser();
    const asOther = await other.browser.get(url!);
    expect(asOther.status).toBe(404);
    const missing = await other.browser.get(`/profile-images/${other.userId}/profile.png`);
    expect(missing.status).toBe(404);
    expect(await asOther.text()).toBe(await missing.text());
    const anonymous = await SELF.fetch(`${ORIGIN}${url}`);
    expect(anonymous.status).toBe(404);
    expect((await SELF.fetch(`${ORIGIN}${url}`, { method: "HEAD" })).status).toBe(404);
  });

  it("writes only the signed-in user's own picture, whatever user id the request names", async () => {
    const owner = await signedInUser();
    await upload(owner.browser, "avatar", IMAGES.png, { contentType: "image/png" });
    const other = await signedInUser();
    const viaQuery = await upload(other.browser, "avatar", IMAGES.gif, { contentType: "image/gif", query: `&userId=${owner.userId}&user_id=${owner.userId}` });
    expect(viaQuery.status).toBe(200);
    const viaForm = await formUpload(other.browser, "cover", new File([IMAGES.webp], "x.webp", { type: "image/webp" }), {
      userId: owner.userId,
      user_id: owner.userId,
    });
    expect(viaForm.status).toBe(303);
    expect(await storedKeys(owner.userId)).toEqual([`${owner.userId}/profile.png`]);
    expect(await storedBytes(`${owner.userId}/profile.png`)).toEqual(IMAGES.png);
    expect((await profileOf(owner.userId)).coverPhotoUrl).toBeNull();
    expect(await storedKeys(other.userId)).toEqual([`${other.userId}/cover.webp`, `${other.userId}/profile.gif`]);
  });

  it("lets an admin see a user's picture", async () => {
    const owner = await signedInUser();
    const { url } = await answer(await upload(owner.browser, "cover", IMAGES.gif, { contentType: "image/gif" }));
    const admin = await signedInUser();
    expect((await admin.browser.get(url!)).status).toBe(404);
    await db.update(schema.users).set({ role: "admin" }).where(eq(schema.users.id, admin.userId));
    const asAdmin = await admin.browser.get(url!);
    expect(asAdmin.status).toBe(200);
    expect(new Uint8Array(await asAdmin.arrayBuffer())).toEqual(IMAGES.gif);
  });

  it("refuses uploads when signed out: 401 as JSON, the sign-in page for the form", async () => {
    const json = await upload(null, "avatar", IMAGES.png, { contentType: "image/png" });
    expect(json.status).toBe(401);
    expect(await answer(json)).toEqual({ ok: false, error: UPLOAD_MESSAGES.permissionDenied });
    const form = await formUpload(null, "avatar", new File([IMAGES.png], "me.png", { type: "image/png" }));
    expect(form.status).toBe(303);
    expect(form.headers.get("Location")).toBe("/auth");
  });

  it("refuses an upload posted from another site (403) and stores nothing", async () => {
    const { browser, userId } = await signedInUser();
    const response = await upload(browser, "avatar", IMAGES.png, { contentType: "image/png", headers: { Origin: "https://evil.example" } });
    expect(response.status).toBe(403);
    expect(await storedKeys(userId)).toEqual([]);
    expect((await profileOf(userId)).avatarUrl).toBeNull();
  });
});

describe("parallel uploads", () => {
  it("ends a burst of 8 uploads of alternating formats with the row pointing to a stored object, and no stale objects", async () => {
    const { browser, userId } = await signedInUser();
    const exts: Ext[] = ["png", "jpg", "gif", "webp", "png", "jpg", "gif", "webp"];
    const responses = await Promise.all(exts.map((ext) => upload(browser, "avatar", IMAGES[ext], { contentType: CONTENT_TYPE[ext] })));
    const bodies = await Promise.all(responses.map(answer));
    expect(responses.map((r) => r.status)).toEqual(exts.map(() => 200));
    const { avatarUrl } = await profileOf(userId);
    expect(bodies.map((b) => b.url)).toContain(avatarUrl);
    const ext = /\/profile\.(\w+)\?v=(\w+)$/.exec(avatarUrl!)!;
    expect(await storedKeys(userId)).toEqual([`${userId}/profile.${ext[1]}`]);
    const served = await browser.get(avatarUrl!);
    expect(served.status).toBe(200);
    // The object is the picture the URL's version names.
    expect(await versionOf(new Uint8Array(await served.arrayBuffer()))).toBe(ext[2]);
  });

  it("lets avatar and cover uploads of one user run side by side", async () => {
    const { browser, userId } = await signedInUser();
    const [a, c] = await Promise.all([
      upload(browser, "avatar", IMAGES.webp, { contentType: "image/webp" }),
      upload(browser, "cover", IMAGES.jpg, { contentType: "image/jpeg" }),
    ]);
    expect([a.status, c.status]).toEqual([200, 200]);
    expect(await storedKeys(userId)).toEqual([`${userId}/cover.jpg`, `${userId}/profile.webp`]);
  });
});

/** env.BUCKET with its puts and deletes logged, and some puts held back (to force two uploads to overlap). */
function loggingBucket(log: string[], putDelayMs: Record<string, number>): R2Bucket {
  return new Proxy(env.BUCKET, {
    get(target, prop) {
      if (prop === "put") {
        return async (key: string, value: Uint8Array, options?: R2PutOptions) => {
          log.push(`put ${key}`);
          // The delay is this helper's purpose: it makes two uploads overlap.
          await new Promise((r) => setTimeout(r, putDelayMs[key] ?? 0));
          return target.put(key, value, options);
        };
      }
      if (prop === "delete") {
        return async (keys: string | string[]) => {
          log.push(`delete ${[keys].flat().length}`);
          return target.delete(keys);
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("uploads of the same picture take turns", () => {
  it("finishes one upload (write, point the row, clean up) before the next one writes", async () => {
    const { userId } = await signedInUser();
    const log: string[] = [];
    const bucket = loggingBucket(log, { [`${userId}/profile.png`]: 300 });
    const first = storeProfileImage({ bucket, db }, { userId, kind: "avatar", bytes: IMAGES.png });
    await waitFor(() => log.length > 0, "the PNG's write"); // it has begun, and is held back 300 ms
    const second = storeProfileImage({ bucket, db }, { userId, kind: "avatar", bytes: IMAGES.jpg });
    const results = await Promise.all([first, second]);
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    // Without the turns, the JPEG's write and clean-up would run while the PNG is still being written.
    expect(log).toEqual([`put ${userId}/profile.png`, "delete 3", `put ${userId}/profile.jpg`, "delete 3"]);
    expect(await storedKeys(userId)).toEqual([`${userId}/profile.jpg`]);
    expect((await profileOf(userId)).avatarUrl).toContain("/profile.jpg?v=");
  });

  it("takes over a turn left behind by a request that died", async () => {
    const { browser, userId } = await signedInUser();
    await db.insert(schema.attemptCounters).values({ key: `lease:profile-image:${userId}:avatar`, count: 7, expiresAt: Date.now() - 1 });
    const started = Date.now();
    expect((await upload(browser, "avatar", IMAGES.png, { contentType: "image/png" })).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await db.query.attemptCounters.findFirst({ where: eq(schema.attemptCounters.key, `lease:profile-image:${userId}:avatar`) })).toBeUndefined();
  });

  it("gives up with 409 when another upload of the picture holds its turn for too long, storing nothing", async () => {
    const { browser, userId } = await signedInUser();
    await db.insert(schema.attemptCounters).values({ key: `lease:profile-image:${userId}:cover`, count: 7, expiresAt: Date.now() + 60_000 });
    const response = await upload(browser, "cover", IMAGES.png, { contentType: "image/png" });
    expect(response.status).toBe(409);
    expect((await answer(response)).error).toMatch(/^Upload failed: another upload of this picture is still in progress/);
    expect(await storedKeys(userId)).toEqual([]);
    // The other upload's turn is left alone.
    expect((await db.query.attemptCounters.findFirst({ where: eq(schema.attemptCounters.key, `lease:profile-image:${userId}:cover`) }))?.count).toBe(7);
  });
});

describe("when storage fails", () => {
  it("says storage is not configured when the Worker has no bucket", async () => {
    const { userId } = await signedInUser();
    expect(await storeProfileImage({ bucket: undefined, db }, { userId, kind: "avatar", bytes: IMAGES.png })).toEqual({ ok: false, code: "storage" });
    expect((await profileOf(userId)).avatarUrl).toBeNull();
  });

  it("leaves the profile as it was when R2 refuses the write, and frees the turn for the next upload", async () => {
    const { browser, userId } = await signedInUser();
    const before = await answer(await upload(browser, "avatar", IMAGES.gif, { contentType: "image/gif" }));
    const failing = new Proxy(env.BUCKET, {
      get(target, prop) {
        if (prop === "put") return async () => Promise.reject(new Error("put: We encountered an internal error. Please try again. (10001)"));
        const value = Reflect.get(target, prop);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    expect(await storeProfileImage({ bucket: failing, db }, { userId, kind: "avatar", bytes: IMAGES.png })).toEqual({ ok: false, code: "failed" });
    expect((await profileOf(userId)).avatarUrl).toBe(before.url);
    expect(await storedKeys(userId)).toEqual([`${userId}/profile.gif`]);
    const started = Date.now();
    expect((await upload(browser, "avatar", IMAGES.png, { contentType: "image/png" })).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("stores nothing for an account without a profile row", async () => {
    const { userId } = await signedInUser();
    await db.delete(schema.userProfiles).where(eq(schema.userProfiles.userId, userId));
    expect(await storeProfileImage({ bucket: env.BUCKET, db }, { userId, kind: "cover", bytes: IMAGES.webp })).toEqual({ ok: false, code: "no-profile" });
    expect(await storedKeys(userId)).toEqual([]);
  });
});

describe("bad requests get 4xx, never 500", () => {
  it("answers 400 for a missing or unknown kind", async () => {
    const { browser, userId } = await signedInUser();
    for (const kind of ["", "banner", "avatar%00", "AVATAR"]) {
      const response = await upload(browser, kind, IMAGES.png, { contentType: "image/png" });
      expect(response.status, kind).toBe(400);
    }
    expect(await storedKeys(userId)).toEqual([]);
  });

  it("answers GET and PUT on the upload route with 405", async () => {
    const { browser } = await signedInUser();
    const get = await browser.get("/dashboard/profile/image?kind=avatar");
    expect(get.status).toBe(405);
    expect(get.headers.get("Allow")).toBe("POST");
    const put = await SELF.fetch(`${ORIGIN}/dashboard/profile/image?kind=avatar`, {
      method: "PUT",
      body: IMAGES.png,
      headers: { Cookie: browser.cookieHeader(), Origin: ORIGIN, "Content-Type": "image/png" },
    });
    expect(put.status).toBe(405);
    const post = await SELF.fetch(`${ORIGIN}/profile-images/00000000-0000-0000-0000-000000000000/profile.png`, {
      method: "POST",
      body: IMAGES.png,
      headers: { Cookie: browser.cookieHeader(), Origin: ORIGIN },
    });
    expect(post.status).toBe(405);
  });

  it("answers 404 for file names and user ids the serving route does not know", async () => {
    const { browser, userId } = await signedInUser();
    await upload(browser, "avatar", IMAGES.png, { contentType: "image/png" });
    for (const path of [
      `/profile-images/${userId}/profile.svg`,
      `/profile-images/${userId}/profile.PNG`,
      `/profile-images/${userId}/avatar.png`,
      `/profile-images/${userId}/profile.png.html`,
      `/profile-images/${userId}/..%2Fprofile.png`,
      `/profile-images/not-a-user/profile.png`,
      `/profile-images/${userId.toUpperCase()}/profile.png`,
    ]) {
      expect((await browser.get(path)).status, path).toBe(404);
    }
  });
});
