import { describe, expect, it } from "vitest";
import { MS } from "../constants";
import { formatsFor, SITE_FORMATS } from "../format";
import { lastActiveLabel } from "./last-active";

const NOW = Date.UTC(2026, 10, 22, 15, 30); // Nov 22, 2026 15:30 UTC

describe("lastActiveLabel", () => {
  it.each([
    [0, "Active now"],
    [59 * MS.SECOND, "Active now"],
    [MS.MINUTE, "Last active 1 minute ago"],
    [5 * MS.MINUTE + 10 * MS.SECOND, "Last active 5 minutes ago"],
    [59 * MS.MINUTE, "Last active 59 minutes ago"],
    [MS.HOUR, "Last active 1 hour ago"],
    [15 * MS.HOUR, "Last active 15 hours ago"],
    [23 * MS.HOUR + 59 * MS.MINUTE, "Last active 23 hours ago"],
    [30 * MS.HOUR, "Last active yesterday"], // Nov 21, 09:30
    [40 * MS.HOUR, "Last active Nov 20, 2026"], // Nov 20, 23:30: two calendar days back
    [45 * MS.DAY, "Last active Oct 8, 2026"],
  ])("%i ms ago reads %s", (ago, label) => {
    expect(lastActiveLabel(NOW - ago, NOW, SITE_FORMATS)).toBe(label);
  });

  it("treats a time slightly in the future (clock skew) as now", () => {
    expect(lastActiveLabel(NOW + 5000, NOW, SITE_FORMATS)).toBe("Active now");
  });

  it("counts calendar days and writes the date in the account's zone and the page's locale", () => {
    // 30 hours before Nov 22 15:30 UTC is Nov 21 09:30 UTC: yesterday in UTC. In Tokyo it is Nov 23
    // 00:30 against Nov 21 18:30, two calendar days back, so the date is shown, the Japanese way.
    expect(lastActiveLabel(NOW - 30 * MS.HOUR, NOW, SITE_FORMATS)).toBe("Last active yesterday");
    expect(lastActiveLabel(NOW - 30 * MS.HOUR, NOW, formatsFor("ja-JP", "Asia/Tokyo"))).toBe("Last active 2026年11月21日");
    expect(lastActiveLabel(NOW - 40 * MS.HOUR, NOW, formatsFor("de-DE", "Asia/Tokyo"))).toBe("Last active 21. Nov. 2026");
  });
});
