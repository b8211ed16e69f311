import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, newNonce } from "./security-headers.server";

describe("the content security policy", () => {
  it("allows Meta's pixel only when one is configured", () => {
    const without = contentSecurityPolicy("n0nce", { https: true, formTargets: [] });
    expect(without).not.toContain("facebook");
    const withPixel = contentSecurityPolicy("n0nce", { https: true, formTargets: [], pixel: true });
    expect(withPixel).toContain("script-src 'self' 'nonce-n0nce' https://connect.facebook.net");
    expect(withPixel).toContain("img-src 'self' data: blob: https://www.facebook.com");
    expect(withPixel).toContain("connect-src 'self' https://www.facebook.com");
  });
});

describe("the nonce", () => {
  it("is 16 random bytes of its own in base64", () => {
    const nonces = Array.from({ length: 1000 }, () => newNonce());
    expect(new Set(nonces).size).toBe(nonces.length);
    for (const nonce of nonces) expect(Uint8Array.from(atob(nonce), (c) => c.charCodeAt(0))).toHaveLength(16);
    // Every byte value turns up in every position: the bytes are not a counter or a constant.
    const seen = Array.from({ length: 16 }, () => new Set<number>());
    for (const nonce of nonces) for (const [i, c] of [...atob(nonce)].entries()) seen[i]!.add(c.charCodeAt(0));
    for (const position of seen) expect(position.size).toBeGreaterThan(200);
  });
});
