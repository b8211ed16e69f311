// The request log's rows: one model call each (a fallback report: the calls it sums up), its time
// a link to its details (?report=, the filters and page kept, so closing comes back to this page).
import { Link } from "react-router";
import type { LogTableRow } from "~/lib/usage/request-log.server";
import { type LogView, viewSearch } from "~/lib/usage/request-log";
import { Money } from "../../money";
import { useFormat } from "../../format";
import { cx } from "../../ui";
import { EmptyState } from "../stat";

const PATH = "/dashboard/usage/requests";
const HEAD = ["Time", "Model", "Device", "Type", "Tokens in / out", "Cost", "Duration", "Status"];
// The figures' columns, right-aligned so their digits line up.
const FIGURES = new Set(["Tokens in / out", "Cost", "Duration"]);

export function StatusBadge({ success }: { success: boolean }) {
  return (
    <span className={cx("rounded-full px-2 py-0.5 text-xs font-semibold", success ? "bg-emerald-50 text-emerald-700" : "bg-red-50 text-red-700")}>
      {success ? "Success" : "Error"}
    </span>
  );
}

export function LogTable({ rows, view }: { rows: LogTableRow[]; view: LogView }) {
  const f = useFormat();
  if (rows.length === 0) {
    return (
      <EmptyState title="No reports match these filters">
        {view.cursor === null ? "Try a longer range, or clear a filter." : "There are no older reports."}
      </EmptyState>
    );
  }
  return (
    // relative: the screen-reader-only words (a sub-cent amount's, the caption) are positioned, and
    // must be clipped with the table, not widen the page.
    <div className="relative -mx-4 overflow-x-auto px-4 sm:-mx-6 sm:px-6">
      <table className="w-full min-w-[50rem] text-left text-sm" data-testid="request-log">
        <caption className="sr-only">Reports, newest first</caption>
        <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            {HEAD.map((h) => (
              <th key={h} scope="col" className={cx("py-2 pr-4 font-medium", FIGURES.has(h) && "text-right")}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr key={r.id} data-report={r.id}>
              <td className="whitespace-nowrap py-2.5 pr-4">
                <Link
                  to={`${PATH}${viewSearch(view, { report: r.id })}`}
                  preventScrollReset
                  className="inline-block font-medium text-brand-700 hover:underline"
                >
                  <span className="sr-only">Details of the call at </span>
                  <time dateTime={new Date(r.occurredAt).toISOString()}>{`${f.monthDay(r.occurredAt)}, ${f.time(r.occurredAt)}`}</time>
                </Link>
              </td>
              <td className="max-w-56 py-2.5 pr-4">
                <span className="block truncate font-medium text-slate-900" title={r.modelName}>
                  {r.modelName}
                </span>
                <span className="block truncate text-xs text-slate-500">{r.modelProvider}</span>
              </td>
              <td className="max-w-40 truncate py-2.5 pr-4 text-slate-600" title={r.device ?? undefined}>
                {r.device ?? "—"}
              </td>
              <td className="py-2.5 pr-4 text-slate-600">{r.requests > 1 ? `${r.requestType} (${f.integer(r.requests)})` : r.requestType}</td>
              <td className="whitespace-nowrap py-2.5 pr-4 text-right tabular-nums text-slate-600">
                {r.kind === "fallback" ? `${f.integer(r.tokens)} total` : `${f.integer(r.tokensInput)} / ${f.integer(r.tokensOutput)}`}
              </td>
              <td className="whitespace-nowrap py-2.5 pr-4 text-right tabular-nums text-slate-900">
                <Money value={r.costMicros / 1e6} />
              </td>
              <td className="whitespace-nowrap py-2.5 pr-4 text-right tabular-nums text-slate-600">{f.ms(r.durationMs)}</td>
              <td className="py-2.5 pr-4">
                <StatusBadge success={r.success} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
