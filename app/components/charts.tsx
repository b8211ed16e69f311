// Server-rendered charts on visx. The marks are an SVG stretched to the card's width at a fixed
// height (strokes keep their width); the axes are SVGs of their own that are not stretched, each
// label placed at its share of the width, so labels stay 11 px on a phone instead of shrinking
// with a scaled-down drawing (issue 14). The bar chart and the ring are here; the line chart is in
// line-chart.tsx.
import { AxisBottom, AxisLeft, type TickRendererProps } from "@visx/axis";
import { Group } from "@visx/group";
import { type PickD3Scale, scaleBand, scaleLinear } from "@visx/scale";
import { Bar, Line } from "@visx/shape";
import type { ReactNode } from "react";

/** The drawing's own width: x positions are computed in it, then stretched to the card. */
export const WIDTH = 720;
const MARGIN = { top: 12, right: 16, bottom: 32, left: 56 };
/** Labels on a phone: at most this many, so each keeps its 11 px and none overlap. */
const NARROW_MAX_LABELS = 4;

/**
 * `short`: the label on a phone (e.g. the first day of a week rather than the whole range). `key`:
 * what tells the point apart where two read the same (the two 01:00 hours of the day the clocks go
 * back); its label by default.
 */
export type Point = { key?: string; label: string; short?: string; value: number };

/** A point's place on the category axis. */
export const keyOf = (d: Point) => d.key ?? d.label;

/** `integer`: a count series, labelled with whole numbers only. */
export type ChartProps = { data: Point[]; format: (n: number) => string; height?: number; title: string; width?: number; integer?: boolean };

type ValueScale = PickD3Scale<"linear", number>;
type CategoryScale = PickD3Scale<"band", number, string> | PickD3Scale<"point", number, string>;

/** The plot area both charts share: inner size and a value scale with 10 % headroom. */
export function plotArea(data: Point[], width: number, height: number) {
  const innerW = width - MARGIN.left - MARGIN.right;
  const innerH = height - MARGIN.top - MARGIN.bottom;
  const max = Math.max(...data.map((d) => d.value), 0);
  const y = scaleLinear<number>({ domain: [0, max > 0 ? max * 1.1 : 1], range: [innerH, 0], nice: true });
  return { innerW, innerH, y };
}

/** A horizontal position in the drawing as CSS: the margin plus its share of the stretched width. */
export function leftOf(x: number, innerW: number): string {
  return `calc(${MARGIN.left}px + (100% - ${MARGIN.left + MARGIN.right}px) * ${(x / innerW).toFixed(5)})`;
}

/** A vertical position in the drawing in px (the height is not stretched). */
export const topOf = (y: number) => MARGIN.top + y;

/**
 * The value axis' ticks: the scale's round values, for a count series whole numbers only, and
 * never two that read the same (an empty chart's 0 to 1 scale once read "0, 0, 0, 1, 1, 1").
 */
function valueTicks(y: ValueScale, format: (n: number) => string, integer: boolean): number[] {
  const seen = new Set<string>();
  return y.ticks(4).filter((value) => {
    const label = format(value);
    if ((integer && !Number.isInteger(value)) || seen.has(label)) return false;
    seen.add(label);
    return true;
  });
}

/** Every step-th category from the first, at most `max` of them. */
function everyNth(labels: string[], max: number): string[] {
  const step = Math.max(1, Math.ceil(labels.length / max));
  return labels.filter((_, i) => i % step === 0);
}

/** The chart: grid lines and marks in the stretched SVG, the axes and `overlay` (dots) over it. */
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
  y: ValueScale;
  x: CategoryScale;
  data: Point[];
  maxTicks: number;
  format: (n: number) => string;
  integer?: boolean;
  overlay?: ReactNode;
  children: ReactNode;
}) {
  const ticks = valueTicks(y, format, integer);
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
            <Line key={t} from={{ x: 0, y: y(t) }} to={{ x: innerW, y: y(t) }} className="stroke-slate-100" vectorEffect="non-scaling-stroke" />
          ))}
          {children}
          <Line from={{ x: 0, y: innerH }} to={{ x: innerW, y: innerH }} stroke="#e2e8f0" vectorEffect="non-scaling-stroke" />
        </Group>
      </svg>
      {overlay}
      <ValueAxis y={y} ticks={ticks} format={format} innerH={innerH} />
      <CategoryAxes x={x} data={data} innerW={innerW} innerH={innerH} maxTicks={maxTicks} />
      {empty ? (
        <p className="absolute inset-x-0 text-center text-sm text-slate-500" style={{ top: topOf(innerH / 2) - 10 }} data-testid="chart-empty">
          No data in this period
        </p>
      ) : null}
    </div>
  );
}

