import { describe, expect, it } from "vitest";
import { shownLabels, valueTicks } from "./axis";
import { linearScale } from "./scales";

const count = (n: number) => String(Math.round(n));

describe("chart axes", () => {
  it("gives an empty count chart whole, distinct ticks (not 0, 0, 0, 1, 1, 1)", () => {
    const y = linearScale({ domain: [0, 1], range: [100, 0], nice: true });
    const raw = y.ticks(4).map(count);
    expect(new Set(raw).size).toBeLessThan(raw.length); // what the axis used to print
    expect(valueTicks(y.ticks(4), count, true).map((t) => t.label)).toEqual(["0", "1"]);
  });

  it("drops ticks that read like the one before, keeping the first", () => {
    expect(valueTicks([0, 0.4, 0.5, 1], (n) => n.toFixed(0), false).map((t) => t.value)).toEqual([0, 0.5]);
    expect(valueTicks([0, 0.25, 0.5], (n) => `$${n.toFixed(2)}`, false)).toHaveLength(3);
  });

  it("shows at most the asked number of category labels, from the first on", () => {
    expect([...shownLabels(30, 4)]).toEqual([0, 8, 16, 24]);
    expect([...shownLabels(3, 4)]).toEqual([0, 1, 2]);
    expect(shownLabels(0, 4).size).toBe(0);
  });
});
