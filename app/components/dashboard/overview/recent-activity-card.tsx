import { Link } from "react-router";
import type { OverviewUsage } from "~/lib/usage/analytics.server";
import { Money } from "../../money";
import { Card, cx } from "../../ui";
import { EmptyState } from "../stat";
import { useFormat } from "~/components/format";

export function RecentActivityCard({ recent }: { recent: OverviewUsage["recent"] }) {
  const f = useFormat();
  return (
    <Card className="p-6" data-testid="recent-card">
      <div className="flex items-center justify-between">
        <h2 className="text-base font-semibold text-slate-900">Recent Activity</h2>
        <Link to="/dashboard/usage" className="text-xs font-semibold text-brand-700 hover:text-brand-800">
          View all
        </Link>
      </div>
      {recent.length === 0 ? (
        <div className="mt-4">
          <EmptyState title="No activity yet">Model calls from the desktop app appear here.</EmptyState>
        </div>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100 text-sm" data-testid="recent-activity">
          {recent.map((r) => (
            <li key={r.id} className="flex items-center justify-between gap-3 py-2">
              <span className="min-w-0">
                <span className="block truncate font-medium text-slate-900">{r.modelName}</span>
                <span className="block truncate text-xs text-slate-500">
                  {f.dateTime(r.occurredAt)} · {f.count(r.tokens)} tokens
                </span>
                {/* A line of its own: on a phone the time and tokens leave no room for a laptop's name. */}
                {r.deviceName ? (
                  <span className="block truncate text-xs text-slate-500" data-testid="recent-device">
                    {r.deviceName}
                  </span>
                ) : null}
              </span>
              <span className="shrink-0 text-right">
                <span className="block font-medium text-slate-900">
                  <Money value={r.cost} />
                </span>
                <span className={cx("text-xs", r.success ? "text-emerald-700" : "text-red-700")}>{r.success ? "OK" : "Failed"}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
