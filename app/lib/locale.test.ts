import { describe, expect, it } from "vitest";
import { bestLocale, isLocale, LOCALES } from "./locale";

describe("the visitor's locale from Accept-Language", () => {
  it.each([
    [null, "en-US"],
    ["", "en-US"],
    ["de-DE,de;q=0.9,en;q=0.8", "de-DE"],
    ["ja", "ja-JP"],
    ["de-AT", "de-DE"],
    ["en-GB,en;q=0.9", "en-GB"],
    ["en-AU,en;q=0.9", "en-US"],
    ["fr-CA;q=0.5, sv;q=0.8", "sv-SE"],
    ["zh-HK", "zh-TW"],
    ["zh-Hant-TW", "zh-TW"],
    ["zh-Hans-CN", "zh-CN"],
    ["zh", "zh-CN"],
    ["pt-PT", "pt-BR"],
    ["xx-YY, *;q=0.1", "en-US"],
    ["de;q=0, fr", "fr-FR"],
    ["KO-kr", "ko-KR"],
    ["hi-IN,hi;q=0.9,en-US;q=0.8", "hi-IN"],
  ])("%j is %s", (header, locale) => {
    expect(bestLocale(header)).toBe(locale);
  });

  it("reads only the first 512 characters of a header sent to make work", () => {
    expect(bestLocale(`${"x-".repeat(400)},de-DE`)).toBe("en-US");
  });

  it("offers each locale once, each one Intl knows", () => {
    const values = LOCALES.map((l) => l.value);
    expect(new Set(values).size).toBe(values.length);
    expect(Intl.NumberFormat.supportedLocalesOf(values)).toEqual(values);
    expect(values.every(isLocale)).toBe(true);
    expect(isLocale("de-de")).toBe(false);
    expect(isLocale("de-AT")).toBe(false);
  });
});
