// The line chart in a module of its own: d3-shape's line and area generators (about 2 KiB gzip)
// then load only with the pages that draw one (the usage tab), not with the overview's bar chart.
import { Area, LinePath } from "@visx/shape";
import { pointScale } from "~/lib/charts/scales";
import { ChartFrame, type ChartProps, plotArea, WIDTH } from "./charts";

export function LineChart({ data, format, height = 240, title, width = WIDTH }: ChartProps) {
  const { innerW, innerH, y } = plotArea(data, width, height);
  const labels = data.map((d) => d.label);
  const x = pointScale({ domain: labels, range: [0, innerW], padding: 0.5 });
  return (
    <ChartFrame {...{ title, width, height, innerW, innerH, y, x, labels, format }} maxTicks={10}>
      <Area data={data} x={(d) => x(d.label) ?? 0} y0={innerH} y1={(d) => y(d.value)} className="fill-brand-500/10" />
      <LinePath data={data} x={(d) => x(d.label) ?? 0} y={(d) => y(d.value)} className="stroke-brand-600" strokeWidth={2.5} fill="none" />
      {data.map((d) => (
        <circle key={d.label} cx={x(d.label)} cy={y(d.value)} r={3} className="fill-white stroke-brand-600" strokeWidth={2}>
          <title>{`${d.label}: ${format(d.value)}`}</title>
        </circle>
      ))}
    </ChartFrame>
  );
}
