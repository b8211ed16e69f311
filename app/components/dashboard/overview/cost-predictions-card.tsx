import type { OverviewUsage } from "~/lib/usage/analytics.server";
import { Money } from "../../money";
import { Card } from "../../ui";
import { DefinitionRow } from "./definition-row";
import { useFormat } from "~/components/format";
import { type Formats, isSubCent } from "~/lib/format";

export function CostPredictionsCard({ spent, prediction }: { spent: number; prediction: OverviewUsage["prediction"] }) {
  const f = useFormat();
  return (
    <Card className="p-6">
      <h2 className="text-base font-semibold text-slate-900">Cost Predictions</h2>
      <dl className="mt-4 space-y-3 text-sm">
        <DefinitionRow label="Spent this month" value={<Money value={spent} />} />
        <DefinitionRow label="Predicted" value={<Money value={prediction.predicted} />} testId="predicted" />
        <DefinitionRow label="Trend vs last month" value={f.change(prediction.trend)} />
        <DefinitionRow label="Budget limit" value={<Money value={prediction.budget} />} />
      </dl>
      <p className="mt-4 text-xs text-slate-500" data-testid="forecast-method">
        {method(prediction, f)}
      </p>
    </Card>
  );
}

/** How the prediction was made, in words, with its own figures (lib/usage/forecast.ts). */
function method(p: OverviewUsage["prediction"], f: Formats): string {
  const left = `${f.decimal(p.daysLeft, 1)} days left in the month (${p.timeZone})`;
  if (p.basisDays === 0)
    return `How it is worked out: what you have spent so far this month. Once you have a complete day of use, your average daily spend is added for the ${left}.`;
  const days = p.basisDays === 1 ? "yesterday" : `the last ${p.basisDays} complete days`;
  return `How it is worked out: what you have spent so far this month, plus your average daily spend over ${days} (${isSubCent(p.dailyAverage) ? f.usdExact(p.dailyAverage) : f.usd(p.dailyAverage)} a day) for the ${left}.`;
}
