import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./redirects.server";

describe("redirect targets", () => {
  it("never redirects off-site", () => {
    expect(safeRedirectPath("/dashboard")).toBe("/dashboard");
    expect(safeRedirectPath("//evil.example")).toBe("/");
    expect(safeRedirectPath("https://evil.example")).toBe("/");
    expect(safeRedirectPath("/\\evil.example")).toBe("/");
    expect(safeRedirectPath(undefined)).toBe("/");
    for (const evil of [
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r/evil.example",
      "/ /evil.example",
      "/\u00a0/evil.example",
      "/\\/evil.example",
      "/\u0000/evil.example",
      "///evil.example",
    ]) {
      expect(safeRedirectPath(evil), JSON.stringify(evil)).toBe("/");
    }
    expect(safeRedirectPath("/dashboard?tab=billing#top")).toBe("/dashboard?tab=billing#top");
    expect(safeRedirectPath("/auth/../dashboard")).toBe("/dashboard");
  });
});
