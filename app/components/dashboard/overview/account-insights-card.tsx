import { Link } from "react-router";
import type { AccountOverview } from "~/lib/account/overview.server";
import { useFormat } from "../../format";
import { Card } from "../../ui";
import { DefinitionRow } from "./definition-row";

export function AccountInsightsCard({ insights }: { insights: AccountOverview["insights"] }) {
  const f = useFormat();
  return (
    <Card className="p-6">
      <h2 className="text-base font-semibold text-slate-900">Account Insights</h2>
      <dl className="mt-4 space-y-3 text-sm">
        <DefinitionRow label="Plan" value={insights.plan} />
        <DefinitionRow label="Last login" value={insights.lastLoginAt ? f.date(insights.lastLoginAt) : "Today"} />
        <DefinitionRow label="Account created" value={insights.createdAt ? f.date(insights.createdAt) : "Recently"} />
        <DefinitionRow
          label="Profile"
          value={
            insights.profileCompletion === "Complete" ? (
              "Complete"
            ) : (
              <Link to="/dashboard/profile" className="text-brand-700 underline-offset-2 hover:underline">
                Incomplete · finish it
              </Link>
            )
          }
        />
      </dl>
    </Card>
  );
}
