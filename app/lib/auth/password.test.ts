import { describe, expect, it } from "vitest";
import { PBKDF2_ITERATIONS } from "../constants";
import { hashSecret, normaliseSecurityAnswer, verifySecret } from "./password";

describe("password hashing", () => {
  it("uses PBKDF2-SHA256 with 100,000 iterations and a 16-byte salt per hash", async () => {
    const a = await hashSecret("Sunny-Day-42");
    const b = await hashSecret("Sunny-Day-42");
    expect(PBKDF2_ITERATIONS).toBe(100_000);
    expect(a).toMatch(/^pbkdf2_sha256\$100000\$[\w-]{22}\$[\w-]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifySecret("Sunny-Day-42", a)).toBe(true);
    expect(await verifySecret("Sunny-Day-43", a)).toBe(false);
    expect(await verifySecret("Sunny-Day-42", "garbage")).toBe(false);
  });

  it("refuses more than 100,000 iterations, which production Workers reject", async () => {
    await expect(hashSecret("x", 100_001)).rejects.toThrow(/outside 1\.\.100000/);
    const forged = (await hashSecret("x")).replace("$100000$", "$200000$");
    await expect(verifySecret("x", forged)).rejects.toThrow();
  });

  it("normalises security answers before hashing", () => {
    expect(normaliseSecurityAnswer("  Rex   the DOG ")).toBe("rex the dog");
  });
});
