import { scaleBand, scaleLinear, scalePoint } from "@visx/scale";
import { describe, expect, it } from "vitest";
import { bandScale, linearScale, pointScale, ticks } from "./scales";

describe("chart scales", () => {
  it("make the same nice domain, ticks and positions as d3's linear scale", () => {
    for (const max of [0.0004, 0.37, 1, 1.1, 7.3, 12, 99.9, 151, 1234.5, 98_765, 2_000_000]) {
      const ours = linearScale({ domain: [0, max], range: [188, 0], nice: true });
      const d3 = scaleLinear<number>({ domain: [0, max], range: [188, 0], nice: true });
      expect(ours.ticks(4), String(max)).toEqual(d3.ticks(4));
      for (const v of [0, max / 3, max]) expect(ours(v)).toBeCloseTo(d3(v), 9);
    }
    expect(ticks(0, 0, 4)).toEqual([0]);
  });

  it("place bars and points where d3's band and point scales do", () => {
    for (const n of [1, 2, 7, 24, 30]) {
      const labels = Array.from({ length: n }, (_, i) => `d${i}`);
      const band = bandScale({ domain: labels, range: [0, 648], padding: 0.25 });
      const d3Band = scaleBand<string>({ domain: labels, range: [0, 648], padding: 0.25 });
      const point = pointScale({ domain: labels, range: [0, 648], padding: 0.5 });
      const d3Point = scalePoint<string>({ domain: labels, range: [0, 648], padding: 0.5 });
      expect(band.bandwidth()).toBeCloseTo(d3Band.bandwidth(), 9);
      for (const label of labels) {
        expect(band(label)).toBeCloseTo(d3Band(label)!, 9);
        expect(point(label)).toBeCloseTo(d3Point(label)!, 9);
      }
      expect(band("missing")).toBeUndefined();
    }
  });
});
