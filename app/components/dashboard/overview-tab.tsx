// The dashboard's overview (spec: the default tab): a greeting, early access, then the cards in
// rows. Each card is its own component under ./overview/.
import type { AccountOverview } from "~/lib/account/overview.server";
import { formatCount, formatMs } from "~/lib/format";
import type { OverviewUsage } from "~/lib/usage/analytics.server";
import { AccountInsightsCard } from "./overview/account-insights-card";
import { AchievementsCard } from "./overview/achievements-card";
import { ActiveModelsCard } from "./overview/active-models-card";
import { BudgetStatusCard } from "./overview/budget-status-card";
import { CostPredictionsCard } from "./overview/cost-predictions-card";
import { EarlyAccessCard } from "./overview/early-access-card";
import { ModelAnalyticsCard } from "./overview/model-analytics-card";
import { ModelPerformanceCard } from "./overview/model-performance-card";
import { QuickTipsCard } from "./overview/quick-tips-card";
import { RecentActivityCard } from "./overview/recent-activity-card";
import { SubscriptionCard } from "./overview/subscription-card";
import { ThisMonthCard } from "./overview/this-month-card";
import { WeeklyUsageCard } from "./overview/weekly-usage-card";
import { StatCard } from "./stat";

export function OverviewTab({ account, usage, pendingKey }: { account: AccountOverview; usage: OverviewUsage; pendingKey: string | null }) {
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{`${account.greeting}, ${account.greetingName}`}</h1>
      <p className="mt-1 text-sm text-slate-600">Here is your Modelify account at a glance.</p>

      <EarlyAccessCard account={account} pendingKey={pendingKey} />

      <div className="mt-6 grid items-start gap-6 lg:grid-cols-3">
        <SubscriptionCard subscription={account.subscription} activated={account.activated} />
        <ThisMonthCard month={usage.thisMonth} hasData={usage.hasData} />
        <ActiveModelsCard activeModels={usage.activeModels} />
      </div>

      <div className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
        <StatCard title="Avg Response" value={formatMs(usage.avgResponseMs)} testId="avg-response" />
        <StatCard
          title="Success Rate"
          value={usage.successRate === null ? "—" : `${usage.successRate.toFixed(1)}%`}
          hint={`${formatCount(usage.thisMonth.requests)} requests`}
          testId="success-rate"
        />
        <BudgetStatusCard budget={usage.budget} />
        <StatCard title="Conversations" value={formatCount(usage.conversations)} hint="this month" testId="conversations" />
        <ModelAnalyticsCard modelCount={usage.modelCount} />
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <WeeklyUsageCard weekly={usage.weekly} />
        <RecentActivityCard recent={usage.recent} />
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <ModelPerformanceCard performance={usage.performance} />
        <CostPredictionsCard spent={usage.thisMonth.cost} prediction={usage.prediction} />
        <AchievementsCard achievements={usage.achievements} />
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <AccountInsightsCard insights={account.insights} />
        <QuickTipsCard />
      </div>
    </>
  );
}
