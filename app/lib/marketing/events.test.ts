import { describe, expect, it } from "vitest";
import { MARKETING, MS } from "../constants";
import { browserEventSchema } from "./browser-event";
import { BROWSER_EVENTS, conversion, emptyFunnel, FUNNEL_STAGES, MARKETING_EVENTS, recordablePath, weekStart } from "./events";
import { readConsent, shouldLoadPixel } from "./pixel";

describe("marketing events", () => {
  it("start weeks on Monday 00:00 UTC", () => {
    expect(weekStart(Date.UTC(2026, 10, 23, 0, 0))).toBe(Date.UTC(2026, 10, 23)); // a Monday
    expect(weekStart(Date.UTC(2026, 10, 29, 23, 59, 59, 999))).toBe(Date.UTC(2026, 10, 23)); // its Sunday
    expect(weekStart(Date.UTC(2026, 10, 30))).toBe(Date.UTC(2026, 10, 30));
    expect(weekStart(Date.UTC(1970, 0, 1))).toBe(Date.UTC(1969, 11, 29));
    for (let t = Date.UTC(2025, 0, 1); t < Date.UTC(2026, 0, 1); t += 5 * MS.HOUR + 17) {
      expect(new Date(weekStart(t)).getUTCDay()).toBe(1);
      expect(t - weekStart(t)).toBeLessThan(7 * MS.DAY);
    }
  });

  it("lay out the funnel's weeks oldest first, ending with the current one", () => {
    const now = Date.UTC(2026, 10, 25, 15);
    const weeks = emptyFunnel(now);
    expect(weeks).toHaveLength(MARKETING.funnelWeeks);
    expect(weeks.at(-1)!.weekStart).toBe(Date.UTC(2026, 10, 23));
    expect(weeks[0]!.weekStart).toBe(Date.UTC(2026, 10, 23) - (MARKETING.funnelWeeks - 1) * 7 * MS.DAY);
    expect(weeks.every((w) => FUNNEL_STAGES.every((s) => w[s.key] === 0))).toBe(true);
  });

  it("let browsers report page views only, with a path of this site and no query", () => {
    expect(BROWSER_EVENTS.every((e) => MARKETING_EVENTS.includes(e))).toBe(true);
    expect(FUNNEL_STAGES.slice(1).every((s) => !(BROWSER_EVENTS as readonly string[]).includes(s.event ?? ""))).toBe(true);
    expect(browserEventSchema.parse({ name: "AuthStart", path: "/auth?mode=signup&email=a@b.c" })).toEqual({ name: "AuthStart", path: "/auth" });
    expect(browserEventSchema.safeParse({ name: "Subscribe", path: "/" }).success).toBe(false);
    expect(recordablePath("/pricing#plans")).toBe("/pricing");
    expect(recordablePath("//evil.example/x")).toBeNull();
    expect(recordablePath("https://evil.example/")).toBeNull();
    expect(recordablePath(`/${"a".repeat(MARKETING.pathMax)}`)).toBeNull();
  });

  it("give conversion rates in whole percent, and none from an empty step", () => {
    expect(conversion(0, 0)).toBeNull();
    expect(conversion(3, 1)).toBe(33);
    expect(conversion(8, 8)).toBe(100);
  });
});

describe("the advertising pixel", () => {
  it("loads only with a configured id and an explicit yes", () => {
    expect(shouldLoadPixel("1234567890", "granted")).toBe(true);
    expect(shouldLoadPixel("1234567890", "denied")).toBe(false);
    expect(shouldLoadPixel("1234567890", null)).toBe(false);
    expect(shouldLoadPixel(null, "granted")).toBe(false);
    expect(shouldLoadPixel("", "granted")).toBe(false);
    expect(shouldLoadPixel("abc123", "granted")).toBe(false);
    expect(readConsent("granted")).toBe("granted");
    expect(readConsent("yes")).toBeNull();
    expect(readConsent(null)).toBeNull();
  });
});
