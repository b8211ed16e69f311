import type { OverviewUsage } from "~/lib/usage/analytics.server";
import { Money } from "../../money";
import { Card } from "../../ui";
import { ChangeBadge } from "../stat";
import { useFormat } from "~/components/format";

export function ThisMonthCard({ month, hasData }: { month: OverviewUsage["thisMonth"]; hasData: boolean }) {
  const f = useFormat();
  return (
    <Card className="p-6">
      <div className="flex items-center justify-between">
        <h2 className="text-sm font-medium text-slate-500">This Month</h2>
        {hasData ? <ChangeBadge value={f.change(month.costChange)} label="Cost compared with the same point last month" /> : null}
      </div>
      {month.requests === 0 ? (
        <p className="mt-3 text-sm text-slate-600">No usage data</p>
      ) : (
        <>
          <p className="mt-2 text-3xl font-semibold tracking-tight text-slate-900" data-testid="month-cost">
            <Money value={month.cost} />
          </p>
          <dl className="mt-3 grid grid-cols-2 gap-3 text-sm">
            <div>
              <dt className="text-slate-500">Tokens</dt>
              <dd className="font-semibold text-slate-900" data-testid="month-tokens">
                {f.count(month.tokens)} <span className="text-xs font-normal text-slate-500">{f.change(month.tokenChange)}</span>
              </dd>
            </div>
            <div>
              <dt className="text-slate-500">Requests</dt>
              <dd className="font-semibold text-slate-900" data-testid="month-requests">
                {f.count(month.requests)} <span className="text-xs font-normal text-slate-500">{f.change(month.requestChange)}</span>
              </dd>
            </div>
          </dl>
        </>
      )}
    </Card>
  );
}
