// RFC 9110 13's preconditions against one build's validators: the order of 13.2.2, strong and
// weak comparison, lists, "*", dates, and If-Range.
import { describe, expect, it } from "vitest";
import { type ConditionalHeaders, evaluatePreconditions, rangeStillApplies } from "./conditional";

const published = Date.UTC(2026, 10, 20, 12, 0, 0, 500);
const build = { etag: '"abc123"', lastModified: published };
const lastModified = new Date(published).toUTCString();
const before = new Date(published - 60_000).toUTCString();
const after = new Date(published + 60_000).toUTCString();
const none: ConditionalHeaders = { method: "GET", ifMatch: null, ifNoneMatch: null, ifModifiedSince: null, ifUnmodifiedSince: null };
const decide = (headers: Partial<ConditionalHeaders>) => evaluatePreconditions({ ...none, ...headers }, build);

describe("evaluatePreconditions", () => {
  it("serves an unconditional request", () => {
    expect(decide({})).toBe("proceed");
  });

  it("answers 304 when If-None-Match names the build, weakly, in a list, or as *", () => {
    for (const value of ['"abc123"', 'W/"abc123"', '"other", "abc123"', "*", ' "x" ,W/"abc123" ']) expect(decide({ ifNoneMatch: value }), value).toBe(304);
    expect(decide({ ifNoneMatch: '"abc123"', method: "HEAD" })).toBe(304);
    for (const value of ['"other"', '"abc1234"', "abc123", "garbage, *"]) expect(decide({ ifNoneMatch: value }), value).toBe("proceed");
  });

  it("answers 412 when If-Match does not name the build strongly", () => {
    for (const value of ['"other"', 'W/"abc123"', "abc123", '"x", W/"abc123"']) expect(decide({ ifMatch: value }), value).toBe(412);
    for (const value of ['"abc123"', '"x", "abc123"', "*"]) expect(decide({ ifMatch: value }), value).toBe("proceed");
  });

  it("evaluates If-Match before If-None-Match, and the dates only without their tag headers", () => {
    expect(decide({ ifMatch: '"other"', ifNoneMatch: '"abc123"' })).toBe(412);
    expect(decide({ ifMatch: '"abc123"', ifNoneMatch: '"abc123"' })).toBe(304);
    // If-Unmodified-Since: 412 when the build is newer; ignored beside If-Match or when not a date.
    expect(decide({ ifUnmodifiedSince: before })).toBe(412);
    expect(decide({ ifUnmodifiedSince: lastModified })).toBe("proceed");
    expect(decide({ ifUnmodifiedSince: before, ifMatch: '"abc123"' })).toBe("proceed");
    expect(decide({ ifUnmodifiedSince: "not a date" })).toBe("proceed");
    // If-Modified-Since: 304 unless the build is newer (whole seconds, as Last-Modified says it).
    expect(decide({ ifModifiedSince: lastModified })).toBe(304);
    expect(decide({ ifModifiedSince: after })).toBe(304);
    expect(decide({ ifModifiedSince: before })).toBe("proceed");
    expect(decide({ ifModifiedSince: lastModified, ifNoneMatch: '"other"' })).toBe("proceed");
  });
});

describe("rangeStillApplies", () => {
  it("keeps a Range for the same build only: a strong tag or the exact date", () => {
    expect(rangeStillApplies(null, build)).toBe(true);
    expect(rangeStillApplies('"abc123"', build)).toBe(true);
    expect(rangeStillApplies(lastModified, build)).toBe(true);
    for (const value of ['"other"', 'W/"abc123"', before, after, "junk"]) expect(rangeStillApplies(value, build), value).toBe(false);
  });
});
