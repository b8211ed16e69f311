import type { OverviewUsage } from "~/lib/usage/analytics.server";
import { Ring } from "../../charts";
import { Card } from "../../ui";

export function ActiveModelsCard({ activeModels }: { activeModels: OverviewUsage["activeModels"] }) {
  return (
    <Card className="p-6">
      <h2 className="text-sm font-medium text-slate-500">Active Models</h2>
      <div className="mt-3 flex items-center gap-4">
        <div className="relative">
          <Ring share={activeModels.ringShare} label={`${activeModels.used} of ${activeModels.known} models used this month`} />
          <span className="absolute inset-0 flex items-center justify-center text-lg font-semibold text-slate-900">{activeModels.used}</span>
        </div>
        {activeModels.used === 0 ? (
          <p className="text-sm text-slate-600">Add API keys in the desktop app to start.</p>
        ) : (
          <ul className="min-w-0 space-y-1 text-sm">
            {activeModels.models.slice(0, 2).map((model) => (
              <li
                key={`${model.provider}/${model.name}`}
                className="truncate font-medium text-slate-900"
                title={`${model.provider} · ${model.requests} requests`}
              >
                {model.name}
              </li>
            ))}
            {activeModels.used > 2 ? <li className="text-slate-500">{`+${activeModels.used - 2} more`}</li> : null}
          </ul>
        )}
      </div>
    </Card>
  );
}
