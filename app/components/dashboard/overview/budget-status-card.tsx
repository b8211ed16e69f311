import { Link } from "react-router";
import type { OverviewUsage } from "~/lib/usage/analytics.server";
import { budgetBand, budgetRemainder, usedPercent } from "~/lib/usage/budget";
import { useFormat } from "../../format";
import { Money } from "../../money";
import { Card, cx } from "../../ui";
import { DefaultBadge, ProgressBar } from "../stat";

export function BudgetStatusCard({ budget, className }: { budget: OverviewUsage["budget"]; className?: string }) {
  const percent = usedPercent(budget.spent, budget.monthly);
  return (
    <Card className={cx("p-5", className)}>
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm font-medium text-slate-500">
        <span className="whitespace-nowrap">Budget Status</span>
        {budget.isDefault ? <DefaultBadge /> : null}
      </p>
      <p className="mt-2 text-lg font-semibold text-slate-900">
        <Money value={budget.spent} />{" "}
        <span className="text-sm font-normal text-slate-500">
          / <Money value={budget.monthly} />
        </span>
      </p>
      <ProgressBar percent={percent} tone={budgetBand(percent)} label="Monthly budget used" />
      <div className="mt-2 flex flex-wrap items-center justify-between gap-x-3 gap-y-1 text-xs text-slate-500">
        <span data-testid="overview-budget-remainder">{budgetRemainder(budget.monthly, budget.spent, useFormat())}</span>
        <Link to="/dashboard/budget" className="font-semibold text-brand-700 hover:text-brand-800">
          Manage
        </Link>
      </div>
    </Card>
  );
}
