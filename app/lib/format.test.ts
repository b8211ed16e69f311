import { describe, expect, it } from "vitest";
import { MS } from "./constants";
import { formatDuration, formatPer, formatsFor, SITE_FORMATS } from "./format";

// Intl's own formats (workerd's V8 and ICU, as Chromium runs them), in a locale and a time zone.
const NBSP = "\u00a0";
const SEP_3 = Date.UTC(2026, 8, 3, 9, 7);

describe("en-US in UTC: what every page showed before issue 48, and what a visitor without Accept-Language sees", () => {
  const f = SITE_FORMATS;

  it("writes money with 2 decimals, a sub-cent amount as < $0.01 with its exact amount apart", () => {
    expect([1234.5, 0, 0.01, 0.015, 2.675, -1.5, 1e6].map(f.usd)).toEqual(["$1,234.50", "$0.00", "$0.01", "$0.02", "$2.68", "-$1.50", "$1,000,000.00"]);
    expect([0.004, 0.0004, 0.009999].map(f.usd)).toEqual(["< $0.01", "< $0.01", "< $0.01"]);
    expect([0.0004, 0.000123, 12.3].map(f.usdExact)).toEqual(["$0.0004", "$0.000123", "$12.30"]);
  });

  it("shortens counts to K and M, and groups whole numbers", () => {
    expect([0, 7, 999, 1000, 1500, 12_345, 2_000_000, 2_450_000].map(f.count)).toEqual(["0", "7", "999", "1K", "1.5K", "12.3K", "2M", "2.5M"]);
    expect([0, 999, 1000, -12_000, 1_234_567].map(f.integer)).toEqual(["0", "999", "1,000", "-12,000", "1,234,567"]);
    expect(f.plural(1, "day")).toBe("1 day");
    expect(f.plural(3, "day")).toBe("3 days");
    expect(f.plural(1500, "request")).toBe("1.5K requests");
  });

  it("writes shares, changes, response times and file sizes", () => {
    expect(f.percent(12.345, 1)).toBe("12.3%");
    expect(f.percent(99.6, 0)).toBe("100%");
    // Whole percents from 10 on, one decimal below.
    expect([3.25, 12.5, -3, 0, -0.04, 42.4, null].map(f.change)).toEqual(["+3.3%", "+13%", "-3%", "0%", "0%", "+42%", "—"]);
    expect([850, 1250, 999.6, null].map(f.ms)).toEqual(["850 ms", "1.25 s", "1,000 ms", "—"]);
    expect([500, 293 * 1024, 142 * 1024 ** 2, 1.2 * 1024 ** 3, 2 * 1024 ** 3].map(f.bytes)).toEqual(["500 B", "293 KB", "142 MB", "1.2 GB", "2 GB"]);
    expect(f.decimal(1.005, 2)).toBe("1.01");
  });

  it("writes dates and times in UTC, hours 00 to 23", () => {
    expect(f.date(SEP_3)).toBe("Sep 3, 2026");
    expect(f.monthDay(SEP_3)).toBe("Sep 3");
    expect(f.monthYear(SEP_3)).toBe("September 2026");
    expect(f.dateTime(SEP_3)).toBe("Sep 3, 09:07 UTC");
    expect(f.dateTime(Date.UTC(2026, 10, 26, 0, 5))).toBe("Nov 26, 00:05 UTC");
    expect(f.time(Date.UTC(2026, 10, 26, 0, 5, 9))).toBe("00:05:09");
    expect(f.hour(Date.UTC(2026, 10, 26, 0))).toBe("00:00");
    // (ICU puts thin or narrow spaces around the dash.)
    expect(f.dateRange(Date.UTC(2026, 10, 3), Date.UTC(2026, 10, 9)).replace(/\s/g, " ")).toBe("Nov 3 – 9");
    expect(() => f.date(Number.NaN)).toThrow(RangeError);
  });
});

