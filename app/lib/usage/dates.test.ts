// The account-zone calendar (ADR 0030) in workerd's own V8 and zone data: quarter- and half-hour
// offsets, both kinds of daylight-saving change, the 30-minute one of Lord Howe Island.
import { describe, expect, it } from "vitest";
import { isoInZone, isTimeZone, offsetPeriods, timeZoneNames, zoneOffset } from "../time-zone";
import { addDays, dayKey, dayStart, hoursOf, lastDays, monthKey, startOfDay, startOfMonth, startOfNextMonth, startOfPreviousMonth } from "./dates";

const at = (iso: string) => Date.parse(iso);
const H = 3_600_000;
const M = 60_000;

describe("time zones", () => {
  it("knows every IANA zone of the runtime and UTC, and nothing else", () => {
    const names = timeZoneNames();
    expect(names[0]).toBe("UTC");
    expect(names.length).toBeGreaterThan(300);
    for (const zone of ["UTC", "Asia/Kathmandu", "Asia/Kolkata", "America/St_Johns", "Australia/Lord_Howe", "Pacific/Chatham", "America/New_York"]) {
      expect(isTimeZone(zone), zone).toBe(true);
    }
    for (const zone of ["", "Mars/Olympus", "asia/tokyo", "GMT+5", "+05:45"]) expect(isTimeZone(zone), zone).toBe(false);
  });

  it("finds each zone's offset, to the quarter hour", () => {
    expect(zoneOffset(at("2026-11-28T18:10:00Z"), "Asia/Kathmandu")).toBe(5 * H + 45 * M);
    expect(zoneOffset(at("2026-11-28T18:10:00Z"), "Asia/Kolkata")).toBe(5 * H + 30 * M);
    expect(zoneOffset(at("2026-11-28T18:10:00Z"), "America/St_Johns")).toBe(-(3 * H + 30 * M));
    expect(zoneOffset(at("2026-07-01T12:00:00Z"), "America/St_Johns")).toBe(-(2 * H + 30 * M));
    expect(zoneOffset(at("2026-11-28T18:10:00Z"), "Pacific/Chatham")).toBe(13 * H + 45 * M);
    expect(zoneOffset(at("2026-07-01T12:00:00Z"), "Pacific/Chatham")).toBe(12 * H + 45 * M);
    expect(zoneOffset(at("2026-11-28T18:10:00Z"), "Australia/Lord_Howe")).toBe(11 * H);
    expect(zoneOffset(at("2026-07-01T12:00:00Z"), "Australia/Lord_Howe")).toBe(10 * H + 30 * M);
  });

  it("writes an instant as ISO 8601 with the zone's offset", () => {
    expect(isoInZone(at("2026-11-28T18:10:00.250Z"), "Asia/Kathmandu")).toBe("2026-11-28T23:55:00.250+05:45");
    expect(isoInZone(at("2026-11-28T18:20:00Z"), "Asia/Kathmandu")).toBe("2026-11-29T00:05:00.000+05:45");
    expect(isoInZone(at("2026-11-28T18:20:00Z"), "America/St_Johns")).toBe("2026-11-28T14:50:00.000-03:30");
    expect(isoInZone(at("2026-11-28T18:20:00Z"), "Pacific/Chatham")).toBe("2026-11-29T08:05:00.000+13:45");
    expect(isoInZone(at("2026-11-28T18:20:00Z"), "UTC")).toBe("2026-11-28T18:20:00.000Z");
    // Daylight-saving time: the offset of the moment itself.
    expect(isoInZone(at("2026-11-01T05:30:00Z"), "America/New_York")).toBe("2026-11-01T01:30:00.000-04:00");
    expect(isoInZone(at("2026-11-01T06:30:00Z"), "America/New_York")).toBe("2026-11-01T01:30:00.000-05:00");
    for (const iso of ["2026-11-29T00:05:00.000+05:45", "2026-11-28T14:50:00.000-03:30"]) expect(new Date(Date.parse(iso)).getTime()).not.toBeNaN();
  });

  it("splits a year into periods of one offset, changing on the quarter hour", () => {
    const ny = offsetPeriods(at("2026-01-01T00:00:00Z"), at("2027-01-01T00:00:00Z"), "America/New_York");
    expect(ny.map((p) => [new Date(p.start).toISOString(), p.offset / H])).toEqual([
      ["2026-01-01T00:00:00.000Z", -5],
      ["2026-03-08T07:00:00.000Z", -4],
      ["2026-11-01T06:00:00.000Z", -5],
    ]);
    // Lord Howe goes back half an hour at 02:00 local (+11) on 5 April 2026.
    const lh = offsetPeriods(at("2026-04-01T00:00:00Z"), at("2026-04-10T00:00:00Z"), "Australia/Lord_Howe");
    expect(lh.map((p) => [new Date(p.start).toISOString(), p.offset / M])).toEqual([
      ["2026-04-01T00:00:00.000Z", 660],
      ["2026-04-04T15:00:00.000Z", 630],
    ]);
    expect(offsetPeriods(at("2026-01-01T00:00:00Z"), at("2027-01-01T00:00:00Z"), "Asia/Kathmandu")).toHaveLength(1);
  });
});

