import { describe, expect, it } from "vitest";
import { decodeProtectedHeader, SignJWT } from "jose";
import { keyId } from "../keys";
import { signAccessToken, verifyAccessToken } from "./jwt";

const SECRET = { current: "a-test-secret-that-is-long-enough-0123456789" };
const T0 = Date.parse("2026-11-23T10:00:00.000Z");

describe("access tokens", () => {
  it("verify until they expire, also when this isolate has verified them before", async () => {
    const token = await signAccessToken({ sub: "user-1", sid: "session-1" }, SECRET, 15 * 60_000, T0);
    expect(await verifyAccessToken(token, SECRET, T0 + 1_000)).toEqual({ sub: "user-1", sid: "session-1", expiresAt: T0 + 15 * 60_000 });
    expect(await verifyAccessToken(token, SECRET, T0 + 14 * 60_000)).toEqual({ sub: "user-1", sid: "session-1", expiresAt: T0 + 15 * 60_000 });
    expect(await verifyAccessToken(token, SECRET, T0 + 15 * 60_000)).toBeNull();
    expect(await verifyAccessToken(token, SECRET, T0 + 1_000)).toEqual({ sub: "user-1", sid: "session-1", expiresAt: T0 + 15 * 60_000 });
  });

  it("refuse a token first seen after its expiry", async () => {
    const token = await signAccessToken({ sub: "user-2", sid: "session-2" }, SECRET, 60_000, T0);
    expect(await verifyAccessToken(token, SECRET, T0 + 61_000)).toBeNull();
  });

  it("refuse a changed token and another secret's token, whatever was verified before", async () => {
    const token = await signAccessToken({ sub: "user-3", sid: "session-3" }, SECRET, 60_000, T0);
    expect(await verifyAccessToken(token, SECRET, T0)).not.toBeNull();
    const [header, payload, signature] = token.split(".");
    const forged = btoa(JSON.stringify({ ...JSON.parse(atob(payload!.replace(/-/g, "+").replace(/_/g, "/"))), sub: "user-4" }))
      .replace(/=+$/, "")
      .replace(/\+/g, "-")
      .replace(/\//g, "_");
    expect(await verifyAccessToken(`${header}.${forged}.${signature}`, SECRET, T0)).toBeNull();
    expect(await verifyAccessToken(token, { current: `${SECRET.current}-rotated` }, T0)).toBeNull();
    expect(await verifyAccessToken(`${token}x`, SECRET, T0)).toBeNull();
  });

  it("name their key, and verify across a rotation: the previous key's tokens still, an older key's not", async () => {
    const [oldest, previous, current] = ["oldest", "previous", "current"].map((name) => `${name}-jwt-secret-0123456789abcdefghij`) as [string, string, string];
    const claims = { sub: "user-5", sid: "session-5" };
    const fromPrevious = await signAccessToken(claims, { current: previous, previous: oldest }, 60_000, T0);
    expect(decodeProtectedHeader(fromPrevious).kid).toBe(await keyId(previous));
    const fromOldest = await signAccessToken(claims, { current: oldest }, 60_000, T0);
    const rotated = { current, previous };
    expect(await verifyAccessToken(fromPrevious, rotated, T0)).toEqual({ ...claims, expiresAt: T0 + 60_000 });
    expect(await verifyAccessToken(fromOldest, rotated, T0)).toBeNull();
    // A kid naming the current key is checked against that key only.
    const fresh = await signAccessToken(claims, rotated, 60_000, T0);
    expect(decodeProtectedHeader(fresh).kid).toBe(await keyId(current));
    expect(await verifyAccessToken(fresh, rotated, T0)).toEqual({ ...claims, expiresAt: T0 + 60_000 });
    expect(await verifyAccessToken(fresh, { current: previous }, T0)).toBeNull();
  });

  it("accept a token from before tokens carried a kid under either key of the ring", async () => {
    const secret = "a-key-from-before-kids-0123456789abcdef";
    const token = await new SignJWT({ sid: "session-6" })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject("user-6")
      .setIssuer("modelify")
      .setAudience("modelify")
      .setIssuedAt(Math.floor(T0 / 1000))
      .setExpirationTime(Math.floor(T0 / 1000) + 60)
      .sign(new TextEncoder().encode(secret));
    expect(await verifyAccessToken(token, { current: "the-new-key-0123456789abcdefghijklmn", previous: secret }, T0)).toEqual({
      sub: "user-6",
      sid: "session-6",
      expiresAt: T0 + 60_000,
    });
    expect(await verifyAccessToken(token, { current: "the-new-key-0123456789abcdefghijklmn" }, T0)).toBeNull();
  });
});
