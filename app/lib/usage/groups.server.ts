// A range's figures grouped by model, provider, device or request type (issue 49), as the usage and
// analytics tabs show them: sums of the ledger's slice rows, so the groups add up to the totals,
// each row with the request log's query for it.
import type { Db } from "../db.server";
import { deviceName, deviceNames } from "./device-names.server";
import type { SliceRow } from "./ledger/types";
import { groupFilter, type UsageGroup, type UsageView, viewParams } from "./usage-range";

export type Sums = { requests: number; errors: number; tokens: number; tokensInput: number; tokensOutput: number; costMicros: number };

export function sums(rows: SliceRow[]): Sums {
  const t: Sums = { requests: 0, errors: 0, tokens: 0, tokensInput: 0, tokensOutput: 0, costMicros: 0 };
  for (const r of rows) {
    t.requests += r.totalRequests;
    t.errors += r.totalRequests - r.successCount;
    t.tokens += r.totalTokens;
    t.tokensInput += r.tokensInput;
    t.tokensOutput += r.tokensOutput;
    t.costMicros += r.totalCostMicros;
  }
  return t;
}

export type GroupRow = Sums & {
  key: string;
  provider?: string;
  /** What the row is called on the page (a device by its name). */
  label: string;
  /** The request log narrowed to this group and these days ('from=…&to=…&model=…'). */
  search: string;
};

/** A grouping's slice rows as the page's rows, devices named as the profile's sessions card names them. */
export async function groupRows(db: Db, userId: string, view: Pick<UsageView, "from" | "to">, groupBy: UsageGroup, rows: SliceRow[]) {
  const names =
    groupBy === "device"
      ? await deviceNames(
          db,
          userId,
          rows.map((r) => r.key),
        )
      : null;
  return rows.map((r): GroupRow => {
    const row: GroupRow = {
      key: r.key,
      label: names ? deviceName(names, r.key) : r.key === "" ? "(none)" : r.key,
      search: viewParams(view, groupFilter(groupBy, r)).toString(),
      ...sums([r]),
    };
    if (r.provider !== undefined) row.provider = r.provider;
    return row;
  });
}
