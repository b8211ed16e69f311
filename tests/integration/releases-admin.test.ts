// Publishing a build from the admin area: a multipart upload to R2 through the Worker, then the
// release row, with size and SHA-256 read from the stored file. Only admins; bad input is a 4xx.
// (Nothing here publishes win-x64 or mac-intel: downloads.test.ts relies on their newest builds.)
import { env, SELF } from "cloudflare:test";
import { and, count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { hashSecret } from "~/lib/auth/password";
import { DOWNLOAD } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { Browser, createConfirmedUser, db, insertUser, ORIGIN, STRONG_PASSWORD, uniqueEmail } from "./helpers";

const PART = DOWNLOAD.uploadPartBytes;
let admin: Browser;
let adminId: string;
let counter = 0;
/** A version no other test (or run) uses. */
const newVersion = (suffix = "") => `${50 + (counter++ % 40)}.${Date.now() % 1_000_000}.${counter}${suffix}`;

function randomBytes(size: number) {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 65_536) crypto.getRandomValues(bytes.subarray(i, Math.min(i + 65_536, size)));
  return bytes;
}
const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");

type Created = { key: string; uploadId: string; partBytes: number; parts: number };

function postJson(browser: Browser, step: string, body: unknown) {
  return SELF.fetch(`${ORIGIN}/dashboard/admin/releases/${step}`, {
    method: "POST",
    redirect: "manual",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { Cookie: browser.cookieHeader(), Origin: ORIGIN, "CF-Connecting-IP": browser.ip, "Content-Type": "application/json" },
  });
}

function putPart(
  browser: Browser,
  ref: { optionId: string; version: string; key: string; uploadId: string },
  partNumber: number | string,
  bytes: Uint8Array<ArrayBuffer>,
) {
  const query = new URLSearchParams({ ...ref, partNumber: String(partNumber) });
  return SELF.fetch(`${ORIGIN}/dashboard/admin/releases/part?${query}`, {
    method: "POST",
    redirect: "manual",
    body: bytes,
    headers: { Cookie: browser.cookieHeader(), Origin: ORIGIN, "CF-Connecting-IP": browser.ip, "Content-Type": "application/octet-stream" },
  });
}

async function create(browser: Browser, optionId: string, version: string, size: number) {
  const response = await postJson(browser, "create", { optionId, version, size });
  return { response, body: (await response.json()) as Created & { error?: string } };
}

async function releaseRows(optionId: string, version: string) {
  return db
    .select()
    .from(schema.releases)
    .where(and(eq(schema.releases.optionId, optionId), eq(schema.releases.version, version)));
}
async function releaseCount() {
  const [row] = await db.select({ n: count() }).from(schema.releases);
  return row!.n;
}
async function objectsUnder(version: string) {
  return (await env.BUCKET.list({ prefix: `releases/${version}/` })).objects.length;
}

/** Creates an upload and sends `parts`, returning what complete needs. */
async function uploadParts(optionId: string, version: string, parts: Uint8Array<ArrayBuffer>[]) {
  const size = parts.reduce((n, p) => n + p.byteLength, 0);
  const { response, body } = await create(admin, optionId, version, size);
  expect(response.status, body.error).toBe(200);
  const ref = { optionId, version, key: body.key, uploadId: body.uploadId };
  const uploaded: { partNumber: number; etag: string }[] = [];
  for (const [i, bytes] of parts.entries()) {
    const answer = await putPart(admin, ref, i + 1, bytes);
    expect(answer.status).toBe(200);
    uploaded.push((await answer.json()) as { partNumber: number; etag: string });
  }
  return { ref, uploaded };
}

beforeAll(async () => {
  const email = uniqueEmail("admin");
  const row = await insertUser({ email, passwordHash: await hashSecret(STRONG_PASSWORD), metadata: {}, role: "admin", confirmed: true });
  adminId = row.id;
  admin = new Browser();
  const signin = await admin.post("/auth?mode=signin", { intent: "signin", email, password: STRONG_PASSWORD });
  expect(signin.status).toBeLessThan(400);
});

