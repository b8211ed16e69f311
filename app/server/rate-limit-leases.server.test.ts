import { describe, expect, it } from "vitest";
import productionConfig from "../../wrangler.toml?raw";
import { USAGE_API } from "~/lib/constants";
import { RateLimitLeases } from "./rate-limit-leases.server";

const MINUTE = 60_000;
const T0 = Date.parse("2026-11-23T10:00:00.000Z");

/** A fixed-window counter like the platform's limiter: `limit` calls per key and window. */
function fakeLimiter(limit: number, clock: () => number) {
  const counts = new Map<string, number>();
  let calls = 0;
  const call = async (key: string) => {
    calls++;
    await Promise.resolve();
    const slot = `${key}:${Math.floor(clock() / MINUTE)}`;
    const count = (counts.get(slot) ?? 0) + 1;
    counts.set(slot, count);
    return count <= limit;
  };
  return { call, calls: () => calls };
}

describe("RateLimitLeases", () => {
  it("allows exactly the window's requests to a parallel burst, then refuses without asking until the window ends", async () => {
    let now = T0 + 5_000;
    const limiter = fakeLimiter(100, () => now);
    const leases = new RateLimitLeases(10, MINUTE);
    const answers = await Promise.all(Array.from({ length: 1_200 }, () => leases.allow("user-a", limiter.call, now)));
    expect(answers.filter(Boolean)).toHaveLength(1_000);
    // Refused from memory for the rest of the window.
    const before = limiter.calls();
    for (let i = 0; i < 50; i++) expect(await leases.allow("user-a", limiter.call, now)).toBe(false);
    expect(limiter.calls()).toBe(before);
    now += MINUTE;
    expect(await leases.allow("user-a", limiter.call, now)).toBe(true);
  });

  it("asks the limiter once per lease when requests come one after another", async () => {
    const now = T0 + 1_000;
    const limiter = fakeLimiter(100, () => now);
    const leases = new RateLimitLeases(10, MINUTE);
    let allowed = 0;
    for (let i = 0; i < 1_005; i++) if (await leases.allow("user-a", limiter.call, now)) allowed++;
    expect(allowed).toBe(1_000);
    expect(limiter.calls()).toBe(101);
  });

  it("never lets a key past the limit when its requests spread over isolates; it may be refused up to a lease early per isolate", async () => {
    const now = T0 + 30_000;
    const limiter = fakeLimiter(100, () => now);
    const isolates = [new RateLimitLeases(10, MINUTE), new RateLimitLeases(10, MINUTE), new RateLimitLeases(10, MINUTE)];
    let allowed = 0;
    for (let i = 0; i < 1_500; i++) if (await isolates[i % 3]!.allow("user-a", limiter.call, now)) allowed++;
    expect(allowed).toBeLessThanOrEqual(1_000);
    expect(allowed).toBeGreaterThanOrEqual(1_000 - 3 * 9);
  });

  it("keeps keys apart", async () => {
    const now = T0;
    const limiter = fakeLimiter(1, () => now);
    const leases = new RateLimitLeases(10, MINUTE);
    for (let i = 0; i < 10; i++) expect(await leases.allow("user-a", limiter.call, now)).toBe(true);
    expect(await leases.allow("user-a", limiter.call, now)).toBe(false);
    expect(await leases.allow("user-b", limiter.call, now)).toBe(true);
  });

  it("drops a lease's credit when its window ends", async () => {
    let now = T0 + 59_000;
    const limiter = fakeLimiter(1, () => now);
    const leases = new RateLimitLeases(10, MINUTE);
    expect(await leases.allow("user-a", limiter.call, now)).toBe(true);
    now = T0 + MINUTE;
    const before = limiter.calls();
    expect(await leases.allow("user-a", limiter.call, now)).toBe(true);
    expect(limiter.calls()).toBe(before + 1);
  });

  it("forgets the oldest lease beyond its bound (which only costs a limiter call)", async () => {
    const now = T0;
    const limiter = fakeLimiter(100, () => now);
    const leases = new RateLimitLeases(10, MINUTE, 2);
    await leases.allow("a", limiter.call, now);
    await leases.allow("b", limiter.call, now);
    await leases.allow("c", limiter.call, now); // forgets a
    const before = limiter.calls();
    await leases.allow("b", limiter.call, now);
    await leases.allow("c", limiter.call, now);
    expect(limiter.calls()).toBe(before);
    await leases.allow("a", limiter.call, now);
    expect(limiter.calls()).toBe(before + 1);
  });
});

describe("the limiter binding's configuration", () => {
  it("grants requestsPerMinute per window in leases of rateLimitLease", () => {
    const block = /\[\[ratelimits\]\][^[]*name = "USAGE_RATE_LIMITER"[^[]*simple = \{ limit = (\d+), period = (\d+) \}/.exec(productionConfig);
    expect(block).not.toBeNull();
    expect(Number(block![1]) * USAGE_API.rateLimitLease).toBe(USAGE_API.requestsPerMinute);
    expect(Number(block![2])).toBe(USAGE_API.rateLimitPeriodSeconds);
  });
});