describe("the visitor's locale", () => {
  it("writes a German visitor's money, counts and dates the German way (still in dollars)", () => {
    const f = formatsFor("de-DE", "UTC");
    expect(f.usd(1234.56)).toBe(`1.234,56${NBSP}$`);
    expect(f.usd(0.004)).toBe(`< 0,01${NBSP}$`);
    expect(f.integer(1_234_567)).toBe("1.234.567");
    expect(f.percent(12.5, 1)).toBe(`12,5${NBSP}%`);
    expect(f.date(SEP_3)).toBe("3. Sept. 2026");
    expect(f.dateTime(SEP_3)).toBe("3. Sept., 09:07 UTC");
  });

  it("writes a Japanese visitor's dates the Japanese way", () => {
    const f = formatsFor("ja-JP", "UTC");
    expect(f.usd(1234.56)).toBe("$1,234.56");
    expect(f.date(SEP_3)).toBe("2026年9月3日");
    expect(f.monthYear(SEP_3)).toBe("2026年9月");
    expect(f.dateTime(SEP_3)).toBe("9月3日 09:07 UTC");
  });

  it("keeps the site's words English around the locale's figures", () => {
    const f = formatsFor("de-DE", "UTC");
    expect(f.timeAgo(SEP_3 - 2 * MS.MINUTE, SEP_3)).toBe("2 minutes ago");
    expect(f.timeAgo(SEP_3 - 30 * MS.SECOND, SEP_3)).toBe("less than a minute ago");
    expect(f.ms(1250)).toBe("1,25 s");
    expect(f.plural(2, "day")).toBe("2 days");
  });

  it("makes the formats of a locale and zone once", () => {
    expect(formatsFor("fr-FR", "Europe/Paris")).toBe(formatsFor("fr-FR", "Europe/Paris"));
    expect(formatsFor("fr-FR", "Europe/Paris").utc()).toBe(formatsFor("fr-FR", "UTC"));
  });
});

describe("the account's time zone", () => {
  it("writes an instant as the zone's day and hour, half and quarter hours included", () => {
    const evening = Date.UTC(2026, 8, 3, 18, 20);
    expect(formatsFor("en-US", "Asia/Tokyo").dateTime(evening)).toBe("Sep 4, 03:20 GMT+9");
    expect(formatsFor("en-US", "Asia/Kathmandu").dateTime(evening)).toBe("Sep 4, 00:05 GMT+5:45");
    expect(formatsFor("en-US", "America/St_Johns").date(Date.UTC(2026, 8, 3, 2))).toBe("Sep 2, 2026");
  });

  it("labels the two 01:00 hours of the day New York's clocks go back alike (each point keeps its own instant)", () => {
    const f = formatsFor("en-US", "America/New_York");
    expect([Date.UTC(2026, 10, 1, 5), Date.UTC(2026, 10, 1, 6)].map(f.hour)).toEqual(["01:00", "01:00"]);
  });
});

describe("lengths of time from their milliseconds", () => {
  it("counts in the sentence's unit, one or many", () => {
    expect(formatDuration(15 * MS.MINUTE, "minute")).toBe("15 minutes");
    expect(formatDuration(1 * MS.MINUTE, "minute")).toBe("1 minute");
    expect(formatDuration(24 * MS.HOUR, "hour")).toBe("24 hours");
    expect(formatDuration(1 * MS.DAY, "hour")).toBe("24 hours");
    expect(formatDuration(720 * MS.HOUR, "day")).toBe("30 days");
    expect(formatDuration(1500 * MS.DAY, "day")).toBe("1,500 days");
    expect(formatDuration(10 * MS.SECOND, "second")).toBe("10 seconds");
  });

  it("says 'an hour' and 'a day' for one where the sentence wants it", () => {
    expect(formatDuration(MS.HOUR, "hour", { article: true })).toBe("an hour");
    expect(formatDuration(MS.DAY, "day", { article: true })).toBe("a day");
    expect(formatDuration(MS.MINUTE, "minute", { article: true })).toBe("a minute");
    expect(formatDuration(2 * MS.HOUR, "hour", { article: true })).toBe("2 hours");
  });

  it("says how often a window allows something", () => {
    expect(formatPer(MS.HOUR, "hour")).toBe("an hour");
    expect(formatPer(3 * MS.HOUR, "hour")).toBe("every 3 hours");
    expect(formatPer(MS.DAY, "day")).toBe("a day");
  });
});
