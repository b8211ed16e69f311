import { describe, expect, it } from "vitest";
import { formatActivationKey, generateActivationKey, normaliseActivationKey } from "./keys";

describe("activation keys", () => {
  it("are 16 characters of A-Z and 0-9, with no duplicates in 100,000", () => {
    const seen = new Set<string>();
    const counts = new Map<string, number>();
    for (let i = 0; i < 100_000; i++) {
      const key = generateActivationKey();
      expect(key).toMatch(/^[A-Z0-9]{16}$/);
      seen.add(key);
      for (const c of key) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    expect(seen.size).toBe(100_000);
    // 1.6 million symbols over 36: each about 44,444; a biased draw would be off by thousands.
    expect(counts.size).toBe(36);
    for (const n of counts.values()) expect(Math.abs(n - 1_600_000 / 36)).toBeLessThan(1_500);
  });

  it("show grouped 4-4-4-4 and are read back with or without dashes, in any case", () => {
    expect(formatActivationKey("ABCD1234EFGH5678")).toBe("ABCD-1234-EFGH-5678");
    expect(normaliseActivationKey("abcd-1234-efgh-5678")).toBe("ABCD1234EFGH5678");
    expect(normaliseActivationKey(" ABCD 1234 EFGH 5678 ")).toBe("ABCD1234EFGH5678");
    expect(normaliseActivationKey("ABCD1234EFGH567")).toBeNull();
    expect(normaliseActivationKey("ABCD1234EFGH567!")).toBeNull();
    expect(normaliseActivationKey("ÄBCD1234EFGH5678")).toBeNull();
  });
});
