import { describe, expect, it } from "vitest";
import { MS } from "./constants";
import { formatDate, formatDateTime, formatDuration, formatInteger, formatMonthDay, formatMonthYear, formatPer, formatUsd, formatUsdExact } from "./format";

// The hand-written formats against Intl itself (workerd's, the V8 and ICU that Chromium runs):
// what the page showed when these were Intl objects is what it shows now.
const usd = (min: number, max: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: min, maximumFractionDigits: max });
const utc = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat("en-US", { ...options, timeZone: "UTC" });

const AMOUNTS = [
  0,
  -0,
  0.01,
  0.0149,
  0.015,
  0.025,
  0.125,
  0.135,
  0.005,
  1.005,
  1.015,
  2.675,
  9.995,
  10,
  12.3,
  99.999,
  999.995,
  1000,
  1234.5,
  12345.678,
  999999.995,
  1e6,
  123456789.125,
  1e14 + 0.25,
  -0.001,
  -0.005,
  -1.5,
  -1234.567,
  -999.995,
  0.1 + 0.2,
  1 / 3,
  2 / 3,
  0.000001,
  0.0000015,
  0.0000005,
  0.00000049,
  0.123456789,
  42.4242425,
  1e15 - 1,
  1e15,
  1e20,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_VALUE,
];
// Random amounts: a fixed seed, so a failure names a value that fails again.
let seed = 20261126;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
for (let i = 0; i < 400; i++) AMOUNTS.push(Number(((random() - 0.2) * 10 ** Math.floor(random() * 9)).toFixed(Math.floor(random() * 8))));

describe("money without Intl", () => {
  it("formatUsd writes what Intl writes with 2 decimals (sub-cent amounts read < $0.01)", () => {
    for (const value of AMOUNTS) {
      expect([value, formatUsd(value)]).toEqual([value, value > 0 && value < 0.01 ? "< $0.01" : usd(2, 2).format(value)]);
    }
  });

  it("formatUsdExact writes what Intl writes with 2 to 6 decimals", () => {
    for (const value of AMOUNTS) expect([value, formatUsdExact(value)]).toEqual([value, usd(2, 6).format(value)]);
  });
});

describe("integers without Intl", () => {
  it('formatInteger writes what toLocaleString("en-US") writes', () => {
    const values = [0, -0, 7, 999, 1000, -1000, 12345, 100000, 1234567, -987654321, 2 ** 40, 1e15, 1.5, -2.25, Number.NaN, 1e21];
    for (let i = 0; i < 200; i++) values.push(Math.round((random() - 0.3) * 10 ** Math.floor(random() * 15)));
    for (const value of values) expect([value, formatInteger(value)]).toEqual([value, value.toLocaleString("en-US")]);
  });
});

describe("dates without Intl", () => {
  const times = [
    0,
    Date.UTC(2026, 8, 3, 9, 7),
    Date.UTC(2026, 10, 26, 0, 5, 59, 999),
    Date.UTC(2026, 11, 31, 23, 59),
    Date.UTC(2024, 1, 29, 12),
    -1,
    -86_400_000,
  ];
  times.push(Date.UTC(1, 0, 1), Date.UTC(9999, 11, 31, 23, 59), Date.UTC(10000, 0, 1), Date.UTC(0, 0, 1) - 1);
  for (let i = 0; i < 300; i++) times.push(Math.floor(random() * 4e12));

  it("formatDate, formatMonthDay and formatMonthYear write what Intl writes (UTC)", () => {
    const date = utc({ year: "numeric", month: "short", day: "numeric" });
    const monthDay = utc({ month: "short", day: "numeric" });
    const monthYear = utc({ month: "long", year: "numeric" });
    for (const ms of times) {
      expect([ms, formatDate(ms), formatMonthDay(ms), formatMonthYear(ms)]).toEqual([ms, date.format(ms), monthDay.format(ms), monthYear.format(ms)]);
    }
  });

  it("formatDateTime writes what Intl writes (UTC, hours 00 to 23), and an invalid date throws as Intl does", () => {
    const dateTime = utc({ month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hour12: false });
    for (const ms of times) expect([ms, formatDateTime(ms)]).toEqual([ms, `${dateTime.format(ms)} UTC`]);
    expect(formatDateTime(Date.UTC(2026, 10, 26, 0, 5))).toBe("Nov 26, 00:05 UTC");
    expect(() => formatDateTime(Number.NaN)).toThrow(RangeError);
    expect(() => formatDate(Number.NaN)).toThrow(RangeError);
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
