// What the charts show, as the server renders them: the value axis' labels, the category labels at
// each width, the bars' heights and the charts' accessible names. How they look in a browser (11 px
// labels that never overlap) is tests/e2e/charts.test.ts's.
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BarChart, type ChartProps } from "./charts";
import { LineChart } from "./line-chart";

const count = (n: number) => String(Math.round(n));
const render = (chart: typeof BarChart, props: ChartProps) => renderToString(createElement(chart, props));

/** Each element's attributes, for the tags matching `tag` (e.g. "rect", "text"). */
function tags(html: string, tag: string): Array<Record<string, string> & { text: string }> {
  return [...html.matchAll(new RegExp(`<${tag}\\b([^>]*)>([^<]*)`, "g"))].map(([, attrs, text]) => ({
    ...Object.fromEntries([...attrs!.matchAll(/([\w-]+)="([^"]*)"/g)].map(([, name, value]) => [name!, value!])),
    text: text!,
  }));
}

/** The axis labels of one axis, in order; for x, the ones shown narrow (under 512 px) or wide. */
function labels(html: string, axis: "x" | "y", width?: "narrow" | "wide"): string[] {
  const part = axis === "y" ? html : html.split('class="visx-group visx-axis visx-axis-bottom')[width === "narrow" ? 1 : 2]!;
  return tags(part, "text")
    .filter((t) => t["data-chart-axis"] === axis)
    .map((t) => t.text);
}

const days = Array.from({ length: 30 }, (_, i) => ({ label: `Nov ${i + 1}, 2026`, short: `${i + 1}`, value: i % 5 }));

describe("charts", () => {
  it("give an empty count chart whole, distinct ticks (not 0, 0, 0, 1, 1, 1) and say it is empty", () => {
    const html = render(BarChart, { title: "Requests", data: days.slice(0, 7).map((d) => ({ ...d, value: 0 })), format: count, integer: true });
    expect(labels(html, "y")).toEqual(["0", "1"]);
    expect(html).toContain("No data in this period");
  });

  it("never label two value ticks alike, keeping the first", () => {
    // 0 to 2.2, ticks every 0.5: 0.5 and 1 would both read "1", 1.5 and 2 both "2".
    const html = render(BarChart, { title: "Spend", data: [{ label: "a", value: 2 }], format: (n) => n.toFixed(0) });
    expect(labels(html, "y")).toEqual(["0", "1", "2"]);
    const money = render(BarChart, { title: "Spend", data: [{ label: "a", value: 0.21 }], format: (n) => `$${n.toFixed(2)}` });
    expect(labels(money, "y")).toEqual(["$0.00", "$0.05", "$0.10", "$0.15", "$0.20"]);
  });

  it("show at most 4 short category labels when narrow and 12 (bars) or 10 (line) when wide, from the first on", () => {
    const bars = render(BarChart, { title: "Requests by day", data: days, format: count, integer: true });
    expect(labels(bars, "x", "narrow")).toEqual(["1", "9", "17", "25"]);
    expect(labels(bars, "x", "wide")).toEqual([1, 4, 7, 10, 13, 16, 19, 22, 25, 28].map((d) => `Nov ${d}, 2026`));
    const line = render(LineChart, { title: "Requests over time", data: days, format: count, integer: true });
    expect(labels(line, "x", "narrow")).toEqual(["1", "9", "17", "25"]);
    expect(labels(line, "x", "wide")).toEqual([1, 4, 7, 10, 13, 16, 19, 22, 25, 28].map((d) => `Nov ${d}, 2026`));
    const few = render(BarChart, { title: "Weeks", data: days.slice(0, 3), format: count });
    expect(labels(few, "x", "narrow")).toEqual(["1", "2", "3"]);
    expect(labels(few, "x", "wide")).toEqual(["Nov 1, 2026", "Nov 2, 2026", "Nov 3, 2026"]);
  });

  it("draw bars as tall as their values on a 0-based scale with headroom, side by side and equally wide", () => {
    // 220 px high: a 176 px plot; 20 with 10 % headroom makes the scale 0 to 22.
    const html = render(BarChart, {
      title: "Spend per week",
      data: [
        { label: "w1", value: 10 },
        { label: "w2", value: 20 },
        { label: "w3", value: 0 },
      ],
      format: (n) => `$${n}`,
    });
    const bars = tags(html, "rect");
    expect(bars.map((b) => Number(b.height))).toEqual([80, 160, 0]);
    expect(bars.map((b) => Number(b.y) + Number(b.height))).toEqual([176, 176, 176]);
    expect(new Set(bars.map((b) => b.width)).size).toBe(1);
    expect(Number(bars[0]!.x)).toBeLessThan(Number(bars[1]!.x));
    expect(Number(bars[1]!.x)).toBeLessThan(Number(bars[2]!.x));
  });

  it("name the chart, tell each mark's figure and keep the axes out of the accessibility tree", () => {
    const html = render(BarChart, { title: "Spend per week", data: [{ label: "Nov 3 - Nov 9", value: 12.5 }], format: (n) => `$${n.toFixed(2)}` });
    expect(html).toMatch(/<svg[^>]*role="img"[^>]*aria-label="Spend per week"[^>]*><title>Spend per week<\/title>/);
    expect(html).toContain("<title>Nov 3 - Nov 9: $12.50</title>");
    expect(html.match(/<svg[^>]*aria-hidden="true"/g)).toHaveLength(2);
    const line = render(LineChart, { title: "Spend over time", data: days.slice(0, 2), format: count });
    expect(line).toMatch(/<svg[^>]*role="img"[^>]*aria-label="Spend over time"/);
    expect(tags(line, "span").map((s) => s.title)).toEqual(["Nov 1, 2026: 0", "Nov 2, 2026: 1"]);
  });
});
