import { describe, expect, it } from "vitest";
import { generatePhoneCode, isE164, phoneCodeInputSchema, phoneCodeSms, phoneVerifyLink } from "./code";
import { needsNewCode, parsePhoneFailure, parseWaitMinutes, PHONE_FAILURES, phoneFailureMessage } from "./outcome";

describe("generatePhoneCode", () => {
  it("draws six digits, leading zeros kept", () => {
    expect(generatePhoneCode((a) => a.set([7]))).toBe("000007");
    expect(generatePhoneCode((a) => a.set([999_999]))).toBe("999999");
    expect(generatePhoneCode((a) => a.set([1_000_000]))).toBe("000000");
  });

  it("draws again above the largest multiple of a million that fits in 32 bits, so no code is favoured", () => {
    const limit = Math.floor(2 ** 32 / 1e6) * 1e6; // 4,294,000,000
    const draws = [2 ** 32 - 1, limit, limit - 1];
    let calls = 0;
    const code = generatePhoneCode((a) => a.set([draws[calls++]!]));
    expect(calls).toBe(3);
    expect(code).toBe(String((limit - 1) % 1e6).padStart(6, "0"));
  });

  it("spreads codes evenly (100,000 draws: every leading digit and every last digit about 10 %)", () => {
    const first = new Array<number>(10).fill(0);
    const last = new Array<number>(10).fill(0);
    const seen = new Set<string>();
    const n = 100_000;
    for (let i = 0; i < n; i++) {
      const code = generatePhoneCode();
      expect(code).toMatch(/^\d{6}$/);
      first[Number(code[0])]!++;
      last[Number(code[5])]!++;
      seen.add(code);
    }
    // Binomial(100000, 0.1): sd ≈ 95; ±600 is more than 6 sd.
    for (const counts of [first, last]) for (const c of counts) expect(Math.abs(c - n / 10)).toBeLessThan(600);
    // Birthday bound: about 4,800 repeats expected among 100,000 draws from a million.
    expect(seen.size).toBeGreaterThan(94_000);
    expect(seen.size).toBeLessThan(96_500);
  });
});

describe("the code's text message and link", () => {
  it("encodes the number's + in the link", () => {
    expect(phoneVerifyLink("https://modelify.example", "012345", "+15551234567")).toBe(
      "https://modelify.example/verify-phone?code=012345&phone=%2B15551234567",
    );
  });

  it("holds the code, its lifetime and the link", () => {
    const sms = phoneCodeSms("http://localhost:5173", "654321", "+447911123456");
    expect(sms.links).toEqual(["http://localhost:5173/verify-phone?code=654321&phone=%2B447911123456"]);
    expect(sms.text).toContain("654321");
    expect(sms.text).toContain("15 minutes");
    expect(sms.text).toContain(sms.links[0]);
    expect(sms.text.length).toBeLessThanOrEqual(1600);
  });
});

describe("phone numbers and typed codes", () => {
  it("knows E.164", () => {
    for (const ok of ["+15551234567", "+447911123456", "+8613800138000"]) expect(isE164(ok), ok).toBe(true);
    for (const bad of ["15551234567", "+0123456789", "+1555", "+1234567890123456", "+1 555 123 4567", ""]) expect(isE164(bad), bad).toBe(false);
  });

  it("takes six digits, forgiving spaces and dashes", () => {
    expect(phoneCodeInputSchema.parse("123456")).toBe("123456");
    expect(phoneCodeInputSchema.parse(" 123-456 ")).toBe("123456");
    for (const bad of ["12345", "1234567", "12345a", "١٢٣٤٥٦", "", "x".repeat(40)]) expect(phoneCodeInputSchema.safeParse(bad).success, bad).toBe(false);
  });
});

describe("failure reasons", () => {
  it("have a message each and survive the URL", () => {
    for (const reason of PHONE_FAILURES) {
      expect(phoneFailureMessage(reason, 3)).toBeTruthy();
      expect(parsePhoneFailure(reason)).toBe(reason);
    }
    expect(phoneFailureMessage("too-many-sends", 1)).toBe("Too many codes sent. Please try again in 1 minute.");
    expect(parsePhoneFailure("<script>")).toBeNull();
    expect(parsePhoneFailure(null)).toBeNull();
    expect(needsNewCode("code-ended")).toBe(true);
    expect(needsNewCode("invalid-code")).toBe(false);
  });

  it("reads the wait as whole minutes within the send window", () => {
    expect(parseWaitMinutes("12")).toBe(12);
    for (const bad of ["0", "-3", "1.5", "61", "abc", null]) expect(parseWaitMinutes(bad)).toBe(1);
  });
});
