// Downloads end to end through the Worker: the download call, the signed link served from R2
// with ranges, and every refusal (none of which is written to the history).
import { env } from "cloudflare:test";
import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { signDownloadToken } from "~/lib/downloads/link";
import { DOWNLOAD_MESSAGES } from "~/lib/downloads/messages";
import { optionById, releaseKey } from "~/lib/downloads/options";
import { publishRelease } from "~/lib/downloads/releases.server";
import { schema } from "~/lib/db.server";
import { Browser, createConfirmedUser, DOWNLOAD_LINK_KEYS, db, ORIGIN } from "./helpers";

const SIZE = 300_000;
const bytes = new Uint8Array(SIZE);
// getRandomValues fills at most 64 KB at a time.
for (let i = 0; i < SIZE; i += 65_536) crypto.getRandomValues(bytes.subarray(i, Math.min(i + 65_536, SIZE)));
let sha256: string;
let version: string;

async function userId(email: string) {
  return (await db.query.users.findFirst({ where: eq(schema.users.email, email) }))!.id;
}
async function subscriber() {
  const { browser, email } = await createConfirmedUser();
  const id = await userId(email);
  await db.insert(schema.subscriptions).values({ id: crypto.randomUUID(), userId: id, status: "active", currentPeriodEnd: Date.now() + 86400_000 });
  return { browser, id };
}
async function historyCount(id: string) {
  const [row] = await db.select({ n: count() }).from(schema.downloadHistory).where(eq(schema.downloadHistory.userId, id));
  return row!.n;
}
const prepare = (browser: Browser, platform = "windows", arch = "x64", headers: Record<string, string> = {}) =>
  browser.post("/downloads/prepare", { platform, arch }, headers);
const filePath = (url: string) => new URL(url).pathname;

beforeAll(async () => {
  version = `9.${Date.now() % 100000}.0`;
  const option = optionById("win-x64")!;
  const key = releaseKey(option, version);
  await env.BUCKET.put(key, bytes);
  const published = await publishRelease(db, env.BUCKET, { optionId: option.id, version, r2Key: key, publishedBy: null });
  if (!published.ok) throw new Error(published.message);
  sha256 = published.release.sha256;
});

