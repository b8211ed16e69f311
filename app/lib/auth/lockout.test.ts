import { describe, expect, it } from "vitest";
import { accountKey, ipGuardKey, ipSubject } from "./lockout";

describe("lockout keys", () => {
  it("keys accounts by a hash of the e-mail, never the address itself", async () => {
    const key = await accountKey("signIn", " Ada@Example.com ");
    expect(key).toMatch(/^lockout:signIn:account:[0-9a-f]{64}$/);
    expect(key).not.toContain("example");
    expect(key).toBe(await accountKey("signIn", "ada@example.com"));
    expect(await accountKey("signUp", "ada@example.com")).not.toBe(key);
  });

  it("counts an IPv6 client by its /64, an IPv4 client by its address", () => {
    expect(ipSubject("198.51.100.7")).toBe("198.51.100.7");
    expect(ipSubject("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(ipSubject("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(ipSubject("2001:db8::1")).toBe("2001:db8::/64");
    expect(ipGuardKey("signIn", "2001:db8:1:2::9")).toBe(ipGuardKey("signIn", "2001:db8:1:2:ffff::1"));
  });
});
