// The line chart in a module of its own: d3-shape's line and area generators (about 2 KiB gzip)
// then load only with the pages that draw one (the usage tab), not with the overview's bar chart.
import { scalePoint } from "@visx/scale";
import { Area, LinePath } from "@visx/shape";
import { ChartFrame, type ChartProps, keyOf, leftOf, plotArea, topOf, WIDTH } from "./charts";

export function LineChart({ data, format, height = 240, title, width = WIDTH, integer }: ChartProps) {
  const { innerW, innerH, y } = plotArea(data, width, height);
  const x = scalePoint<string>({ domain: data.map(keyOf), range: [0, innerW], padding: 0.5 });
  // The points are HTML dots: round at every width (the drawing itself is stretched), and left
  // out of a narrow chart (a phone's), where 30 of them would crowd the line.
  const dots = data.map((d) => (
    <span
      key={keyOf(d)}
      title={`${d.label}: ${format(d.value)}`}
      className="absolute hidden h-2 w-2 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-brand-600 bg-white @lg:block"
      style={{ left: leftOf(x(keyOf(d)) ?? 0, innerW), top: topOf(y(d.value)) }}
    />
  ));
  return (
    <ChartFrame {...{ title, height, innerW, innerH, y, x, data, format, integer }} maxTicks={10} overlay={dots}>
      <Area data={data} x={(d) => x(keyOf(d)) ?? 0} y0={innerH} y1={(d) => y(d.value)} className="fill-brand-500/10" />
      <LinePath
        data={data}
        x={(d) => x(keyOf(d)) ?? 0}
        y={(d) => y(d.value)}
        className="stroke-brand-600"
        strokeWidth={2.5}
        fill="none"
        vectorEffect="non-scaling-stroke"
      />
    </ChartFrame>
  );
}
