// Server-rendered charts: the marks are an SVG stretched to the card's width at a fixed height
// (strokes keep their width), and every label is HTML on top of it, so labels stay 11 px on a
// phone instead of shrinking with a scaled-down drawing (issue 14). Scales: lib/charts/scales.ts;
// which ticks and labels: lib/charts/axis.ts. The bar chart and the ring are here; the line
// chart is in line-chart.tsx.
import { Group } from "@visx/group";
import { Bar } from "@visx/shape";
import type { ReactNode } from "react";
import { MOBILE_MAX_LABELS, shownLabels, valueTicks } from "~/lib/charts/axis";
import { type BandScale, bandScale, linearScale } from "~/lib/charts/scales";
import { cx } from "./ui";

/** The drawing's own width: x positions are computed in it, then stretched to the card. */
export const WIDTH = 720;
const MARGIN = { top: 12, right: 16, bottom: 32, left: 56 };

/** `short`: the label on a phone (e.g. the first day of a week rather than the whole range). */
export type Point = { label: string; short?: string; value: number };

/** `integer`: a count series, labelled with whole numbers only. */
export type ChartProps = { data: Point[]; format: (n: number) => string; height?: number; title: string; width?: number; integer?: boolean };

/** The plot area both charts share: inner size and a value scale with 10 % headroom. */
export function plotArea(data: Point[], width: number, height: number) {
  const innerW = width - MARGIN.left - MARGIN.right;
  const innerH = height - MARGIN.top - MARGIN.bottom;
  const max = Math.max(...data.map((d) => d.value), 0);
  const y = linearScale({ domain: [0, max > 0 ? max * 1.1 : 1], range: [innerH, 0], nice: true });
  return { innerW, innerH, y };
}

/** A horizontal position in the drawing as CSS: the margin plus its share of the stretched width. */
export function leftOf(x: number, innerW: number): string {
  return `calc(${MARGIN.left}px + (100% - ${MARGIN.left + MARGIN.right}px) * ${(x / innerW).toFixed(5)})`;
}

/** A vertical position in the drawing in px (the height is not stretched). */
export const topOf = (y: number) => MARGIN.top + y;

/** The chart: grid lines and marks in the SVG, axis labels and `overlay` (dots) in HTML. */
export function ChartFrame({
  title,
  height,
  innerW,
  innerH,
  y,
  x,
  data,
  maxTicks,
  format,
  integer = false,
  overlay,
  children,
}: {
  title: string;
  height: number;
  innerW: number;
  innerH: number;
  y: ReturnType<typeof plotArea>["y"];
  x: BandScale;
  data: Point[];
  maxTicks: number;
  format: (n: number) => string;
  integer?: boolean;
  overlay?: ReactNode;
  children: ReactNode;
}) {
  const ticks = valueTicks(y.ticks(4), format, integer);
  const empty = data.every((d) => d.value === 0);
  return (
    // A size container: how many labels fit depends on the chart's own width (a phone's, or a card
    // beside another at 1024 px), not the window's.
    <div className="@container relative mt-2 w-full select-none" style={{ height }} data-chart={title}>
      <svg
        viewBox={`0 0 ${innerW} ${innerH}`}
        preserveAspectRatio="none"
        className="absolute overflow-visible"
        style={{ left: MARGIN.left, right: MARGIN.right, top: MARGIN.top, height: innerH, width: `calc(100% - ${MARGIN.left + MARGIN.right}px)` }}
        role="img"
        aria-label={title}
      >
        <title>{title}</title>
        <Group>
          {ticks.map((t) => (
            <line key={t.label} x1={0} x2={innerW} y1={y(t.value)} y2={y(t.value)} className="stroke-slate-100" vectorEffect="non-scaling-stroke" />
          ))}
          {children}
          <line x1={0} x2={innerW} y1={innerH} y2={innerH} stroke="#e2e8f0" vectorEffect="non-scaling-stroke" />
        </Group>
      </svg>
      {overlay}
      <ValueLabels ticks={ticks} y={y} />
      <CategoryLabels data={data} x={x} innerW={innerW} innerH={innerH} maxTicks={maxTicks} />
      {empty ? (
        <p className="absolute inset-x-0 text-center text-sm text-slate-500" style={{ top: topOf(innerH / 2) - 10 }} data-testid="chart-empty">
          No data in this period
        </p>
      ) : null}
    </div>
  );
}

