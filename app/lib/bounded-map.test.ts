import { describe, expect, it } from "vitest";
import { BoundedMap } from "./bounded-map";

const T0 = Date.parse("2026-11-23T10:00:00.000Z");

describe("BoundedMap", () => {
  it("never holds more than its cap, forgetting the entry set longest ago first", () => {
    const map = new BoundedMap<string, number>(3);
    for (const [i, key] of ["a", "b", "c", "d"].entries()) map.set(key, i);
    expect(map.size).toBe(3);
    expect(map.get("a")).toBeUndefined();
    expect([map.get("b"), map.get("c"), map.get("d")]).toEqual([1, 2, 3]);
  });

  it("counts setting a key again as its newest", () => {
    const map = new BoundedMap<string, number>(2);
    map.set("a", 1);
    map.set("b", 2);
    map.set("a", 3);
    map.set("c", 4);
    expect(map.get("b")).toBeUndefined();
    expect(map.get("a")).toBe(3);
    expect(map.get("c")).toBe(4);
  });

  it("keeps a value until its expiry and reads it as absent from then on, dropping it", () => {
    const map = new BoundedMap<string, string>(10);
    map.set("token", "claims", T0 + 5_000);
    expect(map.get("token", T0)).toBe("claims");
    expect(map.get("token", T0 + 4_999)).toBe("claims");
    expect(map.get("token", T0 + 5_000)).toBeUndefined();
    expect(map.size).toBe(0);
    // Gone for good, even at an earlier time.
    expect(map.get("token", T0)).toBeUndefined();
  });

  it("keeps a value set without an expiry for as long as there is room", () => {
    const map = new BoundedMap<string, boolean>(1);
    map.set("agent", false);
    expect(map.get("agent", Number.MAX_SAFE_INTEGER)).toBe(false);
  });

  it("forgets one key, or every entry a rule matches", () => {
    const map = new BoundedMap<string, { userId: string }>(10);
    map.set("s1", { userId: "u1" });
    map.set("s2", { userId: "u1" });
    map.set("s3", { userId: "u2" });
    expect(map.delete("s3")).toBe(true);
    expect(map.delete("s3")).toBe(false);
    map.set("s3", { userId: "u2" });
    map.deleteWhere((entry) => entry.userId === "u1");
    expect(map.size).toBe(1);
    expect(map.get("s3")).toEqual({ userId: "u2" });
  });

  it("refuses a cap with no room", () => {
    expect(() => new BoundedMap(0)).toThrow(RangeError);
    expect(() => new BoundedMap(Number.NaN)).toThrow(RangeError);
  });
});
