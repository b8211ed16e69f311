import { describe, expect, it } from "vitest";
import { signDownloadToken, verifyDownloadToken } from "./link";

const SECRET = { current: "a-test-secret-that-is-long-enough-0123456789" };
const OTHER = { current: "another-secret-that-is-long-enough-0123456789" };
const claim = { releaseId: "rel_1", userId: "user_1", expiresAt: Date.now() + 60_000 };

describe("signed download links", () => {
  it("verify what they signed, to the second", async () => {
    const token = await signDownloadToken(SECRET, claim);
    const verified = await verifyDownloadToken(SECRET, token);
    expect(verified).toEqual({ ok: true, claim: { ...claim, expiresAt: Math.floor(claim.expiresAt / 1000) * 1000 } });
  });

  it("refuse an expired link as expired", async () => {
    const token = await signDownloadToken(SECRET, { ...claim, expiresAt: Date.now() - 1000 });
    expect(await verifyDownloadToken(SECRET, token)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuse a link with another release, user or expiry, or signed with another secret", async () => {
    const token = await signDownloadToken(SECRET, claim);
    const [payload, signature] = token.split(".") as [string, string];
    const forged = async (changed: Partial<typeof claim>) => {
      const other = await signDownloadToken(OTHER, { ...claim, ...changed });
      return `${other.split(".")[0]}.${signature}`;
    };
    for (const t of [await forged({ releaseId: "rel_2" }), await forged({ userId: "user_2" }), await forged({ expiresAt: claim.expiresAt + 86_400_000 })]) {
      expect(await verifyDownloadToken(SECRET, t)).toEqual({ ok: false, reason: "invalid" });
    }
    expect(await verifyDownloadToken(OTHER, token)).toEqual({ ok: false, reason: "invalid" });
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const withChar = (at: number, change: (index: number) => number) =>
      `${payload}.${signature.slice(0, at)}${alphabet[change(alphabet.indexOf(signature[at] as string))]}${signature.slice(at + 1)}`;
    // One bit of the MAC changed, and (every time, not one run in sixteen) the last character's
    // two unused bits changed, which decodes to the same bytes.
    for (const altered of [withChar(20, (i) => i ^ 1), withChar(42, (i) => i ^ 1), withChar(42, (i) => i ^ 2), withChar(42, (i) => i ^ 3)]) {
      expect(altered).not.toBe(token);
      expect(await verifyDownloadToken(SECRET, altered)).toEqual({ ok: false, reason: "invalid" });
    }
    for (const junk of ["", "abc", `${payload}`, `${payload}.`, `${payload}.${signature}.x`, "../../etc/passwd", `${"A".repeat(5000)}.${signature}`]) {
      expect(await verifyDownloadToken(SECRET, junk)).toEqual({ ok: false, reason: "invalid" });
    }
  });

  it("verify across a rotation: the previous key's links still, an older key's not", async () => {
    const [oldest, previous, current] = ["oldest", "previous", "current"].map((name) => `${name}-download-link-secret-0123456789abcdef`) as [
      string,
      string,
      string,
    ];
    const fromPrevious = await signDownloadToken({ current: previous, previous: oldest }, claim);
    const fromOldest = await signDownloadToken({ current: oldest }, claim);
    const rotated = { current, previous };
    expect(await verifyDownloadToken(rotated, fromPrevious)).toMatchObject({ ok: true });
    expect(await verifyDownloadToken(rotated, fromOldest)).toEqual({ ok: false, reason: "invalid" });
    // New links are signed with the current key only.
    const fresh = await signDownloadToken(rotated, claim);
    expect(await verifyDownloadToken({ current }, fresh)).toMatchObject({ ok: true });
    expect(await verifyDownloadToken({ current: previous }, fresh)).toEqual({ ok: false, reason: "invalid" });
  });
});
