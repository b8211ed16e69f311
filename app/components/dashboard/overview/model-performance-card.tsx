import type { OverviewUsage } from "~/lib/usage/analytics.server";
import { Card } from "../../ui";
import { EmptyState, ProgressBar } from "../stat";
import { useFormat } from "~/components/format";

export function ModelPerformanceCard({ performance }: { performance: OverviewUsage["performance"] }) {
  const f = useFormat();
  return (
    <Card className="p-6">
      <h2 className="text-base font-semibold text-slate-900">Model Performance</h2>
      {performance.length === 0 ? (
        <div className="mt-4">
          <EmptyState title="No models used this month" />
        </div>
      ) : (
        <ul className="mt-4 space-y-4">
          {performance.map((p) => (
            <li key={`${p.provider}/${p.name}`}>
              <div className="flex justify-between text-sm">
                <span className="font-medium text-slate-900">{p.name}</span>
                <span className="text-slate-600">
                  {f.percent(p.successRate, 0)} · {f.ms(p.avgResponseMs)}
                </span>
              </div>
              <ProgressBar percent={p.successRate} tone="green" label={`${p.name} success rate`} />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
