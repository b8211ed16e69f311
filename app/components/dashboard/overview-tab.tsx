import type { ReactNode } from "react";
import { Money } from "~/components/money";
import { Link } from "react-router";
import { budgetBand, budgetRemainder, usedPercent } from "~/lib/usage/budget";
import type { OverviewUsage } from "~/lib/usage/analytics.server";
import { formatChange, formatCount, formatDate, formatDateTime, formatMs, formatUsd } from "~/lib/format";
import type { AccountOverview } from "~/lib/account/overview.server";
import type { NextBilling } from "~/lib/billing/subscription-view";
import { BarChart, Ring } from "../charts";
import { RedeemKeyForm } from "../early-access/redeem-form";
import { buttonClass, Card, cx, LinkButton } from "../ui";
import { ChangeBadge, EmptyState, ProgressBar, StatCard } from "./stat";

// Spec: the date the current period ends, else "Subscribe to access features"; a subscription
// that will not renew says so, as the billing tab does.
function nextBillingText(next: NextBilling): { value: string; hint: string | null } {
  if (next.kind === "none") return { value: "Subscribe to access features", hint: null };
  if (next.date === null) return { value: next.label, hint: null };
  return { value: formatDate(next.date), hint: next.kind === "renews" ? null : next.label };
}

export function OverviewTab({ account, usage, pendingKey }: { account: AccountOverview; usage: OverviewUsage; pendingKey: string | null }) {
  const { subscription, insights } = account;
  const next = nextBillingText(subscription.nextBilling);
  const m = usage.thisMonth;
  const budgetPercent = usedPercent(usage.budget.spent, usage.budget.monthly);
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{`${account.greeting}, ${account.greetingName}`}</h1>
      <p className="mt-1 text-sm text-slate-600">Here is your Modelify account at a glance.</p>

      <EarlyAccessCard account={account} pendingKey={pendingKey} />

      <div className="mt-6 grid items-start gap-6 lg:grid-cols-3">
        <Card className="p-6">
          <div className="flex items-start justify-between gap-4">
            <div>
              <h2 className="text-sm font-medium text-slate-500">Subscription</h2>
              <p className="mt-2 text-lg font-semibold text-slate-900">{subscription.plan.summary}</p>
            </div>
            <span
              data-testid="subscription-status"
              className={cx(
                "rounded-full px-3 py-1 text-xs font-semibold",
                subscription.active ? "bg-emerald-50 text-emerald-700" : "bg-slate-100 text-slate-700",
              )}
            >
              {subscription.status}
            </span>
          </div>
          <dl className="mt-4 space-y-2 text-sm">
            <div className="flex justify-between gap-3">
              <dt className="text-slate-500">Next billing</dt>
              <dd className="text-right font-semibold text-slate-900" data-testid="overview-next-billing">
                {next.value}
                {next.hint ? <span className="block text-xs font-normal text-slate-500">{next.hint}</span> : null}
              </dd>
            </div>
            <div className="flex justify-between gap-3">
              <dt className="text-slate-500">Card on file</dt>
              <dd className="font-semibold text-slate-900">{subscription.card.text}</dd>
            </div>
          </dl>
          {account.activated ? null : (
            <LinkButton to="/pricing" size="sm" className="mt-5">
              Get Subscription
            </LinkButton>
          )}
        </Card>

        <Card className="p-6">
          <div className="flex items-center justify-between">
            <h2 className="text-sm font-medium text-slate-500">This Month</h2>
            {usage.hasData ? <ChangeBadge value={formatChange(m.costChange)} label="Cost compared with the same point last month" /> : null}
          </div>
          {m.requests === 0 ? (
            <p className="mt-3 text-sm text-slate-600">No usage data</p>
          ) : (
            <>
              <p className="mt-2 text-3xl font-semibold tracking-tight text-slate-900" data-testid="month-cost">
                <Money value={m.cost} />
              </p>
              <dl className="mt-3 grid grid-cols-2 gap-3 text-sm">
                <div>
                  <dt className="text-slate-500">Tokens</dt>
                  <dd className="font-semibold text-slate-900" data-testid="month-tokens">
                    {formatCount(m.tokens)} <span className="text-xs font-normal text-slate-500">{formatChange(m.tokenChange)}</span>
                  </dd>
                </div>
                <div>
                  <dt className="text-slate-500">Requests</dt>
                  <dd className="font-semibold text-slate-900" data-testid="month-requests">
                    {formatCount(m.requests)} <span className="text-xs font-normal text-slate-500">{formatChange(m.requestChange)}</span>
                  </dd>
                </div>
              </dl>
            </>
          )}
        </Card>

        <Card className="p-6">
          <h2 className="text-sm font-medium text-slate-500">Active Models</h2>
          <div className="mt-3 flex items-center gap-4">
            <div className="relative">
              <Ring share={usage.activeModels.ringShare} label={`${usage.activeModels.used} of ${usage.activeModels.known} models used this month`} />
              <span className="absolute inset-0 flex items-center justify-center text-lg font-semibold text-slate-900">{usage.activeModels.used}</span>
            </div>
            {usage.activeModels.used === 0 ? (
              <p className="text-sm text-slate-600">Add API keys in the desktop app to start.</p>
            ) : (
              <ul className="min-w-0 space-y-1 text-sm">
                {usage.activeModels.models.slice(0, 2).map((model) => (
                  <li
                    key={`${model.provider}/${model.name}`}
                    className="truncate font-medium text-slate-900"
                    title={`${model.provider} · ${model.requests} requests`}
                  >
                    {model.name}
                  </li>
                ))}
                {usage.activeModels.used > 2 ? <li className="text-slate-500">{`+${usage.activeModels.used - 2} more`}</li> : null}
              </ul>
            )}
          </div>
        </Card>
      </div>

      <div className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
        <StatCard title="Avg Response" value={formatMs(usage.avgResponseMs)} testId="avg-response" />
        <StatCard
          title="Success Rate"
          value={usage.successRate === null ? "—" : `${usage.successRate.toFixed(1)}%`}
          hint={`${formatCount(m.requests)} requests`}
          testId="success-rate"
        />
        <Card className="p-5">
          <p className="text-sm font-medium text-slate-500">Budget Status</p>
          <p className="mt-2 text-lg font-semibold text-slate-900">
            <Money value={usage.budget.spent} />{" "}
            <span className="text-sm font-normal text-slate-500">
              / <Money value={usage.budget.monthly} />
            </span>
          </p>
          <ProgressBar percent={budgetPercent} tone={budgetBand(budgetPercent)} label="Monthly budget used" />
          <div className="mt-2 flex items-center justify-between text-xs text-slate-500">
            <span data-testid="overview-budget-remainder">{budgetRemainder(usage.budget.monthly, usage.budget.spent)}</span>
            <Link to="/dashboard/budget" className="font-semibold text-brand-700 hover:text-brand-800">
              Manage
            </Link>
          </div>
        </Card>
        <StatCard title="Conversations" value={formatCount(usage.conversations)} hint="this month" testId="conversations" />
        <Card className="p-5">
          <p className="text-sm font-medium text-slate-500">Model Analytics</p>
          <p className="mt-2 text-2xl font-semibold text-slate-900">{usage.modelCount}</p>
          <Link to="/dashboard/analytics" className="mt-2 inline-block text-xs font-semibold text-brand-700 hover:text-brand-800">
            View Analytics
          </Link>
        </Card>
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <Card className="p-6 lg:col-span-2" data-testid="weekly-card">
          <h2 className="text-base font-semibold text-slate-900">Weekly Usage Trends</h2>
          <p className="text-sm text-slate-500">Spend per week, last 4 weeks</p>
          {usage.weekly.some((w) => w.requests > 0) ? (
            <>
              <BarChart
                title="Spend per week"
                height={280}
                data={usage.weekly.map((w) => ({ label: w.label, short: w.label.split(" ")[0], value: w.cost }))}
                format={(n) => formatUsd(n)}
              />
              {/* The weeks' figures under the chart: the card then runs as tall as the 10 rows of
                  Recent Activity beside it instead of leaving a gap (issue 14). */}
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
                  {usage.weekly.map((w) => (
                    <tr key={w.label}>
                      <td className="py-2.5 pr-4 font-medium text-slate-900">{w.label}</td>
                      <td className="py-2.5 pr-4 text-right tabular-nums text-slate-600">{formatCount(w.requests)}</td>
                      <td className="py-2.5 pr-4 text-right tabular-nums text-slate-600">{formatCount(w.tokens)}</td>
                      <td className="py-2.5 text-right tabular-nums text-slate-900">
                        <Money value={w.cost} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          ) : (
            <div className="mt-4">
              <EmptyState title="No usage in the last 4 weeks" />
            </div>
          )}
        </Card>
        <Card className="p-6" data-testid="recent-card">
          <div className="flex items-center justify-between">
            <h2 className="text-base font-semibold text-slate-900">Recent Activity</h2>
            <Link to="/dashboard/usage" className="text-xs font-semibold text-brand-700 hover:text-brand-800">
              View all
            </Link>
          </div>
          {usage.recent.length === 0 ? (
            <div className="mt-4">
              <EmptyState title="No activity yet">Model calls from the desktop app appear here.</EmptyState>
            </div>
          ) : (
            <ul className="mt-3 divide-y divide-slate-100 text-sm" data-testid="recent-activity">
              {usage.recent.map((r) => (
                <li key={r.id} className="flex items-center justify-between gap-3 py-2">
                  <span className="min-w-0">
                    <span className="block truncate font-medium text-slate-900">{r.modelName}</span>
                    <span className="block truncate text-xs text-slate-500">
                      {formatDateTime(r.occurredAt)} · {formatCount(r.tokens)} tokens
                      {r.deviceName ? (
                        <>
                          {" · "}
                          <span data-testid="recent-device">{r.deviceName}</span>
                        </>
                      ) : null}
                    </span>
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
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <Card className="p-6">
          <h2 className="text-base font-semibold text-slate-900">Model Performance</h2>
          {usage.performance.length === 0 ? (
            <div className="mt-4">
              <EmptyState title="No models used this month" />
            </div>
          ) : (
            <ul className="mt-4 space-y-4">
              {usage.performance.map((p) => (
                <li key={`${p.provider}/${p.name}`}>
                  <div className="flex justify-between text-sm">
                    <span className="font-medium text-slate-900">{p.name}</span>
                    <span className="text-slate-600">
                      {p.successRate.toFixed(0)}% · {formatMs(p.avgResponseMs)}
                    </span>
                  </div>
                  <ProgressBar percent={p.successRate} tone="green" label={`${p.name} success rate`} />
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card className="p-6">
          <h2 className="text-base font-semibold text-slate-900">Cost Predictions</h2>
          <dl className="mt-4 space-y-3 text-sm">
            <Row label="Spent this month" value={<Money value={m.cost} />} />
            <Row label="Predicted (×1.1)" value={<Money value={usage.prediction.predicted} />} testId="predicted" />
            <Row label="Trend vs last month" value={formatChange(usage.prediction.trend)} />
            <Row label="Budget limit" value={<Money value={usage.prediction.budget} />} />
          </dl>
        </Card>
        <Card className="p-6">
          <h2 className="text-base font-semibold text-slate-900">Recent Achievements</h2>
          <ul className="mt-4 space-y-3 text-sm">
            <Achievement
              done={usage.achievements.powerUser.done}
              title="Power User"
              detail={
                usage.achievements.powerUser.done
                  ? "100+ requests this month"
                  : `${usage.achievements.powerUser.progress}/${usage.achievements.powerUser.of} requests`
              }
            />
            <Achievement
              done={usage.achievements.speedDemon.done}
              title="Speed Demon"
              detail={`Average response ${usage.achievements.speedDemon.avgSeconds.toFixed(2)} s (under 1 s wins)`}
            />
            <Achievement
              done={usage.achievements.innovator.done}
              title="Innovator"
              detail={
                usage.achievements.innovator.done
                  ? "3+ models this month"
                  : `${usage.achievements.innovator.progress}/${usage.achievements.innovator.of} models`
              }
            />
          </ul>
        </Card>
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Card className="p-6">
          <h2 className="text-base font-semibold text-slate-900">Account Insights</h2>
          <dl className="mt-4 space-y-3 text-sm">
            <Row label="Plan" value={insights.plan} />
            <Row label="Last login" value={insights.lastLogin} />
            <Row label="Account created" value={insights.accountCreated} />
            <div className="flex justify-between gap-4">
              <dt className="text-slate-500">Profile</dt>
              <dd className="font-semibold text-slate-900">
                {insights.profileCompletion === "Complete" ? (
                  "Complete"
                ) : (
                  <Link to="/dashboard/profile" className="text-brand-700 underline-offset-2 hover:underline">
                    Incomplete · finish it
                  </Link>
                )}
              </dd>
            </div>
          </dl>
        </Card>
        <Card className="p-6">
          <h2 className="text-base font-semibold text-slate-900">Quick tips</h2>
          <ul className="mt-4 list-disc space-y-2 pl-5 text-sm text-slate-600">
            <li>Add your provider API keys in the desktop app under Settings, then API Keys. They never leave your device.</li>
            <li>Set a monthly budget to get an e-mail before you overspend.</li>
            <li>Compare models in Model Analytics to find the best value for your work.</li>
          </ul>
          <Link to="/dashboard/budget" className={buttonClass("secondary", "sm", "mt-5")}>
            Set a budget
          </Link>
        </Card>
      </div>
    </>
  );
}

function Row({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-slate-500">{label}</dt>
      <dd className="font-semibold text-slate-900" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function Achievement({ done, title, detail }: { done: boolean; title: string; detail: string }) {
  return (
    <li className="flex items-start gap-3">
      <span
        className={cx(
          "mt-0.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-bold",
          done ? "bg-emerald-100 text-emerald-700" : "bg-slate-100 text-slate-400",
        )}
        aria-hidden="true"
      >
        {done ? "✓" : "•"}
      </span>
      <span>
        <span className="block font-semibold text-slate-900">
          {title}
          <span className="sr-only">{done ? " (earned)" : " (in progress)"}</span>
        </span>
        <span className="text-slate-600">{detail}</span>
      </span>
    </li>
  );
}

/**
 * Early access (spec §4): a member sees until when; an account that is not activated yet can
 * redeem a key here (filled in when one waits from its e-mail link). A subscriber sees nothing.
 */
function EarlyAccessCard({ account, pendingKey }: { account: AccountOverview; pendingKey: string | null }) {
  if (account.earlyAccess.active) {
    return (
      <div
        className="mt-8 flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-emerald-200 bg-emerald-50 px-6 py-4 shadow-sm"
        data-testid="early-access-status"
      >
        <div>
          <h2 className="text-sm font-semibold text-emerald-800">Early access</h2>
          <p className="mt-0.5 text-sm text-emerald-900">
            {account.earlyAccess.expiresAt ? `Active until ${formatDate(account.earlyAccess.expiresAt)}` : "Active"}
          </p>
        </div>
        <Link to="/dashboard/downloads" className={buttonClass("secondary", "sm")}>
          Download the App
        </Link>
      </div>
    );
  }
  if (account.activated) return null;
  return (
    <Card className="mt-8 grid gap-6 p-6 md:grid-cols-2 md:items-center" data-testid="early-access-card">
      <div>
        <h2 className="text-lg font-semibold text-slate-900">Activate early access</h2>
        <p className="mt-1 text-sm leading-6 text-slate-600">
          Got an activation key from the waitlist? Redeem it to unlock the desktop app, downloads and Model Analytics.{" "}
          <Link to="/early-access" className="rounded font-medium text-brand-700 hover:text-brand-800">
            Join the waitlist
          </Link>{" "}
          if you have none yet.
        </p>
      </div>
      <RedeemKeyForm defaultKey={pendingKey} compact />
    </Card>
  );
}
