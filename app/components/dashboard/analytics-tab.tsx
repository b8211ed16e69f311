import type { ReactNode } from "react";
import { Money } from "~/components/money";
import { useLocation, Link } from "react-router";
import { RedeemKeyHint } from "../early-access/redeem-form";
import type { RangeLimits, ShownView } from "~/lib/usage/usage-range";
import type { GroupRow, Sums } from "~/lib/usage/groups.server";
import { CATEGORIES, SORTS, type CategoryFilter, type ModelCategory, type ModelFigures, type Recommendation, type SortKey } from "~/lib/usage/models";
import { withParams } from "../modal";
import { buttonClass, Card, cx, LinkButton } from "../ui";
import { EmptyState, StatCard } from "./stat";
import { GroupsCard } from "./usage-groups";
import { RangeBar, rangeLabel, UsageViewRefused } from "./usage-range-form";
import { useFormat } from "~/components/format";

const CATEGORY_BADGE: Record<ModelCategory, string> = {
  text: "bg-sky-50 text-sky-700",
  image: "bg-fuchsia-50 text-fuchsia-700",
  code: "bg-emerald-50 text-emerald-700",
  analysis: "bg-amber-50 text-amber-800",
};

const PRIORITY: Record<Recommendation["priority"], string> = {
  high: "bg-red-50 text-red-700",
  medium: "bg-amber-50 text-amber-800",
  low: "bg-slate-100 text-slate-700",
};

export function PremiumFeature() {
  return (
    <Card className="mx-auto mt-8 max-w-xl p-8 text-center">
      <h1 className="text-xl font-semibold text-slate-900">Premium Feature</h1>
      <p className="mt-2 text-sm text-slate-600">
        Model Analytics compares every model you use by speed, reliability and cost, and suggests where to save. It comes with the Pro plan.
      </p>
      <LinkButton to="/pricing" className="mt-6">
        Subscribe to Access
      </LinkButton>
      <RedeemKeyHint />
    </Card>
  );
}

export function AnalyticsTab({
  models,
  shown,
  recommendations,
  category,
  sort,
  groups,
  totals,
  limits,
  view,
  timeZone,
}: {
  models: ModelFigures[];
  shown: ModelFigures[];
  recommendations: Recommendation[];
  category: CategoryFilter;
  sort: SortKey;
  groups: GroupRow[];
  totals: Sums;
  limits: RangeLimits;
  view: ShownView;
  timeZone: string;
}) {
  const f = useFormat();
  const label = rangeLabel({ view, timeZone }, f);
  return (
    <>
      <AnalyticsHeader rangeLabel={label} />
      <div className="mt-6">
        <RangeBar view={view} limits={limits} />
      </div>
      <AnalyticsTotals models={models} totals={totals} />
      <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
        <CategoryNav category={category} />
        <SortForm category={category} sort={sort} />
      </div>
      {shown.length === 0 ? (
        <div className="mt-6">
          <EmptyState title={models.length ? "No models in this category" : "No model usage yet"}>
            {models.length ? null : "Use a model in the desktop app and it appears here."}
          </EmptyState>
        </div>
      ) : (
        <ul className="mt-6 grid gap-4 md:grid-cols-2 xl:grid-cols-3" data-testid="model-cards">
          {shown.map((m) => (
            <li key={`${m.modelProvider}/${m.modelName}`}>
              <ModelCard model={m} />
            </li>
          ))}
        </ul>
      )}
      <GroupsCard groups={groups} groupBy={view.groupBy} range={view} rangeLabel={label} />
      <Recommendations recommendations={recommendations} />
    </>
  );
}

export function AnalyticsRefused({ message, limits }: { message: string; limits: RangeLimits }) {
  return <UsageViewRefused title="Model Analytics" message={message} limits={limits} />;
}

function AnalyticsHeader({ rangeLabel }: { rangeLabel: string }) {
  const { pathname, search } = useLocation();
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Model Analytics</h1>
        <p className="mt-1 text-sm text-slate-600">Your models: {rangeLabel}.</p>
      </div>
      <Link to={`${pathname}${search}`} reloadDocument className={buttonClass("secondary")}>
        Refresh
      </Link>
    </div>
  );
}

