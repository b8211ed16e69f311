import { Money } from "~/components/money";
import { type ReactNode, useState } from "react";
import { useLocation, Link } from "react-router";
import { PLAN } from "~/lib/constants";
import type { UsageTabData } from "~/lib/usage/usage-tab.server";
import type { RangeLimits } from "~/lib/usage/usage-range";
import type { CapLine } from "~/lib/usage/caps";
import type { Entitlements } from "~/lib/usage/entitlements.server";
import { budgetBand, usedPercent } from "~/lib/usage/budget";
import { ENGAGEMENT, METRICS, USAGE_VIEWS, type UsageUi } from "~/lib/usage/usage-view";
import { BarChart } from "../charts";
import { LineChart } from "../line-chart";
import { withParams } from "../modal";
import { CapNotice } from "./cap-notice";
import { Alert, buttonClass, Card, cx, segmentClass } from "../ui";
import { type LiveState, LiveStatus, useLiveUsage } from "./live-usage";
import { DefaultBadge, EmptyState, ProgressBar } from "./stat";
import { GroupsCard } from "./usage-groups";
import { RangeBar, rangeLabel } from "./usage-range-form";
import { useFormat } from "~/components/format";

function Toggle({ options, current, param }: { options: Record<string, string>; current: string; param: string }) {
  const { pathname, search } = useLocation();
  return (
    // biome-ignore lint/a11y/useSemanticElements: a row of links, not form controls, so no fieldset.
    <div className="inline-flex max-w-full overflow-x-auto rounded-lg bg-slate-100 p-1" role="group">
      {Object.entries(options).map(([key, label]) => (
        <Link
          key={key}
          to={withParams(pathname, search, { [param]: key })}
          preventScrollReset
          aria-current={current === key ? "true" : undefined}
          className={segmentClass(current === key, "shrink-0 whitespace-nowrap")}
        >
          {label}
        </Link>
      ))}
    </div>
  );
}

type UsageTabProps = { data: UsageTabData; ui: UsageUi; limits: RangeLimits; email: string; entitlements: Entitlements; caps: CapLine[] };

export function UsageTab({ data, ui, limits, email, entitlements, caps }: UsageTabProps) {
  const f = useFormat();
  const oneDay = data.view.from === data.view.to;
  // Each point by its hour's or day's first instant, written in the account's zone.
  const label = oneDay ? f.hour : f.monthDay;
  const series = data.series.map((p) => ({ key: String(p.start), label: label(p.start), value: p[ui.metric] }));
  const format = ui.metric === "spend" ? f.usd : f.count;
  const csv = useCsvExport();
  // With JavaScript the figures follow new reports as the ledger stores them.
  const live = useLiveUsage();

  return (
    <>
      <UsageHeader daysWithData={data.daysWithData} live={live} csv={csv} />
      <CapNotice lines={caps} />
      {csv.error ? (
        <Alert tone="error" className="mt-4">
          {csv.error}
        </Alert>
      ) : null}

      <div className="mt-6 flex flex-wrap items-end justify-between gap-3">
        <RangeBar view={data.view} limits={limits} />
        <Toggle options={METRICS} current={ui.metric} param="metric" />
      </div>

      {entitlements.unlimited ? null : <FreeLimits entitlements={entitlements} />}

      <div className="mt-4 grid gap-6 @4xl:grid-cols-3">
        <Card className="p-6 @4xl:col-span-2">
          <h2 className="text-base font-semibold text-slate-900">{METRICS[ui.metric]}</h2>
          <p className="text-sm text-slate-500">{rangeLabel(data, f)}</p>
          <LineChart title={`${METRICS[ui.metric]} over time`} data={series} format={format} integer={ui.metric !== "spend"} />
        </Card>
        <SummaryCard data={data} />
      </div>

      <GroupsCard groups={data.groups} groupBy={data.view.groupBy} range={data.view} rangeLabel={rangeLabel(data, f)} />
      <EngagementCard data={data} engagement={ui.engagement} />
      <BreakdownCard data={data} view={ui.view} email={email} />
    </>
  );
}

