import { describe, expect, it } from "vitest";
import { contentRange, decideRange } from "./range";

describe("byte ranges of a download", () => {
  it("resume from an offset, take a slice or the last bytes", () => {
    expect(decideRange("bytes=100-", 1000)).toEqual({ kind: "partial", range: { offset: 100, length: 900 } });
    expect(decideRange("bytes=0-0", 1000)).toEqual({ kind: "partial", range: { offset: 0, length: 1 } });
    expect(decideRange("bytes=10-19", 1000)).toEqual({ kind: "partial", range: { offset: 10, length: 10 } });
    expect(decideRange("bytes=990-5000", 1000)).toEqual({ kind: "partial", range: { offset: 990, length: 10 } });
    expect(decideRange("bytes=-10", 1000)).toEqual({ kind: "partial", range: { offset: 990, length: 10 } });
    expect(decideRange("bytes=-5000", 1000)).toEqual({ kind: "partial", range: { offset: 0, length: 1000 } });
    expect(contentRange({ offset: 990, length: 10 }, 1000)).toBe("bytes 990-999/1000");
  });

  it("refuse a start beyond the end, serve the whole file for what is not one byte range", () => {
    expect(decideRange("bytes=1000-", 1000)).toEqual({ kind: "unsatisfiable" });
    expect(decideRange("bytes=-0", 1000)).toEqual({ kind: "unsatisfiable" });
    for (const header of [null, "", "bytes=", "bytes=-", "bytes=5-2", "bytes=0-1,5-6", "items=0-1", "bytes=a-b", `bytes=${"9".repeat(30)}-`]) {
      expect(decideRange(header, 1000).kind, String(header)).not.toBe("partial");
    }
  });
});
