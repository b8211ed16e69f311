// The dashboard's overview (spec: the default tab): a greeting, early access, then the cards in
// rows. Each card is its own component under ./overview/.
import type { AccountOverview } from "~/lib/account/overview.server";
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
import { useFormat } from "~/components/format";

// The card rows follow the content's width (the dashboard's size container): one column on a
// phone, two from 672 px (a tablet, or a 1024 px window beside the side rail), the full rows from
// 896 px. The five figures go 3 + 2 in a six-column grid between those.
const FIGURE_THIRD = "@2xl:col-span-2 @4xl:col-span-1";
const FIGURE_HALF = "@2xl:col-span-3 @4xl:col-span-1";

export function OverviewTab({ account, usage, pendingKey }: { account: AccountOverview; usage: OverviewUsage; pendingKey: string | null }) {
  const f = useFormat();
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{`${account.greeting}, ${account.greetingName}`}</h1>
      <p className="mt-1 text-sm text-slate-600">Here is your Modelify account at a glance.</p>

      <EarlyAccessCard account={account} pendingKey={pendingKey} />

      <div className="mt-6 grid items-start gap-6 @2xl:grid-cols-2 @4xl:grid-cols-3">
        <SubscriptionCard
          subscription={account.subscription}
          activated={account.activated}
          className="@2xl:row-span-2 @2xl:self-stretch @4xl:row-span-1 @4xl:self-start"
        />
        <ThisMonthCard month={usage.thisMonth} hasData={usage.hasData} />
        <ActiveModelsCard activeModels={usage.activeModels} />
      </div>

      <div className="mt-6 grid gap-4 @md:grid-cols-2 @2xl:grid-cols-6 @4xl:grid-cols-5">
        <StatCard title="Avg Response" value={f.ms(usage.avgResponseMs)} testId="avg-response" className={FIGURE_THIRD} />
        <StatCard
          title="Success Rate"
          value={usage.successRate === null ? "—" : f.percent(usage.successRate, 1)}
          hint={`${f.count(usage.thisMonth.requests)} requests`}
          testId="success-rate"
          className={FIGURE_THIRD}
        />
        <BudgetStatusCard budget={usage.budget} className={FIGURE_THIRD} />
        <StatCard title="Conversations" value={f.count(usage.conversations)} hint="this month" testId="conversations" className={FIGURE_HALF} />
        <ModelAnalyticsCard modelCount={usage.modelCount} className={`@md:col-span-2 ${FIGURE_HALF}`} />
      </div>

      <div className="mt-6 grid gap-6 @4xl:grid-cols-3">
        <WeeklyUsageCard weekly={usage.weekly} />
        <RecentActivityCard recent={usage.recent} />
      </div>

      <div className="mt-6 grid gap-6 @2xl:grid-cols-2 @4xl:grid-cols-3">
        <ModelPerformanceCard performance={usage.performance} />
        <CostPredictionsCard spent={usage.thisMonth.cost} prediction={usage.prediction} />
        <AchievementsCard achievements={usage.achievements} className="@2xl:col-span-2 @4xl:col-span-1" />
      </div>

      <div className="mt-6 grid gap-6 @2xl:grid-cols-2">
        <AccountInsightsCard insights={account.insights} />
        <QuickTipsCard />
      </div>
    </>
  );
}
