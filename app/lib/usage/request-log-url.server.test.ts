// The request log's URL (issue 49): what a view's link writes reads back as the same view, the
// defaults are the zone's last week, a range of a day or two is drawn by the hour, and a cursor is
// only one this page wrote.
import { describe, expect, it } from "vitest";
import { encodeCursor, hourly, logBounds, viewSearch } from "./request-log";
import { parseLogView } from "./request-log-url.server";

const NOW = Date.parse("2026-03-31T20:00:00Z");
const ZONE = "Asia/Kathmandu";
const parse = (search: string) => parseLogView(new URLSearchParams(search), NOW, ZONE);

describe("the request log's URL", () => {
  it("defaults to the zone's last seven days, today included", () => {
    // 20:00 UTC is 01:45 the next day in Kathmandu (+5:45).
    expect(parse("")).toMatchObject({ ok: true, view: { from: "2026-03-26", to: "2026-04-01", filter: {}, cursor: null, report: null, archive: null } });
  });

  it("reads back what a view's links write, cursor included", () => {
    const cursors = [
      { at: NOW - 5000, kind: "usage" as const, key: "123456" },
      { at: NOW - 9000, kind: "fallback" as const, key: "a".repeat(64) },
    ];
    for (const cursor of cursors) {
      const first = parse("?from=2026-03-20&to=2026-03-22&model=gpt-4o&provider=openai&device=none&status=error&type=chat");
      if (!first.ok) throw new Error(first.message);
      const next = viewSearch(first.view, { cursor: encodeCursor(cursor) });
      expect(parse(next)).toEqual({ ok: true, view: { ...first.view, cursor } });
      expect(first.view.filter).toEqual({ model: "gpt-4o", provider: "openai", device: "", status: "error", requestType: "chat" });
    }
  });

  it("refuses a cursor it did not write", () => {
    const good = encodeCursor({ at: 1, kind: "usage", key: "1" });
    for (const cursor of [good.slice(1), `${good}!`, btoa('{"at":1,"kind":"usage","key":"1","x":1}'), btoa('{"at":-1,"kind":"usage","key":"1"}'), btoa("[]")]) {
      expect(parse(`?cursor=${encodeURIComponent(cursor)}`).ok, cursor).toBe(false);
    }
  });

  it("draws a day or two by the hour, longer ranges by the day", () => {
    expect(hourly({ from: "2026-03-31", to: "2026-03-31" })).toBe(true);
    expect(hourly({ from: "2026-03-30", to: "2026-03-31" })).toBe(true);
    expect(hourly({ from: "2026-03-29", to: "2026-03-31" })).toBe(false);
  });

  it("covers the zone's days, or an archived month's UTC days", () => {
    const days = parse("?from=2026-03-30&to=2026-03-31");
    const month = parse("?archive=2025-12&from=2026-03-30");
    if (!days.ok || !month.ok) throw new Error("refused");
    expect(logBounds(days.view, ZONE)).toEqual({ fromMs: Date.parse("2026-03-29T18:15:00Z"), toMs: Date.parse("2026-03-31T18:15:00Z") });
    expect(logBounds(month.view, ZONE)).toEqual({ fromMs: Date.parse("2025-12-01T00:00:00Z"), toMs: Date.parse("2026-01-01T00:00:00Z") });
    expect(month.view).toMatchObject({ from: "2025-12-01", to: "2025-12-31", archive: "2025-12" });
  });
});
