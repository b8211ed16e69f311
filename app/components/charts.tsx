// Server-rendered SVG charts (visx shapes; the scales are lib/charts/scales.ts). Fixed viewBox, fluid width: sharp at every size.
// The frame every chart shares, the bar chart and the ring; the line chart is in line-chart.tsx.
import { Group } from "@visx/group";
import { Bar } from "@visx/shape";
import type { ReactNode } from "react";
import { type BandScale, bandScale, linearScale } from "~/lib/charts/scales";

export const WIDTH = 720;
const MARGIN = { top: 12, right: 16, bottom: 32, left: 56 };

type Point = { label: string; value: number };

function ticksEvery<T>(items: T[], max: number): T[] {
  const step = Math.max(1, Math.ceil(items.length / max));
  return items.filter((_, i) => i % step === 0);
}

export type ChartProps = { data: Point[]; format: (n: number) => string; height?: number; title: string; width?: number };

/** The plot area both charts share: inner size and a value scale with 10 % headroom. */
export function plotArea(data: Point[], width: number, height: number) {
  const innerW = width - MARGIN.left - MARGIN.right;
  const innerH = height - MARGIN.top - MARGIN.bottom;
  const max = Math.max(...data.map((d) => d.value), 0);
  const y = linearScale({ domain: [0, max > 0 ? max * 1.1 : 1], range: [innerH, 0], nice: true });
  return { innerW, innerH, y };
}

/** SVG frame, grid lines and axes around a chart's marks. */
export function ChartFrame({
  title,
  width,
  height,
  innerW,
  innerH,
  y,
  x,
  labels,
  maxTicks,
  format,
  children,
}: {
  title: string;
  width: number;
  height: number;
  innerW: number;
  innerH: number;
  y: ReturnType<typeof plotArea>["y"];
  x: BandScale;
  labels: string[];
  maxTicks: number;
  format: (n: number) => string;
  children: ReactNode;
}) {
  return (
    <svg viewBox={`0 0 ${width} ${height}`} className="h-auto w-full" role="img" aria-label={title}>
      <title>{title}</title>
      <Group left={MARGIN.left} top={MARGIN.top}>
        {y.ticks(4).map((t) => (
          <line key={t} x1={0} x2={innerW} y1={y(t)} y2={y(t)} className="stroke-slate-100" />
        ))}
        {children}
        {/* Axes drawn here rather than with @visx/axis, which brings a text-measuring parser. */}
        {y.ticks(4).map((t) => (
          <text key={t} x={-4} y={y(t)} dy={3} textAnchor="end" className="fill-slate-500 text-[11px]">
            {format(t)}
          </text>
        ))}
        <line x1={0} x2={innerW} y1={innerH} y2={innerH} stroke="#e2e8f0" />
        {ticksEvery(labels, maxTicks).map((label) => (
          <text key={label} x={(x(label) ?? 0) + x.bandwidth() / 2} y={innerH + 18} textAnchor="middle" className="fill-slate-500 text-[11px]">
            {label}
          </text>
        ))}
      </Group>
    </svg>
  );
}

export function BarChart({ data, format, height = 220, title, width = WIDTH }: ChartProps) {
  const { innerW, innerH, y } = plotArea(data, width, height);
  const labels = data.map((d) => d.label);
  const x = bandScale({ domain: labels, range: [0, innerW], padding: 0.25 });
  return (
    <ChartFrame {...{ title, width, height, innerW, innerH, y, x, labels, format }} maxTicks={12}>
      {data.map((d) => {
        const h = innerH - y(d.value);
        return (
          <Bar key={d.label} x={x(d.label)} y={innerH - h} width={x.bandwidth()} height={h} rx={3} className="fill-brand-500">
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
