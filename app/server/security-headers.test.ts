import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "./security-headers";

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
