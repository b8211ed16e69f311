import { USAGE } from "~/lib/constants";
import type { OverviewUsage } from "~/lib/usage/analytics.server";
import { BarChart } from "../../charts";
import { useFormat } from "../../format";
import { Money } from "../../money";
import { Card } from "../../ui";
import { EmptyState } from "../stat";

export function WeeklyUsageCard({ weekly }: { weekly: OverviewUsage["weekly"] }) {
  const f = useFormat();
  return (
    <Card className="p-6 @4xl:col-span-2" data-testid="weekly-card">
      <h2 className="text-base font-semibold text-slate-900">Weekly Usage Trends</h2>
      <p className="text-sm text-slate-500">Spend per week, last {USAGE.weeklyUsageWeeks} weeks</p>
      {weekly.some((w) => w.requests > 0) ? (
        <>
          <BarChart
            title="Spend per week"
            height={280}
            data={weekly.map((w) => ({ key: String(w.start), label: f.dateRange(w.start, w.end), short: f.monthDay(w.start), value: w.cost }))}
            format={f.usd}
          />
          <WeeklyTable weekly={weekly} />
        </>
      ) : (
        <div className="mt-4">
          <EmptyState title={`No usage in the last ${USAGE.weeklyUsageWeeks} weeks`} />
        </div>
      )}
    </Card>
  );
}

/**
 * The weeks' figures under the chart: the card then runs as tall as the 10 rows of Recent
 * Activity beside it instead of leaving a gap (issue 14).
 */
function WeeklyTable({ weekly }: { weekly: OverviewUsage["weekly"] }) {
  const f = useFormat();
  return (
    <table className="mt-4 w-full text-left text-sm" data-testid="weekly-table">
      <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
        <tr>
          <th className="py-2 pr-4 font-medium">Week</th>
          <th className="py-2 pr-4 text-right font-medium">Requests</th>
          <th className="py-2 pr-4 text-right font-medium">Tokens</th>
          <th className="py-2 text-right font-medium">Spend</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {weekly.map((w) => (
          <tr key={w.start}>
            <td className="py-2.5 pr-4 font-medium text-slate-900">{f.dateRange(w.start, w.end)}</td>
            <td className="py-2.5 pr-4 text-right tabular-nums text-slate-600">{f.count(w.requests)}</td>
            <td className="py-2.5 pr-4 text-right tabular-nums text-slate-600">{f.count(w.tokens)}</td>
            <td className="py-2.5 text-right tabular-nums text-slate-900">
              <Money value={w.cost} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
