import { describe, expect, it } from "vitest";
import { PHONE_CODE } from "../constants";
import { phoneCodeExpiresAt, phoneStatus } from "./status";

const TTL = PHONE_CODE.ttlSeconds * 1000;
const now = 1_800_000_000_000;

describe("phoneStatus", () => {
  it("is verified once verified, whatever a code's time", () => {
    expect(phoneStatus({ phoneVerified: true, phoneCodeSentAt: null }, now)).toBe("verified");
    expect(phoneStatus({ phoneVerified: true, phoneCodeSentAt: now - 1000 }, now)).toBe("verified");
  });

  it("is pending while the last code is younger than its 900 s", () => {
    expect(phoneStatus({ phoneVerified: false, phoneCodeSentAt: now }, now)).toBe("pending");
    expect(phoneStatus({ phoneVerified: false, phoneCodeSentAt: now - TTL + 1 }, now)).toBe("pending");
  });

  it("is unverified with no code or an expired one", () => {
    expect(phoneStatus({ phoneVerified: false, phoneCodeSentAt: null }, now)).toBe("unverified");
    expect(phoneStatus({ phoneVerified: false, phoneCodeSentAt: now - TTL }, now)).toBe("unverified");
    expect(phoneStatus({ phoneVerified: false, phoneCodeSentAt: now - 2 * TTL }, now)).toBe("unverified");
  });
});

describe("phoneCodeExpiresAt", () => {
  it("is 900 s after the send, or null", () => {
    expect(phoneCodeExpiresAt(now)).toBe(now + 900_000);
    expect(phoneCodeExpiresAt(null)).toBeNull();
  });
});
