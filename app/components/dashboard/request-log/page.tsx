// The request log's page (routes/dashboard/usage/requests.tsx): header, filters, the filtered
// range's totals and histogram, the table with its pages, the archived months and the open
// report's dialog. Everything it shows is the loader's; every control is a link or a GET form.
import { Link } from "react-router";
import { Money } from "~/components/money";
import { LEDGER, REQUEST_LOG } from "~/lib/constants";
import type { RequestLogData } from "~/lib/usage/request-log.server";
import { viewSearch } from "~/lib/usage/request-log";
import { BarChart } from "../../charts";
import { useFormat } from "../../format";
import { Alert, buttonClass, Card, cx, LinkButton } from "../../ui";
import { StatCard } from "../stat";
import { LogFilters } from "./filters";
import { ReportDialog } from "./report-dialog";
import { LogTable } from "./table";

const PATH = "/dashboard/usage/requests";

export function RequestLogPage({ log }: { log: RequestLogData }) {
  const { view } = log;
  return (
    <>
      <Header log={log} />
      {log.monthMissing ? (
        <Alert tone="error" className="mt-6">
          This account has no archived reports of that month.
        </Alert>
      ) : null}
      {log.report === null ? (
        <Alert tone="error" className="mt-6">
          That report was not found. It may belong to another account, or to an archived month (open the month first).
        </Alert>
      ) : null}
      <LogFilters log={log} />
      {log.totals && log.histogram ? <Overview totals={log.totals} histogram={log.histogram} /> : null}
      <Card className="mt-6 p-4 sm:p-6">
        <LogTable rows={log.rows} view={view} />
        <Pages log={log} />
      </Card>
      <ArchivedMonths months={log.archivedMonths} current={view.archive} />
      {log.report ? <ReportDialog report={log.report} closeTo={`${PATH}${viewSearch(view, { report: null })}`} /> : null}
    </>
  );
}

function Header({ log }: { log: RequestLogData }) {
  const f = useFormat();
  const archive = log.view.archive;
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Request Log</h1>
        <p className="mt-2 max-w-2xl text-sm text-slate-600">
          {archive === null
            ? `Every model call the desktop app reported, newest first. Times are in ${log.timeZone}.`
            : `Archived reports of ${f.utc().monthYear(Date.parse(`${archive}-01T00:00:00Z`))} (a UTC month), newest first. Times are in ${log.timeZone}.`}
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        {archive === null ? null : (
          <LinkButton to={PATH} variant="secondary" size="sm">
            Recent reports
          </LinkButton>
        )}
        <LinkButton to="/dashboard/usage" variant="secondary" size="sm">
          Usage Analytics
        </LinkButton>
      </div>
    </div>
  );
}

/** The filtered range's sums (the same as its rows', over every page) and its calls over time. */
function Overview({ totals, histogram }: { totals: NonNullable<RequestLogData["totals"]>; histogram: NonNullable<RequestLogData["histogram"]> }) {
  const f = useFormat();
  const label = histogram.hourly ? f.hour : f.monthDay;
  return (
    <>
      <div className="mt-6 grid grid-cols-2 gap-4 @3xl:grid-cols-4" data-testid="log-totals">
        <StatCard title="Requests" value={f.integer(totals.requests)} testId="log-requests" />
        <StatCard
          title="Errors"
          value={f.integer(totals.errors)}
          hint={totals.requests ? `${f.percent((totals.errors / totals.requests) * 100, 1)} of requests` : undefined}
          testId="log-errors"
        />
        <StatCard title="Tokens" value={f.integer(totals.tokens)} testId="log-tokens" />
        <StatCard title="Cost" value={<Money value={totals.cost} />} testId="log-cost" />
      </div>
      <Card className="mt-6 p-6">
        <h2 className="text-base font-semibold text-slate-900">{histogram.hourly ? "Requests per hour" : "Requests per day"}</h2>
        <p className="text-sm text-slate-500">The filtered calls over the range.</p>
        <BarChart
          height={160}
          title={histogram.hourly ? "Requests per hour" : "Requests per day"}
          data={histogram.points.map((p) => ({ key: String(p.start), label: label(p.start), value: p.requests }))}
          format={f.count}
          integer
        />
      </Card>
    </>
  );
}

function Pages({ log }: { log: RequestLogData }) {
  const { view, next } = log;
  if (view.cursor === null && next === null) return null;
  return (
    <nav aria-label="Pages of the request log" className="mt-4 flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 pt-4">
      <p className="text-sm text-slate-500">{view.cursor === null ? "Newest reports" : "Older reports"}</p>
      <div className="flex gap-2">
        {view.cursor === null ? null : (
          <Link to={`${PATH}${viewSearch(view, { cursor: null, report: null })}`} className={buttonClass("secondary", "sm")} data-testid="first-page">
            First page
          </Link>
        )}
        {next === null ? null : (
          <Link to={`${PATH}${viewSearch(view, { cursor: next, report: null })}`} className={buttonClass("primary", "sm")} data-testid="next-page">
            Next page
          </Link>
        )}
      </div>
    </nav>
  );
}

function ArchivedMonths({ months, current }: { months: RequestLogData["archivedMonths"]; current: string | null }) {
  const f = useFormat();
  if (months.length === 0) return null;
  return (
    <Card className="mt-6 p-6" data-testid="archived-months">
      <h2 className="text-base font-semibold text-slate-900">Archived months</h2>
      <p className="mt-1 text-sm text-slate-600">{`Reports older than ${LEDGER.rawRetentionDays} days move to an archive, a UTC month each. Their figures stay in Usage Analytics.`}</p>
      <ul className="mt-4 flex flex-wrap gap-2">
        {months.map((m) => (
          <li key={m.month}>
            <Link
              to={`${PATH}?archive=${m.month}`}
              aria-current={current === m.month ? "page" : undefined}
              className={cx(
                "inline-flex items-center gap-2 rounded-lg border px-3 py-2 text-sm font-medium",
                current === m.month ? "border-brand-600 bg-brand-50 text-brand-700" : "border-slate-200 text-slate-700 hover:bg-slate-50",
              )}
            >
              {f.utc().monthYear(Date.parse(`${m.month}-01T00:00:00Z`))}
              <span className="text-xs font-normal text-slate-500">{f.plural(m.rows, "report")}</span>
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** A URL the page cannot read (400): what is wrong, and the way back to the default view. */
export function RequestLogRefused({ message }: { message: string }) {
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Request Log</h1>
      <Alert tone="error" className="mt-6">
        <span data-testid="log-refused">{message}</span>
      </Alert>
      <LinkButton to={PATH} variant="secondary" size="md" className="mt-4">
        {`Show the last ${REQUEST_LOG.defaultDays} days`}
      </LinkButton>
    </>
  );
}