/** With JavaScript the CSV is fetched so a failure can say so; without, the link downloads it. */
function useCsvExport() {
  const [exporting, setExporting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function exportCsv(event: React.MouseEvent<HTMLAnchorElement>) {
    event.preventDefault();
    setExporting(true);
    setError(null);
    try {
      const response = await fetch("/dashboard/usage.csv");
      if (!response.ok) throw new Error(String(response.status));
      const url = URL.createObjectURL(await response.blob());
      const a = document.createElement("a");
      a.href = url;
      a.download = `modelify-usage-${new Date().toISOString().slice(0, 10)}.csv`;
      a.click();
      URL.revokeObjectURL(url);
    } catch {
      setError("Failed to export data. Please try again.");
      window.alert("Failed to export data. Please try again.");
    } finally {
      setExporting(false);
    }
  }

  return { exporting, error, exportCsv };
}

function UsageHeader({ daysWithData, live, csv }: { daysWithData: number; live: LiveState; csv: ReturnType<typeof useCsvExport> }) {
  const f = useFormat();
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Usage Analytics</h1>
        <div className="mt-2 flex flex-wrap items-center gap-2 text-xs">
          <span className="rounded-full bg-brand-50 px-2.5 py-1 font-semibold text-brand-700" data-testid="days-of-data">
            {daysWithData > 0 ? `${f.plural(daysWithData, "day")} of data` : "No usage data available"}
          </span>
          <span className="rounded-full bg-slate-100 px-2.5 py-1 font-medium text-slate-700">Default project</span>
          <LiveStatus {...live} />
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Link to="/dashboard/usage/requests" className={buttonClass("secondary", "md")} data-testid="request-log-link">
          Request Log
        </Link>
        <a
          href="/dashboard/usage.csv"
          download
          onClick={csv.exportCsv}
          className="inline-flex items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2.5 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50"
          aria-busy={csv.exporting}
        >
          {csv.exporting ? "Exporting..." : "Export Usage Data"}
        </a>
      </div>
    </div>
  );
}

function SummaryCard({ data }: { data: UsageTabData }) {
  const f = useFormat();
  const budgetPercent = usedPercent(data.budget.monthSpend, data.budget.monthly);
  return (
    <Card className="p-6">
      <h2 className="text-base font-semibold text-slate-900">Summary</h2>
      <dl className="mt-4 space-y-4 text-sm">
        <div>
          <dt className="text-slate-500">Total spend</dt>
          <dd className="text-2xl font-semibold text-slate-900" data-testid="total-spend">
            <Money value={data.totals.spend} />
          </dd>
        </div>
        <div>
          <dt className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1 text-slate-500">
            <span className="flex items-center gap-2 whitespace-nowrap">
              Monthly budget
              {data.budget.isDefault ? <DefaultBadge /> : null}
            </span>
            <span className="whitespace-nowrap">
              <Money value={data.budget.monthSpend} /> / <Money value={data.budget.monthly} />
            </span>
          </dt>
          <dd>
            <ProgressBar percent={budgetPercent} tone={budgetBand(budgetPercent)} label="Monthly budget used" />
          </dd>
        </div>
        <MiniBar label="Total tokens" value={f.count(data.totals.tokens)} current={data.totals.tokens} previous={data.previous.tokens} />
        <MiniBar
          label="Total requests"
          value={f.count(data.totals.requests)}
          current={data.totals.requests}
          previous={data.previous.requests}
          testId="total-requests"
        />
      </dl>
      <p className="mt-4 text-xs text-slate-500">Light bars: the {data.view.days === 1 ? "day" : `${data.view.days} days`} before.</p>
    </Card>
  );
}

function EngagementCard({ data, engagement }: { data: UsageTabData; engagement: UsageUi["engagement"] }) {
  const f = useFormat();
  return (
    <Card className="mt-6 p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-base font-semibold text-slate-900">Engagement</h2>
        <Toggle options={ENGAGEMENT} current={engagement} param="engagement" />
      </div>
      {engagement === "activity" ? (
        <BarChart
          width={1100}
          title="Requests by day"
          data={data.activityByDay.map((d) => ({ key: String(d.start), label: f.monthDay(d.start), value: d.requests }))}
          format={f.count}
          integer
        />
      ) : engagement === "services" ? (
        data.models.length ? (
          <BarChart
            width={1100}
            title="Requests by model"
            data={data.models.slice(0, 10).map((m) => ({ label: m.name, short: m.name.length > 10 ? `${m.name.slice(0, 9)}…` : m.name, value: m.requests }))}
            format={f.count}
            integer
          />
        ) : (
          <div className="mt-4">
            <EmptyState title="No service usage data available" />
          </div>
        )
      ) : (
        <BarChart
          width={1100}
          title={`Requests by hour of day (${data.timeZone})`}
          data={data.peakHours.map((h) => ({ label: String(h.hour).padStart(2, "0"), value: h.requests }))}
          format={f.count}
          integer
        />
      )}
    </Card>
  );
}

