// The overview's forecast of this month's spend (issue 49): spent so far plus the average daily
// spend of the last complete days times the days left, in the account's zone.
import { describe, expect, it } from "vitest";
import { USAGE } from "../constants";
import { addDays } from "./dates";
import { type DaySpend, forecastMonth } from "./forecast";

const at = (iso: string) => Date.parse(iso);
const usd = (n: number) => Math.round(n * 1e6);
/** A spend of `dollars` (one request) on each day from `from`, `count` days. */
const daily = (from: string, count: number, dollars: number): DaySpend[] =>
  Array.from({ length: count }, (_, i) => ({ date: addDays(from, i), costMicros: usd(dollars), requests: 1 }));

describe("the month's forecast", () => {
  it("adds the last seven complete days' average for the days left, noon of the 15th of a 30-day month", () => {
    // June 2026, noon UTC on the 15th: 15.5 days left (half of today, then 16th to 30th).
    const days = [...daily("2026-06-01", 14, 1), { date: "2026-06-15", costMicros: usd(0.5), requests: 1 }];
    const f = forecastMonth(days, at("2026-06-15T12:00:00Z"), "UTC");
    expect(f.month).toBe("2026-06");
    expect(f.spentMicros).toBe(usd(14.5));
    expect(f.basisDays).toBe(USAGE.forecastBasisDays);
    expect(f.dailyMicros).toBe(usd(1));
    expect(f.daysLeft).toBe(15.5);
    expect(f.forecastMicros).toBe(usd(30));
  });

  it("knows each month's length: 31 days, 28 in February, 29 in a leap year", () => {
    const mid = (day: string) => forecastMonth(daily(addDays(day, -7), 7, 2), at(`${day}T00:00:00Z`), "UTC");
    expect(mid("2026-01-31").daysLeft).toBe(1);
    expect(mid("2026-02-28").daysLeft).toBe(1);
    expect(mid("2028-02-28").daysLeft).toBe(2);
    expect(mid("2026-02-01").daysLeft).toBe(28);
    expect(mid("2026-02-01").forecastMicros).toBe(usd(56));
  });

  it("on the first day of a month counts today's spend only and averages last month's last days", () => {
    const days = [...daily("2026-02-22", 7, 3), { date: "2026-03-01", costMicros: usd(1), requests: 2 }];
    const f = forecastMonth(days, at("2026-03-01T06:00:00Z"), "UTC");
    expect(f.month).toBe("2026-03");
    expect(f.spentMicros).toBe(usd(1));
    expect(f.dailyMicros).toBe(usd(3));
    expect(f.daysLeft).toBe(30.75);
    expect(f.forecastMicros).toBe(usd(1 + 3 * 30.75));
  });

  it("weighs the rest of a 23-hour or 25-hour day by the time it has left (daylight saving in New York)", () => {
    const zone = "America/New_York";
    // 2026-03-08 is 23 hours long there: at 12:00 EDT (16:00 UTC) 12 of them are left.
    const spring = forecastMonth(daily("2026-03-01", 7, 1), at("2026-03-08T16:00:00Z"), zone);
    expect(spring.daysLeft).toBeCloseTo(12 / 23 + 23, 10);
    // 2026-11-01 is 25 hours long: at 12:00 EST (17:00 UTC) 12 of them are left.
    const autumn = forecastMonth(daily("2026-10-25", 7, 1), at("2026-11-01T17:00:00Z"), zone);
    expect(autumn.daysLeft).toBeCloseTo(12 / 25 + 29, 10);
    expect(autumn.spentMicros).toBe(0);
    expect(autumn.forecastMicros).toBe(Math.round(usd(1) * (12 / 25 + 29)));
  });

  it("counts days in the account's zone, not UTC's (Asia/Kathmandu, +5:45)", () => {
    // 2026-06-30T20:00Z is already 1 July 01:45 in Kathmandu: a new month, 30 days and most of today left.
    const days = [...daily("2026-06-23", 7, 1), { date: "2026-07-01", costMicros: usd(0.25), requests: 1 }];
    const f = forecastMonth(days, at("2026-06-30T20:00:00Z"), "Asia/Kathmandu");
    expect(f.month).toBe("2026-07");
    expect(f.spentMicros).toBe(usd(0.25));
    expect(f.daysLeft).toBeCloseTo(30 + (24 - 1.75) / 24, 10);
  });

  it("with no data forecasts nothing, and with no complete day of use forecasts what was spent", () => {
    const none = forecastMonth([], at("2026-06-15T12:00:00Z"), "UTC");
    expect(none).toMatchObject({ spentMicros: 0, basisDays: 0, dailyMicros: 0, forecastMicros: 0 });
    const firstDay = forecastMonth([{ date: "2026-06-15", costMicros: usd(2), requests: 3 }], at("2026-06-15T12:00:00Z"), "UTC");
    expect(firstDay).toMatchObject({ spentMicros: usd(2), basisDays: 0, forecastMicros: usd(2) });
  });

  it("averages only the complete days since the first use in the basis, and counts quiet days after it", () => {
    // Used on the 12th and the 14th (not the 13th): three days, 6 dollars, 2 a day.
    const days = [
      { date: "2026-06-12", costMicros: usd(4), requests: 4 },
      { date: "2026-06-14", costMicros: usd(2), requests: 2 },
    ];
    const f = forecastMonth(days, at("2026-06-15T00:00:00Z"), "UTC");
    expect(f.basisDays).toBe(3);
    expect(f.dailyMicros).toBe(usd(2));
    expect(f.forecastMicros).toBe(usd(6 + 2 * 16));
  });

  it("ignores days older than the basis and adds up rows of the same day", () => {
    const days = [...daily("2026-05-01", 30, 100), ...daily("2026-06-08", 7, 1), ...daily("2026-06-08", 7, 1)];
    const f = forecastMonth(days, at("2026-06-15T00:00:00Z"), "UTC");
    expect(f.dailyMicros).toBe(usd(2));
    expect(f.spentMicros).toBe(usd(14));
  });
});
