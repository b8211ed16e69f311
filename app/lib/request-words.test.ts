// How /device tells a user when and where a code was asked for (RFC 8628 5.4), on a fixed clock.
import { describe, expect, it } from "vitest";
import { DEVICE_MESSAGES } from "./auth/device-codes";
import { countryInSentence, countryName } from "./country";
import { SITE_FORMATS } from "./format";

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const MINUTE = 60_000;

describe("how long ago", () => {
  it.each([
    [0, "less than a minute ago"],
    [59_999, "less than a minute ago"],
    [MINUTE, "1 minute ago"],
    [2 * MINUTE + 5_000, "2 minutes ago"],
    [59 * MINUTE + 59_999, "59 minutes ago"],
    [60 * MINUTE, "1 hour ago"],
    [23 * 60 * MINUTE + 59 * MINUTE, "23 hours ago"],
    [24 * 60 * MINUTE, "1 day ago"],
    [3 * 24 * 60 * MINUTE, "3 days ago"],
  ])("%d ms before reads %j", (before, words) => {
    expect(SITE_FORMATS.timeAgo(NOW - before, NOW)).toBe(words);
  });

  it("reads a time a little ahead of this clock (another machine's) as just now", () => {
    expect(SITE_FORMATS.timeAgo(NOW + 5_000, NOW)).toBe("less than a minute ago");
  });
});

describe("which country", () => {
  it("names countries as people say them, and Tor", () => {
    expect(countryName("DE")).toBe("Germany");
    expect(countryName("US")).toBe("United States");
    expect(countryName("T1")).toBe("the Tor network");
  });

  it('puts "the" where English does, in the sentence', () => {
    expect(countryInSentence("US")).toBe("the United States");
    expect(countryInSentence("GB")).toBe("the United Kingdom");
    expect(countryInSentence("NL")).toBe("the Netherlands");
    expect(countryInSentence("KY")).toBe("the Cayman Islands");
    expect(countryInSentence("DO")).toBe("the Dominican Republic");
    expect(countryInSentence("DE")).toBe("Germany");
    expect(countryInSentence("T1")).toBe("the Tor network");
    expect(countryInSentence("XX")).toBeNull();
  });

  it("knows nothing of an unknown, missing or malformed code", () => {
    for (const code of ["XX", null, undefined, "", "de", "DEU", "<b>"]) expect(countryName(code), String(code)).toBeNull();
  });

  it("says it in one sentence, unknown country included", () => {
    expect(DEVICE_MESSAGES.requested("2 minutes ago", "Germany")).toBe("Requested 2 minutes ago from Germany");
    expect(DEVICE_MESSAGES.requested("1 hour ago", null)).toBe("Requested 1 hour ago from an unknown country");
  });
});