/** The usage per user, per model (services) or per provider key, as the view toggle chooses. */
function BreakdownCard({ data, view, email }: { data: UsageTabData; view: UsageUi["view"]; email: string }) {
  const f = useFormat();
  return (
    <Card className="mt-6 p-6">
      <Toggle options={USAGE_VIEWS} current={view} param="view" />
      <div className="mt-5">
        {view === "user" ? (
          <div className="space-y-4">
            <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl bg-slate-50 p-4 text-sm">
              <span className="font-medium text-slate-900">{email}</span>
              <span className="text-slate-600">
                {f.count(data.totals.requests)} requests · <Money value={data.totals.spend} />
              </span>
            </div>
            <p className="text-sm text-slate-600">
              Team Management: seats, shared budgets and each member's usage are under{" "}
              <Link to="/dashboard/teams" className="font-medium text-brand-700 underline">
                Teams
              </Link>
              .
            </p>
          </div>
        ) : view === "services" ? (
          data.models.length === 0 ? (
            <EmptyState title="No service usage data available" />
          ) : (
            <Table
              head={["Model", "Provider", "Success", "Avg response", "Requests", "Cost"]}
              rows={data.models.map((m) => [
                m.name,
                m.provider,
                f.percent(m.successRate, 1),
                f.ms(m.avgResponseMs),
                f.count(m.requests),
                <Money key="cost" value={m.cost} />,
              ])}
              testId="services-table"
            />
          )
        ) : data.providers.length === 0 ? (
          <EmptyState title="No API key usage data available" />
        ) : (
          <Table
            head={["Provider key", "Models", "Requests", "Tokens", "Cost"]}
            rows={data.providers.map((p) => [p.provider, p.models.join(", "), f.count(p.requests), f.count(p.tokens), <Money key="cost" value={p.cost} />])}
          />
        )}
      </div>
    </Card>
  );
}

// This period against the one before, on a shared scale.
function MiniBar({ label, value, current, previous, testId }: { label: string; value: string; current: number; previous: number; testId?: string }) {
  const max = Math.max(current, previous, 1);
  return (
    <div>
      <dt className="flex justify-between text-slate-500">
        <span>{label}</span>
        <span className="font-semibold text-slate-900" data-testid={testId}>
          {value}
        </span>
      </dt>
      <dd className="mt-2 space-y-1">
        <div className="h-1.5 rounded-full bg-slate-100">
          <div className="h-full rounded-full bg-brand-500" style={{ width: `${(current / max) * 100}%` }} />
        </div>
        <div className="h-1.5 rounded-full bg-slate-100">
          <div className="h-full rounded-full bg-brand-200" style={{ width: `${(previous / max) * 100}%` }} />
        </div>
      </dd>
    </div>
  );
}

// Each row starts with two text cells that together name it (model and provider, or provider key).
function Table({ head, rows, testId }: { head: string[]; rows: [string, string, ...ReactNode[]][]; testId?: string }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[32rem] text-left text-sm" data-testid={testId}>
        <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            {head.map((h) => (
              <th key={h} className="py-2 pr-4 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr key={`${r[0]}|${r[1]}`}>
              {r.map((c, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional columns of a fixed table.
                <td key={i} className={cx("py-2.5 pr-4", i === 0 ? "font-medium text-slate-900" : "text-slate-600")}>
                  {c}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const WINDOW_LABELS = { minute: "This minute", hour: "This hour", day: "Today", month: "This month" } as const;

/** A free account's use against the free tier's limits, as GET /api/v1/entitlements reports it. */
function FreeLimits({ entitlements }: { entitlements: Entitlements }) {
  const f = useFormat();
  return (
    <Card className="mt-4 p-6" data-testid="free-limits">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 className="text-base font-semibold text-slate-900">Free plan limits</h2>
          <p className="mt-1 text-sm text-slate-600">
            What the desktop app may still do on the free plan. Each limit starts again from zero when its window (UTC) ends. {PLAN.name} has no limits.
          </p>
        </div>
        <Link to="/dashboard/billing?plans=open" className={buttonClass("primary", "sm")}>
          Upgrade Plan
        </Link>
      </div>
      {entitlements.allowed ? null : (
        <Alert tone="info" className="mt-4">
          {`Limit reached: the desktop app can make its next model call at ${f.dateTime(Date.parse(entitlements.allowed_at!))}.`}
        </Alert>
      )}
      <dl className="mt-5 grid grid-cols-2 gap-5 @2xl:grid-cols-3 @4xl:grid-cols-5">
        {entitlements.windows.map((w) => {
          const percent = w.limit ? (w.used / w.limit) * 100 : 0;
          const label = w.unit === "tokens" ? "Tokens this month" : WINDOW_LABELS[w.window];
          // The instant stays data (epoch ms) until here, where it is written for a person.
          const resetsAt = Date.parse(w.resets_at);
          return (
            <div key={`${w.window}-${w.unit}`} data-testid={`limit-${w.window}-${w.unit}`}>
              <dt className="text-sm text-slate-500">{label}</dt>
              <dd className="mt-1 text-sm font-semibold text-slate-900">
                {`${f.integer(w.used)} of ${f.integer(w.limit!)} ${w.unit}`}
                <ProgressBar percent={percent} tone={budgetBand(percent)} label={`${label}: ${w.unit} used`} />
              </dd>
              <dd className="mt-1.5 text-xs text-slate-500" data-testid="limit-resets" data-resets-at={resetsAt}>
                {`Resets ${f.dateTime(resetsAt)}`}
              </dd>
            </div>
          );
        })}
      </dl>
    </Card>
  );
}