describe("an admin publishes a build", () => {
  it("uploads the parts, completes, and records the exact file with its size and SHA-256", async () => {
    const version = newVersion();
    const parts = [randomBytes(PART), randomBytes(123_457)];
    const { ref, uploaded } = await uploadParts("mac-apple-silicon", version, parts);
    expect(ref.key).toMatch(new RegExp(`^releases/${version.replace(/\./g, "\\.")}/upload-[0-9a-f-]{36}/Modelify-${version}-mac-apple-silicon\\.dmg$`));

    const done = await postJson(admin, "complete", { ...ref, parts: uploaded });
    expect(done.status).toBe(200);
    const { release } = (await done.json()) as { release: { byteSize: number; sha256: string; version: string; demo: boolean; fileName: string } };

    const whole = new Uint8Array(PART + 123_457);
    whole.set(parts[0]!, 0);
    whole.set(parts[1]!, PART);
    const sha256 = hex(await crypto.subtle.digest("SHA-256", whole));
    expect(release).toMatchObject({ byteSize: whole.byteLength, sha256, version, demo: false, fileName: `Modelify-${version}-mac-apple-silicon.dmg` });

    const [row] = await releaseRows("mac-apple-silicon", version);
    expect(row).toMatchObject({ byteSize: whole.byteLength, sha256, r2Key: ref.key, publishedBy: adminId, platform: "mac", architecture: "apple-silicon" });
    const stored = await env.BUCKET.get(ref.key);
    expect(hex(await crypto.subtle.digest("SHA-256", await stored!.arrayBuffer()))).toBe(sha256);

    // The admin page lists it.
    const page = await admin.get("/dashboard/admin");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Publish a build");
    expect(html).toContain(sha256);
  });

  it("publishes a one-part file", async () => {
    const version = newVersion("-beta.1");
    const { ref, uploaded } = await uploadParts("linux-x64", version, [randomBytes(1000)]);
    const done = await postJson(admin, "complete", { ...ref, parts: uploaded });
    expect(done.status).toBe(200);
    expect((await releaseRows("linux-x64", version))[0]!.byteSize).toBe(1000);
  });

  it("publishes once when the same upload is completed in parallel", async () => {
    const version = newVersion();
    const { ref, uploaded } = await uploadParts("win-x86", version, [randomBytes(5000)]);
    const answers = await Promise.all(Array.from({ length: 4 }, () => postJson(admin, "complete", { ...ref, parts: uploaded })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    for (const s of statuses.filter((s) => s !== 200)) expect([404, 409]).toContain(s);
    expect(await releaseRows("win-x86", version)).toHaveLength(1);
    // The winner's file is still there.
    expect((await env.BUCKET.head(ref.key))?.size).toBe(5000);
  });

  it("publishes once when two uploads of the same version race, and keeps the winner's file", async () => {
    const version = newVersion();
    const a = await uploadParts("linux-arm64", version, [randomBytes(2000)]);
    const b = await uploadParts("linux-arm64", version, [randomBytes(3000)]);
    const answers = await Promise.all([
      postJson(admin, "complete", { ...a.ref, parts: a.uploaded }),
      postJson(admin, "complete", { ...b.ref, parts: b.uploaded }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const rows = await releaseRows("linux-arm64", version);
    expect(rows).toHaveLength(1);
    const stored = await env.BUCKET.get(rows[0]!.r2Key);
    expect(hex(await crypto.subtle.digest("SHA-256", await stored!.arrayBuffer()))).toBe(rows[0]!.sha256);
    expect(await objectsUnder(version)).toBe(1);
  });
});

describe("refusals", () => {
  it("refuses a version that is already published (409), at create and at complete", async () => {
    const version = newVersion();
    const first = await uploadParts("win-x86", version, [randomBytes(100)]);
    const second = await uploadParts("win-x86", version, [randomBytes(200)]);
    expect((await postJson(admin, "complete", { ...first.ref, parts: first.uploaded })).status).toBe(200);
    const again = await create(admin, "win-x86", version, 100);
    expect(again.response.status).toBe(409);
    expect(again.body.error).toContain("already published");
    const late = await postJson(admin, "complete", { ...second.ref, parts: second.uploaded });
    expect(late.status).toBe(409);
    expect(await releaseRows("win-x86", version)).toHaveLength(1);
  });

  it("refuses unknown options, bad versions and bad sizes with a message", async () => {
    const cases: [unknown, RegExp][] = [
      [{ optionId: "win-arm", version: "1.0.0", size: 10 }, /Unknown build/],
      [{ optionId: "win-x64", version: "1.0", size: 10 }, /version looks like/],
      [{ optionId: "win-x64", version: "1.0.0 beta", size: 10 }, /version looks like/],
      [{ optionId: "win-x64", version: `1.0.0-${"a".repeat(40)}`, size: 10 }, /at most 40/],
      [{ optionId: "win-x64", version: "../../etc/1.0.0", size: 10 }, /version looks like/],
      [{ optionId: "win-x64", version: "1.0.0", size: 0 }, /empty/],
      [{ optionId: "win-x64", version: "1.0.0", size: DOWNLOAD.maxInstallerBytes + 1 }, /at most 2 GB/],
      [{ optionId: "win-x64", version: "1.0.0" }, /size/],
    ];
    for (const [body, message] of cases) {
      const answer = await postJson(admin, "create", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(((await answer.json()) as { error: string }).error).toMatch(message);
    }
    expect((await postJson(admin, "create", "{not json")).status).toBe(400);
    const notJson = await SELF.fetch(`${ORIGIN}/dashboard/admin/releases/create`, {
      method: "POST",
      body: "optionId=win-x64",
      headers: { Cookie: admin.cookieHeader(), Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(notJson.status).toBe(415);
    expect((await postJson(admin, "publish", {})).status).toBe(404);
    expect((await admin.get("/dashboard/admin/releases/create")).status).toBe(405);
  });

  it("refuses wrong part numbers, oversize and empty parts, and keys of other builds", async () => {
    const version = newVersion();
    const { body } = await create(admin, "mac-intel", version, 2 * PART);
    const ref = { optionId: "mac-intel", version, key: body.key, uploadId: body.uploadId };
    for (const n of ["0", "-1", "1.5", "x", "10001"]) {
      const answer = await putPart(admin, ref, n, randomBytes(10));
      expect(answer.status, n).toBe(400);
      expect(((await answer.json()) as { error: string }).error).toMatch(/[Pp]art number/);
    }
    // Within R2's range but beyond the size cap.
    const tooFar = await putPart(admin, ref, 10_000, randomBytes(10));
    expect(tooFar.status).toBe(413);
    const oversize = await putPart(admin, ref, 1, randomBytes(PART + 1));
    expect(oversize.status).toBe(413);
    expect(((await oversize.json()) as { error: string }).error).toMatch(/at most 10 MB/);
    expect((await putPart(admin, ref, 1, new Uint8Array(0))).status).toBe(400);
    // Someone else's key, or an arbitrary one, is never written to.
    for (const key of ["releases/x", `releases/${version}/Modelify-${version}-mac-intel.dmg`, body.key.replace("mac-intel", "win-x64")]) {
      expect((await putPart(admin, { ...ref, key }, 1, randomBytes(10))).status).toBe(400);
    }
    expect((await putPart(admin, { ...ref, optionId: "win-x64" }, 1, randomBytes(10))).status).toBe(400);
    // An upload id R2 does not know.
    expect((await putPart(admin, { ...ref, uploadId: "no-such-upload" }, 1, randomBytes(10))).status).toBe(404);
    expect(await objectsUnder(version)).toBe(0);
  });

  it("refuses to complete with missing parts, and aborts cleanly", async () => {
    const version = newVersion();
    const { ref, uploaded } = await uploadParts("linux-x64", version, [randomBytes(PART), randomBytes(10)]);
    const gap = await postJson(admin, "complete", { ...ref, parts: [uploaded[1]] });
    expect(gap.status).toBe(400);
    expect(((await gap.json()) as { error: string }).error).toMatch(/Part 1 is missing/);
    expect((await postJson(admin, "complete", { ...ref, parts: [] })).status).toBe(400);
    // Part 3 was never uploaded: R2 cannot assemble the file.
    const unknown = await postJson(admin, "complete", { ...ref, parts: [...uploaded, { partNumber: 3, etag: "nope" }] });
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(unknown.status).toBeLessThan(500);
    const wrongEtag = await postJson(admin, "complete", { ...ref, parts: [uploaded[0], { partNumber: 2, etag: "nope" }] });
    expect(wrongEtag.status).toBeGreaterThanOrEqual(400);
    expect(wrongEtag.status).toBeLessThan(500);
    expect(await releaseRows("linux-x64", version)).toHaveLength(0);

    expect((await postJson(admin, "abort", ref)).status).toBe(200);
    expect((await postJson(admin, "abort", ref)).status).toBe(200);
    const afterAbort = await postJson(admin, "complete", { ...ref, parts: uploaded });
    expect(afterAbort.status).toBeGreaterThanOrEqual(400);
    expect(afterAbort.status).toBeLessThan(500);
    expect(await releaseRows("linux-x64", version)).toHaveLength(0);
    expect(await objectsUnder(version)).toBe(0);
  });

  it("answers 404 to a signed-in user who is not an admin, for every step, and writes nothing", async () => {
    const version = newVersion();
    const bytes = randomBytes(10);
    const { ref, uploaded } = await uploadParts("mac-apple-silicon", version, [bytes]);
    const before = await releaseCount();
    const { browser } = await createConfirmedUser();
    for (const [step, body] of [
      ["create", { optionId: "mac-apple-silicon", version: newVersion(), size: 10 }],
      ["complete", { ...ref, parts: [{ partNumber: 1, etag: "x" }] }],
      ["abort", ref],
    ] as const) {
      expect((await postJson(browser, step, body)).status, step).toBe(404);
    }
    expect((await putPart(browser, ref, 1, randomBytes(PART))).status).toBe(404);
    expect((await browser.get("/dashboard/admin/releases/create")).status).toBe(404);
    // Signed out: the sign-in page, as for every dashboard address.
    const anonymous = await putPart(new Browser(), ref, 1, randomBytes(1000));
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe("/auth");
    expect(await releaseCount()).toBe(before);
    expect(await objectsUnder(version)).toBe(0);
    // The admin's upload was not touched: it completes with the admin's bytes.
    expect((await postJson(admin, "complete", { ...ref, parts: uploaded })).status).toBe(200);
    expect(new Uint8Array(await (await env.BUCKET.get(ref.key))!.arrayBuffer())).toEqual(bytes);
  });

  it("refuses a cross-origin post", async () => {
    const answer = await SELF.fetch(`${ORIGIN}/dashboard/admin/releases/create`, {
      method: "POST",
      body: JSON.stringify({ optionId: "win-x64", version: newVersion(), size: 10 }),
      headers: { Cookie: admin.cookieHeader(), Origin: "https://evil.example", "Content-Type": "application/json" },
    });
    expect(answer.status).toBe(403);
  });
});
