import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { clearFailures, lockedForSeconds, lockoutKeys, recordFailure } from "./lockout";

describe("lockout counters in KV", () => {
  it("locks sign-in after more than 4 failures for 15 minutes", async () => {
    const keys = await lockoutKeys("signIn", { email: `lock-${Date.now()}@example.com`, ip: "198.51.100.1" });
    const now = Date.now();
    for (let i = 0; i < 4; i++) expect(await recordFailure(env.KV, "signIn", keys, now)).toEqual([]);
    expect(await lockedForSeconds(env.KV, keys, now)).toBe(0);
    expect((await recordFailure(env.KV, "signIn", keys, now)).sort()).toEqual([...keys].sort());
    expect(await lockedForSeconds(env.KV, keys, now)).toBe(15 * 60);
    expect(await lockedForSeconds(env.KV, keys, now + 15 * 60 * 1000)).toBe(0);
    await clearFailures(env.KV, keys);
    expect(await lockedForSeconds(env.KV, keys, now)).toBe(0);
  });

  it("locks sign-up after more than 3 failures for 30 minutes", async () => {
    const keys = await lockoutKeys("signUp", { ip: "198.51.100.2" });
    const now = Date.now();
    for (let i = 0; i < 3; i++) expect(await recordFailure(env.KV, "signUp", keys, now)).toEqual([]);
    expect(await recordFailure(env.KV, "signUp", keys, now)).toEqual(keys);
    expect(await lockedForSeconds(env.KV, keys, now)).toBe(30 * 60);
  });

  it("keys accounts by a hash of the e-mail, never the address itself", async () => {
    const [account] = await lockoutKeys("signIn", { email: "Ada@Example.com" });
    expect(account).toMatch(/^lockout:signIn:account:[0-9a-f]{64}$/);
    expect(account).not.toContain("example");
  });
});
