import type { OverviewUsage } from "~/lib/usage/analytics.server";
import { Money } from "../../money";
import { Card } from "../../ui";
import { DefinitionRow } from "./definition-row";
import { useFormat } from "~/components/format";

export function CostPredictionsCard({ spent, prediction }: { spent: number; prediction: OverviewUsage["prediction"] }) {
  const f = useFormat();
  return (
    <Card className="p-6">
      <h2 className="text-base font-semibold text-slate-900">Cost Predictions</h2>
      <dl className="mt-4 space-y-3 text-sm">
        <DefinitionRow label="Spent this month" value={<Money value={spent} />} />
        <DefinitionRow label="Predicted (×1.1)" value={<Money value={prediction.predicted} />} testId="predicted" />
        <DefinitionRow label="Trend vs last month" value={f.change(prediction.trend)} />
        <DefinitionRow label="Budget limit" value={<Money value={prediction.budget} />} />
      </dl>
    </Card>
  );
}
