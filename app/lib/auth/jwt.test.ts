import { describe, expect, it } from "vitest";
import { signAccessToken, verifyAccessToken } from "./jwt";

const SECRET = "a-test-secret-that-is-long-enough-0123456789";
const T0 = Date.parse("2026-11-23T10:00:00.000Z");

describe("access tokens", () => {
  it("verify until they expire, also when this isolate has verified them before", async () => {
    const token = await signAccessToken({ sub: "user-1", sid: "session-1" }, SECRET, 15 * 60_000, T0);
    expect(await verifyAccessToken(token, SECRET, T0 + 1_000)).toEqual({ sub: "user-1", sid: "session-1" });
    expect(await verifyAccessToken(token, SECRET, T0 + 14 * 60_000)).toEqual({ sub: "user-1", sid: "session-1" });
    expect(await verifyAccessToken(token, SECRET, T0 + 15 * 60_000)).toBeNull();
    expect(await verifyAccessToken(token, SECRET, T0 + 1_000)).toEqual({ sub: "user-1", sid: "session-1" });
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
    expect(await verifyAccessToken(token, `${SECRET}-rotated`, T0)).toBeNull();
    expect(await verifyAccessToken(`${token}x`, SECRET, T0)).toBeNull();
  });
});