/** Totals over every model, whatever the category filter shows: the groups' sum. */
function AnalyticsTotals({ models, totals }: { models: ModelFigures[]; totals: Sums }) {
  const f = useFormat();
  const { requests } = totals;
  const successes = totals.requests - totals.errors;
  const cost = totals.costMicros / 1e6;
  return (
    <div className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <StatCard title="Models used" value={String(models.length)} />
      <StatCard title="Requests" value={f.count(requests)} />
      <StatCard title="Success rate" value={requests ? f.percent((successes / requests) * 100, 1) : "—"} />
      <StatCard title="Total cost" value={<Money value={cost} />} />
    </div>
  );
}

function CategoryNav({ category }: { category: CategoryFilter }) {
  const { pathname, search } = useLocation();
  return (
    <nav aria-label="Category" className="flex flex-wrap gap-1">
      {(Object.keys(CATEGORIES) as CategoryFilter[]).map((c) => (
        <Link
          key={c}
          to={withParams(pathname, search, { category: c })}
          preventScrollReset
          aria-current={c === category ? "true" : undefined}
          className={cx(
            "rounded-full px-3 py-1.5 text-sm font-medium",
            c === category ? "bg-brand-600 text-white" : "bg-white text-slate-700 ring-1 ring-slate-200 hover:bg-slate-50",
          )}
        >
          {CATEGORIES[c]}
        </Link>
      ))}
    </nav>
  );
}

/** A GET form, so sorting works without JavaScript (the Apply button); with it, choosing submits. */
function SortForm({ category, sort }: { category: CategoryFilter; sort: SortKey }) {
  // The range and grouping stay as they are.
  const kept = [...new URLSearchParams(useLocation().search)].filter(([k]) => k !== "sort" && k !== "category" && k !== "tab");
  return (
    <form method="get" className="flex items-center gap-2">
      <input type="hidden" name="tab" value="analytics" />
      <input type="hidden" name="category" value={category} />
      {kept.map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <label htmlFor="sort" className="text-sm text-slate-600">
        Sort by
      </label>
      <select
        id="sort"
        name="sort"
        defaultValue={sort}
        className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm"
        onChange={(e) => e.currentTarget.form?.requestSubmit()}
      >
        {(Object.keys(SORTS) as SortKey[]).map((s) => (
          <option key={s} value={s}>
            {SORTS[s]}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit" className={buttonClass("secondary", "sm")}>
          Apply
        </button>
      </noscript>
    </form>
  );
}

function ModelCard({ model: m }: { model: ModelFigures }) {
  const f = useFormat();
  return (
    <Card className="h-full p-5">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="truncate font-semibold text-slate-900">{m.modelName}</h2>
          <p className="text-xs text-slate-500">{m.modelProvider}</p>
        </div>
        <span className={cx("rounded-full px-2.5 py-0.5 text-xs font-semibold", CATEGORY_BADGE[m.category])}>{CATEGORIES[m.category]}</span>
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
        <Fact label="Requests" value={f.count(m.requests)} />
        <Fact label="Success rate" value={f.percent(m.successRate, 1)} />
        <Fact label="Avg response" value={f.ms(m.avgResponseMs)} />
        <Fact label="Avg cost" value={<Money value={m.avgCostUsd} />} />
        <Fact label="Per 1K tokens" value={m.costPer1kTokensUsd === null ? "—" : <Money value={m.costPer1kTokensUsd} />} />
        <Fact label="Last used" value={m.lastUsedAt ? f.dateTime(m.lastUsedAt) : "—"} />
      </dl>
    </Card>
  );
}

function Recommendations({ recommendations }: { recommendations: Recommendation[] }) {
  return (
    <Card className="mt-6 p-6">
      <h2 className="text-base font-semibold text-slate-900">Smart Recommendations</h2>
      {recommendations.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">Nothing to suggest yet: recommendations appear once you have used a few models.</p>
      ) : (
        <ul className="mt-4 space-y-3" data-testid="recommendations">
          {recommendations.map((r) => (
            <li key={r.id} className="rounded-xl border border-slate-200 p-4">
              <div className="flex flex-wrap items-center gap-2">
                <span className={cx("rounded-full px-2 py-0.5 text-xs font-semibold capitalize", PRIORITY[r.priority])}>{r.priority}</span>
                <span className="text-xs font-medium uppercase tracking-wide text-slate-500">{r.type.replace("-", " ")}</span>
              </div>
              <p className="mt-2 font-semibold text-slate-900">{r.title}</p>
              <p className="mt-1 text-sm text-slate-600">{r.description}</p>
              {r.estimatedSavings ? (
                <p className="mt-1 text-sm font-medium text-emerald-700">
                  Could save about <Money value={r.estimatedSavings} /> a month
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function Fact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="font-semibold text-slate-900">{value}</dd>
    </div>
  );
}