describe("publishing a build", () => {
  it("reads size and SHA-256 from the stored file", async () => {
    const digest = await crypto.subtle.digest("SHA-256", bytes);
    expect(sha256).toBe([...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join(""));
    const row = await db.query.releases.findFirst({ where: eq(schema.releases.version, version) });
    expect(row).toMatchObject({ byteSize: SIZE, platform: "windows", architecture: "x64", recommended: true, fileName: `Modelify-${version}-win-x64.msi` });
  });

  it("publishes a version once, even when two publishes race", async () => {
    const option = optionById("linux-arm64")!;
    const v = `7.${Date.now() % 100000}.1`;
    await env.BUCKET.put(releaseKey(option, v), new Uint8Array([1, 2, 3]));
    const results = await Promise.all(
      Array.from({ length: 5 }, () => publishRelease(db, env.BUCKET, { optionId: option.id, version: v, r2Key: releaseKey(option, v), publishedBy: null })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.status)).toEqual([409, 409, 409, 409]);
    expect(await publishRelease(db, env.BUCKET, { optionId: "win-arm", version: "1", r2Key: "x", publishedBy: null })).toMatchObject({
      ok: false,
      status: 400,
    });
    expect(await publishRelease(db, env.BUCKET, { optionId: "mac-intel", version: "1.0.0-missing", r2Key: "releases/none", publishedBy: null })).toMatchObject({
      ok: false,
      status: 404,
    });
  });
});

describe("downloading", () => {
  it("gives a subscriber a short-lived link to the newest build, records it, and serves the exact bytes", async () => {
    const { browser, id } = await subscriber();
    const answer = await prepare(browser);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { success: boolean; download_url: string; release: { version: string; sha256: string; byteSize: number } };
    expect(body.success).toBe(true);
    expect(body.download_url).toMatch(new RegExp(`^${ORIGIN}/downloads/file/`));
    expect(body.release).toMatchObject({ sha256, byteSize: SIZE });
    expect(await historyCount(id)).toBe(1);
    const history = await db.query.downloadHistory.findFirst({ where: eq(schema.downloadHistory.userId, id) });
    expect(history).toMatchObject({ platform: "windows", architecture: "x64" });

    const file = await browser.get(filePath(body.download_url));
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Disposition")).toBe(`attachment; filename="Modelify-${body.release.version}-win-x64.msi"`);
    expect(file.headers.get("Content-Length")).toBe(String(SIZE));
    expect(file.headers.get("Accept-Ranges")).toBe("bytes");
    expect(file.headers.get("ETag")).toBe(`"${sha256}"`);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
  });

  it("resumes with a Range request, and never mixes builds (If-Range)", async () => {
    const { browser } = await subscriber();
    const { download_url } = (await (await prepare(browser)).json()) as { download_url: string };
    const path = filePath(download_url);
    const partial = await browser.get(path, { headers: { Range: "bytes=100000-" } });
    expect(partial.status).toBe(206);
    expect(partial.headers.get("Content-Range")).toBe(`bytes 100000-${SIZE - 1}/${SIZE}`);
    expect(partial.headers.get("Content-Length")).toBe(String(SIZE - 100000));
    expect(new Uint8Array(await partial.arrayBuffer())).toEqual(bytes.slice(100000));

    const sameBuild = await browser.get(path, { headers: { Range: "bytes=0-9", "If-Range": `"${sha256}"` } });
    expect(sameBuild.status).toBe(206);
    expect(new Uint8Array(await sameBuild.arrayBuffer())).toEqual(bytes.slice(0, 10));
    const otherBuild = await browser.get(path, { headers: { Range: "bytes=0-9", "If-Range": '"something-else"' } });
    expect(otherBuild.status).toBe(200);
    expect((await otherBuild.arrayBuffer()).byteLength).toBe(SIZE);

    const beyond = await browser.get(path, { headers: { Range: `bytes=${SIZE}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("Content-Range")).toBe(`bytes */${SIZE}`);
    const head = await browser.get(path, { method: "HEAD" });
    expect([head.status, head.headers.get("Content-Length"), await head.text()]).toEqual([200, String(SIZE), ""]);
  });

  it("evaluates conditional requests against the build (RFC 9110 13): 304 for a matching If-None-Match, 412 for a failed If-Match", async () => {
    const { browser } = await subscriber();
    const { download_url } = (await (await prepare(browser)).json()) as { download_url: string };
    const path = filePath(download_url);
    const etag = `"${sha256}"`;
    const first = await browser.get(path, { method: "HEAD" });
    const lastModified = first.headers.get("Last-Modified")!;

    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      for (const method of ["GET", "HEAD"]) {
        const notModified = await browser.get(path, { method, headers: { "If-None-Match": ifNoneMatch } });
        expect(notModified.status, `${method} ${ifNoneMatch}`).toBe(304);
        expect(notModified.headers.get("ETag")).toBe(etag);
        expect(notModified.headers.get("Cache-Control")).toBe("private, no-store");
        expect(notModified.headers.get("Last-Modified")).toBe(lastModified);
        expect((await notModified.arrayBuffer()).byteLength).toBe(0);
      }
    }
    const otherBuild = await browser.get(path, { headers: { "If-None-Match": '"something-else"' } });
    expect(otherBuild.status).toBe(200);
    expect((await otherBuild.arrayBuffer()).byteLength).toBe(SIZE);
    expect((await browser.get(path, { method: "HEAD", headers: { "If-Modified-Since": lastModified } })).status).toBe(304);

    for (const ifMatch of ['"something-else"', `W/${etag}`]) {
      const failed = await browser.get(path, { headers: { "If-Match": ifMatch, Range: "bytes=0-9" } });
      expect(failed.status, ifMatch).toBe(412);
      expect((await failed.arrayBuffer()).byteLength).toBe(0);
    }
    // If-Match naming this build: the resumed range is served.
    const matched = await browser.get(path, { headers: { "If-Match": etag, Range: "bytes=0-9" } });
    expect(matched.status).toBe(206);
    expect(new Uint8Array(await matched.arrayBuffer())).toEqual(bytes.slice(0, 10));
    // If-Range by date: the exact Last-Modified keeps the range, another date gets the whole file.
    const byDate = await browser.get(path, { headers: { "If-Range": lastModified, Range: "bytes=10-19" } });
    expect([byDate.status, new Uint8Array(await byDate.arrayBuffer())]).toEqual([206, bytes.slice(10, 20)]);
    const oldDate = await browser.get(path, { method: "HEAD", headers: { "If-Range": "Thu, 01 Jan 2026 00:00:00 GMT", Range: "bytes=10-19" } });
    expect(oldDate.status).toBe(200);
  });

  it("evaluates no precondition for a link that is refused anyway", async () => {
    const { browser } = await subscriber();
    const { download_url } = (await (await prepare(browser)).json()) as { download_url: string };
    const stranger = await new Browser().get(filePath(download_url), { headers: { "If-None-Match": "*" } });
    expect(stranger.status).toBe(403);
  });

  it("sends a form posted without JavaScript straight to the file", async () => {
    const { browser } = await subscriber();
    const answer = await prepare(browser, "windows", "x64", { "Sec-Fetch-Mode": "navigate" });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("Location")).toMatch(/\/downloads\/file\//);
  });
});

describe("refusals write nothing", () => {
  it("refuses the signed-out, the free user, unknown and unpublished versions with the spec's texts", async () => {
    const anonymous = new Browser();
    const signedOut = await prepare(anonymous);
    expect([signedOut.status, await signedOut.json()]).toEqual([401, { success: false, error: DOWNLOAD_MESSAGES.signInRequired }]);

    const { browser, email } = await createConfirmedUser();
    const id = await userId(email);
    const free = await prepare(browser);
    expect([free.status, await free.json()]).toEqual([403, { success: false, error: DOWNLOAD_MESSAGES.subscriptionRequired }]);

    const paying = await subscriber();
    for (const [platform, arch] of [
      ["windows", "arm64"],
      ["mac", "x64"],
      ["", ""],
      ["windows", "x64'; DROP TABLE releases;--"],
    ]) {
      const answer = await prepare(paying.browser, platform, arch);
      expect(answer.status, `${platform}/${arch}`).toBe(400);
    }
    const unpublished = await prepare(paying.browser, "mac", "intel");
    // mac-intel has no build in this test database (the race test published linux-arm64 only).
    expect([unpublished.status, ((await unpublished.json()) as { error: string }).error]).toEqual([404, DOWNLOAD_MESSAGES.notPublished]);
    expect(await historyCount(id)).toBe(0);
    expect(await historyCount(paying.id)).toBe(0);
  });

  it("refuses a cross-site post before it reads anything", async () => {
    const { browser, id } = await subscriber();
    const answer = await browser.post("/downloads/prepare", { platform: "windows", arch: "x64" }, { Origin: "https://evil.example" });
    expect(answer.status).toBe(403);
    expect(await historyCount(id)).toBe(0);
  });

  it("refuses another user's, an expired, a tampered link and a signed-out client with a clear 403 page", async () => {
    const owner = await subscriber();
    const other = await subscriber();
    const { download_url } = (await (await prepare(owner.browser)).json()) as { download_url: string };
    const path = filePath(download_url);
    const before = await historyCount(other.id);

    const page = async (response: Response) => [response.status, await response.text()] as const;
    const [otherStatus, otherHtml] = await page(await other.browser.get(path));
    expect(otherStatus).toBe(403);
    expect(otherHtml).toContain("This download link belongs to another account.");

    const [anonStatus, anonHtml] = await page(await new Browser().get(path));
    expect(anonStatus).toBe(403);
    expect(anonHtml).toContain(DOWNLOAD_MESSAGES.signInRequired);

    const release = await db.query.releases.findFirst({ where: eq(schema.releases.version, version) });
    const expired = await signDownloadToken(DOWNLOAD_LINK_KEYS, {
      releaseId: release!.id,
      userId: owner.id,
      expiresAt: Date.now() - 1000,
    });
    const [expiredStatus, expiredHtml] = await page(await owner.browser.get(`/downloads/file/${expired}`));
    expect(expiredStatus).toBe(403);
    expect(expiredHtml).toContain("This download link has expired.");

    const token = path.split("/").at(-1)!;
    const tampered = `${token.slice(0, 5)}${token[5] === "A" ? "B" : "A"}${token.slice(6)}`;
    for (const bad of [tampered, "not-a-token", `${token}x`, "%00"]) {
      const [status, html] = await page(await owner.browser.get(`/downloads/file/${bad}`));
      expect(status, bad).toBe(403);
      expect(html).toContain("This download link is not valid.");
    }
    expect(await historyCount(other.id)).toBe(before);
    expect(await historyCount(owner.id)).toBe(1);
  });
});
