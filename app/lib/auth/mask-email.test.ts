import { describe, expect, it } from "vitest";
import { maskEmail } from "./mask-email";

describe("maskEmail", () => {
  it("keeps the first and last character of the name and the whole domain", () => {
    expect(maskEmail("alice@example.com")).toBe("a•••e@example.com");
    expect(maskEmail("ab@example.com")).toBe("a•••@example.com");
    expect(maskEmail("a@example.com")).toBe("a•••@example.com");
  });

  it("never shows more than two characters of the name, whatever its length", () => {
    const masked = maskEmail("victim.name+tag@example.org");
    expect(masked).toBe("v•••g@example.org");
    expect(masked).not.toContain("ictim");
  });

  it("hides everything of something that is not an address", () => {
    expect(maskEmail("no-at-sign")).toBe("•••");
    expect(maskEmail("@example.com")).toBe("•••");
  });
});