/** The value axis: one label per grid line, right-aligned against the plot's left edge. */
function ValueLabels({ ticks, y }: { ticks: ReturnType<typeof valueTicks>; y: ReturnType<typeof plotArea>["y"] }) {
  return ticks.map((t) => (
    <span
      key={t.label}
      data-chart-label=""
      data-chart-axis="y"
      aria-hidden="true"
      className="absolute -translate-y-1/2 text-right text-[11px] leading-none text-slate-500 tabular-nums"
      style={{ top: topOf(y(t.value)), right: `calc(100% - ${MARGIN.left - 6}px)` }}
    >
      {t.label}
    </span>
  ));
}

/**
 * The category axis: a narrow chart (under 512 px: a phone's, or one beside another card) shows
 * fewer and shorter labels than a wide one, so each label says at which widths it shows; a label
 * in neither set is not rendered at all.
 */
function CategoryLabels({ data, x, innerW, innerH, maxTicks }: { data: Point[]; x: BandScale; innerW: number; innerH: number; maxTicks: number }) {
  const wide = shownLabels(data.length, maxTicks);
  const narrow = shownLabels(data.length, MOBILE_MAX_LABELS);
  return data.map((d, i) => {
    if (!wide.has(i) && !narrow.has(i)) return null;
    return (
      <span
        key={d.label}
        data-chart-label=""
        data-chart-axis="x"
        aria-hidden="true"
        className={cx(
          "absolute -translate-x-1/2 whitespace-nowrap text-[11px] leading-none text-slate-500",
          wide.has(i) ? (narrow.has(i) ? "block" : "hidden @lg:block") : "block @lg:hidden",
        )}
        style={{ left: leftOf((x(d.label) ?? 0) + x.bandwidth() / 2, innerW), top: topOf(innerH) + 10 }}
      >
        <span className="@lg:hidden">{d.short ?? d.label}</span>
        <span className="hidden @lg:inline">{d.label}</span>
      </span>
    );
  });
}

export function BarChart({ data, format, height = 220, title, width = WIDTH, integer }: ChartProps) {
  const { innerW, innerH, y } = plotArea(data, width, height);
  const labels = data.map((d) => d.label);
  const x = bandScale({ domain: labels, range: [0, innerW], padding: 0.25 });
  return (
    <ChartFrame {...{ title, height, innerW, innerH, y, x, data, format, integer }} maxTicks={12}>
      {data.map((d) => {
        const h = innerH - y(d.value);
        return (
          <Bar key={d.label} x={x(d.label)} y={innerH - h} width={x.bandwidth()} height={h} className="fill-brand-500">
            <title>{`${d.label}: ${format(d.value)}`}</title>
          </Bar>
        );
      })}
    </ChartFrame>
  );
}

/** Spec: the active-models ring, circumference 251.2 (r = 40). */
export function Ring({ share, label }: { share: number; label: string }) {
  const circumference = 251.2;
  const filled = Math.max(0, Math.min(1, share)) * circumference;
  return (
    <svg viewBox="0 0 100 100" className="h-24 w-24 -rotate-90" role="img" aria-label={label}>
      <circle cx="50" cy="50" r="40" fill="none" strokeWidth="10" className="stroke-slate-100" />
      <circle
        cx="50"
        cy="50"
        r="40"
        fill="none"
        strokeWidth="10"
        strokeLinecap="round"
        className="stroke-brand-600"
        strokeDasharray={`${filled} ${circumference}`}
      />
    </svg>
  );
}
