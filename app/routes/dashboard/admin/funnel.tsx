// The conversion funnel for admins: visits → sign-ups → confirmed → trials → paid, per week, from
// the first-party marketing events (ADR 0013). Anyone else gets the 404 of a page that does not exist.
import type { Route } from "./+types/funnel";
import { FigureList } from "~/components/dashboard/figure-list";
import { Card, cx } from "~/components/ui";
import { MARKETING } from "~/lib/constants";
import { conversion, FUNNEL_STAGES, type FunnelWeek } from "~/lib/marketing/events";
import { loadFunnel } from "~/lib/marketing/events.server";
import { usageTotalsThisMonth } from "~/lib/usage/rollup.server";
import { requireAdmin } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { pageMeta } from "~/lib/site/meta";
import { useFormat } from "~/components/format";

export const meta = () => pageMeta("Funnel | Modelify");

export async function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  const { db } = app(context);
  const [weeks, usage] = await Promise.all([loadFunnel(db), usageTotalsThisMonth(db)]);
  return { weeks, usage };
}

const percent = (value: number | null) => (value === null ? "–" : `${value}%`);

export default function AdminFunnel({ loaderData }: Route.ComponentProps) {
  const f = useFormat();
  const weeks = loaderData.weeks;
  const totals = FUNNEL_STAGES.map((stage) => ({ ...stage, count: weeks.reduce((sum, w) => sum + w[stage.key], 0) }));
  const widest = Math.max(1, ...totals.map((t) => t.count));
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Conversion funnel</h1>
      <p className="mt-1 text-sm text-slate-600">
        The last {MARKETING.funnelWeeks} weeks (Monday to Sunday, UTC), from first-party events: landing page visits, accounts created, e-mail addresses
        confirmed, first usage reported by the desktop app, trials started and first paid periods. Each account counts once per step.
      </p>

      <Card className="mt-6 p-5">
        <h2 className="font-semibold text-slate-900">Usage of all accounts this month</h2>
        <p className="mt-1 text-sm text-slate-600">
          Since {f.utc().date(Date.parse(loaderData.usage.since))}, UTC, as the accounts' usage ledgers last reported it.
        </p>
        <FigureList
          testId="usage-totals"
          figures={[
            ["Accounts", f.count(loaderData.usage.accounts)],
            ["Requests", f.count(loaderData.usage.requests)],
            ["Tokens", f.count(loaderData.usage.tokens)],
            ["Cost", f.usd(loaderData.usage.cost)],
          ]}
        />
      </Card>

      <Card className="mt-6 p-5">
        <h2 className="font-semibold text-slate-900">All {MARKETING.funnelWeeks} weeks</h2>
        <ol className="mt-4 space-y-3" data-testid="funnel-totals">
          {totals.map((stage, i) => (
            <li key={stage.key} className="grid grid-cols-[6.5rem_1fr_auto] items-center gap-3 text-sm">
              <span className="font-medium text-slate-700">{stage.label}</span>
              <span className="h-3 rounded-full bg-slate-100" aria-hidden="true">
                <span className="block h-3 rounded-full bg-brand-600" style={{ width: `${(stage.count / widest) * 100}%` }} />
              </span>
              <span className="w-28 text-right tabular-nums text-slate-900" data-stage={stage.key}>
                {f.count(stage.count)}
                {i > 0 ? <span className="ml-1 text-slate-500">({percent(conversion(totals[i - 1]!.count, stage.count))})</span> : null}
              </span>
            </li>
          ))}
        </ol>
      </Card>

      {/* A scrollable region takes focus so a keyboard can scroll it (axe scrollable-region-focusable). */}
      <Card className="mt-6 overflow-x-auto" role="region" aria-label="Funnel by week" tabIndex={0}>
        <table className="w-full min-w-[40rem] text-sm" data-testid="funnel-weeks">
          <caption className="sr-only">Funnel per week; percentages are each step's share of the step before it</caption>
          <thead>
            <tr className="border-b border-slate-200 text-left text-slate-600">
              <th scope="col" className="px-4 py-3 font-medium">
                Week of
              </th>
              {FUNNEL_STAGES.map((stage) => (
                <th key={stage.key} scope="col" className="px-4 py-3 text-right font-medium">
                  {stage.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {[...weeks].reverse().map((week) => (
              <WeekRow key={week.weekStart} week={week} current={week === weeks[weeks.length - 1]} />
            ))}
          </tbody>
        </table>
      </Card>
    </>
  );
}

function WeekRow({ week, current }: { week: FunnelWeek; current: boolean }) {
  const f = useFormat();
  return (
    <tr className="border-b border-slate-100 last:border-0" data-week={new Date(week.weekStart).toISOString().slice(0, 10)}>
      <th scope="row" className="whitespace-nowrap px-4 py-3 text-left font-medium text-slate-900">
        {f.utc().date(week.weekStart)}
        {current ? <span className="ml-2 rounded bg-brand-50 px-1.5 py-0.5 text-xs font-medium text-brand-700">This week</span> : null}
      </th>
      {FUNNEL_STAGES.map((stage, i) => {
        const previous = i > 0 ? week[FUNNEL_STAGES[i - 1]!.key] : null;
        return (
          <td
            key={stage.key}
            className={cx("px-4 py-3 text-right tabular-nums", week[stage.key] === 0 ? "text-slate-500" : "text-slate-900")}
            data-stage={stage.key}
          >
            {f.count(week[stage.key])}
            {previous !== null ? <span className="block text-xs text-slate-500">{percent(conversion(previous, week[stage.key]))}</span> : null}
          </td>
        );
      })}
    </tr>
  );
}
