// A usage view's groups (issue 49): the range's figures by model, provider, device or request type,
// each row a link to the request log narrowed to it, and a total row that is their sum (the same
// figures the page's totals show). Below, the range's tidy CSV exports.
import { Link, useLocation } from "react-router";
import { Money } from "~/components/money";
import { useFormat } from "~/components/format";
import { USAGE } from "~/lib/constants";
import { GROUPS, type UsageGroup, viewParams } from "~/lib/usage/usage-range";
import type { GroupRow } from "~/lib/usage/groups.server";
import { withParams } from "../modal";
import { Card, cx, segmentClass } from "../ui";
import { EmptyState } from "./stat";

type Sums = Pick<GroupRow, "requests" | "errors" | "tokens" | "costMicros">;

export function GroupsCard({
  groups,
  groupBy,
  range,
  rangeLabel,
}: {
  groups: GroupRow[];
  groupBy: UsageGroup;
  range: { from: string; to: string };
  rangeLabel: string;
}) {
  const total = sumOf(groups);
  const share = (g: Sums) => (total.costMicros ? (g.costMicros / total.costMicros) * 100 : total.requests ? (g.requests / total.requests) * 100 : 0);
  const head = [GROUPS[groupBy], "Requests", "Errors", "Tokens", "Cost", "Share of cost", ""];
  return (
    <Card className="mt-6 p-6" data-testid="usage-groups">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="text-base font-semibold text-slate-900">By {GROUPS[groupBy].toLowerCase()}</h2>
          <p className="text-sm text-slate-500">{rangeLabel}</p>
        </div>
        <GroupToggle groupBy={groupBy} />
      </div>
      {groups.length === 0 ? (
        <div className="mt-4">
          <EmptyState title="No usage in this range" />
        </div>
      ) : (
        <div className="relative mt-4 overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="groups-table">
            <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
              <tr>
                {head.map((h, i) => (
                  <th key={h || i} scope="col" className={cx("py-2 pr-4 font-medium", i > 0 && i < 6 && "text-right", PHONE_HIDDEN.has(i) && WIDE_ONLY)}>
                    {h === "" ? <span className="sr-only">Request log</span> : h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {groups.map((g) => (
                <tr key={`${g.key}\u0000${g.provider ?? ""}`} data-testid="group-row">
                  <th scope="row" className="py-2.5 pr-4 font-medium text-slate-900">
                    <span className="[overflow-wrap:anywhere]">{g.label}</span>
                    {g.provider !== undefined ? <span className="block text-xs font-normal text-slate-500">{g.provider}</span> : null}
                  </th>
                  <Figures sums={g} share={share(g)} />
                  <td className="py-2.5 text-right">
                    <Link to={`/dashboard/usage/requests?${g.search}`} className="whitespace-nowrap font-medium text-brand-700 hover:underline">
                      Requests<span className="sr-only">{` of ${g.label}`}</span> →
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot className="border-t border-slate-200 font-semibold text-slate-900">
              <tr data-testid="groups-total">
                <th scope="row" className="py-2.5 pr-4">
                  Total
                </th>
                <Figures sums={total} share={total.requests ? 100 : 0} />
                <td className="py-2.5 text-right">
                  <Link to={`/dashboard/usage/requests?${viewParams(range)}`} className="whitespace-nowrap font-medium text-brand-700 hover:underline">
                    All requests →
                  </Link>
                </td>
              </tr>
            </tfoot>
          </table>
        </div>
      )}
      <TidyExports range={range} />
    </Card>
  );
}

// A phone shows each group's requests, cost and link; errors, tokens and share of cost come from
// the small breakpoint up (the request log and the CSVs have them all).
const WIDE_ONLY = "hidden sm:table-cell";
const PHONE_HIDDEN = new Set([2, 3, 5]);

function sumOf(groups: Sums[]): Sums {
  const total: Sums = { requests: 0, errors: 0, tokens: 0, costMicros: 0 };
  for (const g of groups) {
    total.requests += g.requests;
    total.errors += g.errors;
    total.tokens += g.tokens;
    total.costMicros += g.costMicros;
  }
  return total;
}

function Figures({ sums, share }: { sums: Sums; share: number }) {
  const f = useFormat();
  return (
    <>
      <td className="py-2.5 pr-4 text-right tabular-nums">{f.integer(sums.requests)}</td>
      <td className={cx("py-2.5 pr-4 text-right tabular-nums", WIDE_ONLY)}>{f.integer(sums.errors)}</td>
      <td className={cx("py-2.5 pr-4 text-right tabular-nums", WIDE_ONLY)}>{f.integer(sums.tokens)}</td>
      <td className="py-2.5 pr-4 text-right tabular-nums">
        <Money value={sums.costMicros / 1e6} />
      </td>
      <td className={cx("py-2.5 pr-4 text-right tabular-nums", WIDE_ONLY)}>{f.percent(share, 1)}</td>
    </>
  );
}

/** The grouping as links: each keeps the range and the rest of the page's choices. */
function GroupToggle({ groupBy }: { groupBy: UsageGroup }) {
  const { pathname, search } = useLocation();
  return (
    <nav aria-label="Group by" className="inline-flex max-w-full overflow-x-auto rounded-lg bg-slate-100 p-1">
      {(Object.keys(GROUPS) as UsageGroup[]).map((g) => (
        <Link
          key={g}
          to={withParams(pathname, search, { group_by: g })}
          preventScrollReset
          aria-current={g === groupBy ? "true" : undefined}
          className={segmentClass(g === groupBy, "shrink-0 whitespace-nowrap")}
        >
          {GROUPS[g]}
        </Link>
      ))}
    </nav>
  );
}

/** The range as tidy CSV files: one table each, a header row first (routes/dashboard/usage/*.csv.ts). */
function TidyExports({ range }: { range: { from: string; to: string } }) {
  const f = useFormat();
  const query = viewParams(range).toString();
  const files = [
    ["requests", "Each request"],
    ["days", "Each day and model"],
    ["models", "Each model"],
  ] as const;
  return (
    <p className="mt-5 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-slate-600" data-testid="tidy-exports">
      <span>Download this range as CSV:</span>
      {files.map(([file, label]) => (
        <a key={file} href={`/dashboard/usage/${file}.csv?${query}`} download className="font-medium text-brand-700 hover:underline">
          {label}
        </a>
      ))}
      <span className="text-xs text-slate-500">{`Up to ${f.integer(USAGE.requestsCsvMaxRows)} requests a file: a longer range is exported in parts.`}</span>
    </p>
  );
}