describe("the account's calendar", () => {
  it("puts 18:10 and 18:20 UTC on two days in Kathmandu (local midnight is 18:15 UTC)", () => {
    expect(dayKey(at("2026-11-28T18:10:00Z"), "Asia/Kathmandu")).toBe("2026-11-28");
    expect(dayKey(at("2026-11-28T18:20:00Z"), "Asia/Kathmandu")).toBe("2026-11-29");
    expect(dayKey(at("2026-11-28T18:20:00Z"), "UTC")).toBe("2026-11-28");
    expect(startOfDay(at("2026-11-28T18:20:00Z"), "Asia/Kathmandu")).toBe(at("2026-11-28T18:15:00Z"));
    expect(dayStart("2026-11-29", "Asia/Kolkata")).toBe(at("2026-11-28T18:30:00Z"));
    expect(dayStart("2026-11-29", "America/St_Johns")).toBe(at("2026-11-29T03:30:00Z"));
    expect(dayStart("2026-11-29", "Pacific/Chatham")).toBe(at("2026-11-28T10:15:00Z"));
  });

  it("starts months on the zone's 1st", () => {
    const now = at("2026-11-30T18:20:00Z"); // 1 December, 00:05 in Kathmandu
    expect(monthKey(now, "Asia/Kathmandu")).toBe("2026-12");
    expect(monthKey(now, "UTC")).toBe("2026-11");
    expect(startOfMonth(now, "Asia/Kathmandu")).toBe(at("2026-11-30T18:15:00Z"));
    expect(startOfPreviousMonth(now, "Asia/Kathmandu")).toBe(at("2026-10-31T18:15:00Z"));
    expect(startOfNextMonth(now, "Asia/Kathmandu")).toBe(at("2026-12-31T18:15:00Z"));
    expect(startOfMonth(now, "America/New_York")).toBe(at("2026-11-01T04:00:00Z"));
  });

  it("counts the last n days on the zone's calendar", () => {
    expect(lastDays(3, at("2026-11-28T18:20:00Z"), "Asia/Kathmandu")).toEqual(["2026-11-27", "2026-11-28", "2026-11-29"]);
    expect(lastDays(2, at("2026-03-01T02:00:00Z"), "America/St_Johns")).toEqual(["2026-02-27", "2026-02-28"]);
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
  });

  it("gives a day of 23 hours when clocks go forward and of 25 when they go back", () => {
    const spring = hoursOf("2026-03-08", "America/New_York");
    expect(spring.map((h) => h.hour)).toEqual([0, 1, ...Array.from({ length: 21 }, (_, i) => i + 3)]);
    expect(spring[2]!.start - spring[1]!.start).toBe(H);
    const autumn = hoursOf("2026-11-01", "America/New_York");
    expect(autumn).toHaveLength(25);
    expect(autumn.map((h) => h.hour).slice(0, 4)).toEqual([0, 1, 1, 2]);
    expect(autumn[2]!.start - autumn[1]!.start).toBe(H);
    expect(hoursOf("2026-11-02", "America/New_York")).toHaveLength(24);
    expect(new Set(autumn.map((h) => h.start)).size).toBe(25);
  });

  it("gives Lord Howe's change day a half-hour hour, and quarter-hour zones whole local hours", () => {
    // 5 April 2026: 02:00 (+11) becomes 01:30 (+10:30); the 01:00 hour runs 90 minutes.
    const back = hoursOf("2026-04-05", "Australia/Lord_Howe");
    expect(back.map((h) => h.hour).slice(0, 3)).toEqual([0, 1, 1]);
    expect(back[2]!.start - back[1]!.start).toBe(30 * M);
    expect(dayStart("2026-04-06", "Australia/Lord_Howe") - dayStart("2026-04-05", "Australia/Lord_Howe")).toBe(24 * H + 30 * M);
    const kathmandu = hoursOf("2026-11-29", "Asia/Kathmandu");
    expect(kathmandu).toHaveLength(24);
    expect(new Date(kathmandu[0]!.start).toISOString()).toBe("2026-11-28T18:15:00.000Z");
    expect(new Date(kathmandu[23]!.start).toISOString()).toBe("2026-11-29T17:15:00.000Z");
  });

  it("starts a day that skips its midnight when the day begins", () => {
    // America/Santiago goes forward at 00:00 on 6 September 2026: the day begins at 01:00 (-03).
    expect(dayStart("2026-09-06", "America/Santiago")).toBe(at("2026-09-06T04:00:00Z"));
    expect(hoursOf("2026-09-06", "America/Santiago")[0]!.hour).toBe(1);
  });
});