const LABEL = "fill-slate-500 text-[11px]";

/** The value axis: one label per grid line, its end 6 px left of the plot. */
function ValueAxis({ y, ticks, format, innerH }: { y: ValueScale; ticks: number[]; format: (n: number) => string; innerH: number }) {
  return (
    <svg aria-hidden="true" className="absolute overflow-visible" style={{ left: 0, top: MARGIN.top, width: MARGIN.left, height: innerH }}>
      <AxisLeft
        scale={y}
        left={MARGIN.left}
        tickValues={ticks}
        tickFormat={(value) => format(Number(value))}
        tickLength={6}
        hideAxisLine
        hideTicks
        tickComponent={({ x, y: at, formattedValue }: TickRendererProps) => (
          <text x={x} y={at} dy="0.32em" textAnchor="end" className={`${LABEL} tabular-nums`} data-chart-label="" data-chart-axis="y">
            {formattedValue}
          </text>
        )}
      />
    </svg>
  );
}

/**
 * The category axis, twice: a narrow chart (under 512 px: a phone's, or one beside another card)
 * shows fewer and shorter labels than a wide one, and each axis shows at its widths only. The
 * axes' SVG is as wide as the stretched plot, so a label at a share of it is over its mark.
 */
function CategoryAxes({ x, data, innerW, innerH, maxTicks }: { x: CategoryScale; data: Point[]; innerW: number; innerH: number; maxTicks: number }) {
  const keys = data.map(keyOf);
  const long = new Map(data.map((d) => [keyOf(d), d.label]));
  const short = new Map(data.map((d) => [keyOf(d), d.short ?? d.label]));
  const tick = ({ x: at, y, formattedValue }: TickRendererProps) => (
    <text x={`${((Number(at) / innerW) * 100).toFixed(3)}%`} y={y} textAnchor="middle" className={LABEL} data-chart-label="" data-chart-axis="x">
      {formattedValue}
    </text>
  );
  return (
    <svg
      aria-hidden="true"
      className="absolute overflow-visible"
      style={{ left: MARGIN.left, top: topOf(innerH), width: `calc(100% - ${MARGIN.left + MARGIN.right}px)`, height: MARGIN.bottom }}
    >
      <AxisBottom
        scale={x}
        axisClassName="@lg:hidden"
        tickValues={everyNth(keys, NARROW_MAX_LABELS)}
        tickFormat={(key) => short.get(key) ?? key}
        tickLabelProps={{ fontSize: 11 }}
        hideAxisLine
        hideTicks
        tickComponent={tick}
      />
      <AxisBottom
        scale={x}
        axisClassName="hidden @lg:inline"
        tickValues={everyNth(keys, maxTicks)}
        tickFormat={(key) => long.get(key) ?? key}
        tickLabelProps={{ fontSize: 11 }}
        hideAxisLine
        hideTicks
        tickComponent={tick}
      />
    </svg>
  );
}

export function BarChart({ data, format, height = 220, title, width = WIDTH, integer }: ChartProps) {
  const { innerW, innerH, y } = plotArea(data, width, height);
  const x = scaleBand<string>({ domain: data.map(keyOf), range: [0, innerW], padding: 0.25 });
  return (
    <ChartFrame {...{ title, height, innerW, innerH, y, x, data, format, integer }} maxTicks={12}>
      {data.map((d) => {
        const h = innerH - y(d.value);
        return (
          <Bar key={keyOf(d)} x={x(keyOf(d))} y={innerH - h} width={x.bandwidth()} height={h} className="fill-brand-500">
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
