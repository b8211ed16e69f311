// The usage tab's figures for any range of the account zone's days and any grouping (issue 49),
// from the ledger's slices in one call: the chart's days (or a single day's hours), the models, the
// days before for comparison and the chosen grouping are each a sum of slice rows, so the totals
// shown are the sum of the groups shown by construction, and equal the request log's rows for the
// same days (the log and the slices count the same reports).
import type { ZonedAccount } from "../auth/session.server";
import { budgetOf } from "./budget.server";
import { addDays, dayStart, hoursOf } from "./dates";
import { ledgerFor } from "./ledger/api";
import type { SliceGroup, SliceQuery, SliceRow } from "./ledger/types";
import { figures } from "./models";
import { groupRows, sums } from "./groups.server";
import { previousRange, shownView, type UsageView } from "./usage-range";
import type { UsageSource } from "./analytics.server";

/** Every day from `from` to `to`, both included. */
function eachDay(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) days.push(d);
  return days;
}

/** The usage tab's figures, and the account's counts in the free tier's windows (same ledger call). */
export async function usageTab({ db, ledgers }: UsageSource, account: ZonedAccount, view: UsageView, now = Date.now()) {
  const zone = account.profile.timeZone;
  const { from, to } = view;
  // A single day is drawn hour by hour (23 or 25 of them on a daylight-saving change), longer ranges day by day.
  const oneDay = from === to;
  const before = previousRange(view);
  const slice = (groupBy: SliceGroup, range = { from, to }): SliceQuery => ({ ...range, groupBy });
  // The previous period's totals only: grouped by model they come from the daily rows.
  const queries = [slice(oneDay ? "hour" : "date"), slice("model"), slice("model", before)];
  if (view.groupBy !== "model") queries.push(slice(view.groupBy));
  const [read, budget] = await Promise.all([
    ledgerFor(ledgers, account.id).read({ now, zone, slices: queries, peakHours: { from, to }, counts: true, spend: true }),
    budgetOf(db, account),
  ]);
  const [timeRows = [], modelRows = [], previousRows = [], chosen = modelRows] = read.slices ?? [];
  const totals = sums(modelRows);
  const previous = sums(previousRows);
  // Each point is its hour's or day's first instant, which the page writes in its locale and zone
  // (the two 01:00 hours of the day the clocks go back start an hour apart).
  const byKey = new Map(timeRows.map((r) => [r.key, sums([r])]));
  const point = (start: number, key: string) => {
    const t = byKey.get(key);
    return { start, spend: (t?.costMicros ?? 0) / 1e6, tokens: t?.tokens ?? 0, requests: t?.requests ?? 0 };
  };
  const days = eachDay(from, to);
  const series = oneDay ? hoursOf(from, zone).map(({ start }) => point(start, String(start))) : days.map((d) => point(dayStart(d, zone), d));
  // Summed by the ledger: 24 rows, where a 90-day range carried 2,160 hourly rows to be summed here.
  const byHour = new Map((read.peakHours ?? []).map((h) => [h.hour, h.requests]));
  const peakHours = Array.from({ length: 24 }, (_, h) => ({ hour: h, requests: byHour.get(h) ?? 0 }));
  const models = modelFigures(modelRows);
  return {
    range: view.preset,
    view: shownView(view, zone),
    /** The zone the days and hours are counted in. */
    timeZone: zone,
    daysWithData: oneDay ? (totals.requests > 0 ? 1 : 0) : [...byKey.values()].filter((t) => t.requests > 0).length,
    totals: { spend: totals.costMicros / 1e6, tokens: totals.tokens, requests: totals.requests },
    previous: { spend: previous.costMicros / 1e6, tokens: previous.tokens, requests: previous.requests },
    series,
    activityByDay: days.map((d) => ({ start: dayStart(d, zone), requests: oneDay ? totals.requests : (byKey.get(d)?.requests ?? 0) })),
    peakHours,
    models: models.map((m) => ({
      name: m.modelName,
      provider: m.modelProvider,
      successRate: m.successRate,
      avgResponseMs: m.avgResponseMs,
      requests: m.requests,
      cost: m.costMicros / 1e6,
      tokens: m.tokens,
    })),
    providers: providersOf(models),
    groups: await groupRows(db, account.id, view, view.groupBy, chosen),
    budget: { monthly: budget.monthlyBudget, monthSpend: (read.spend?.monthMicros ?? 0) / 1e6, isDefault: budget.isDefault },
    counts: read.counts!,
  };
}

export type UsageTabData = Omit<Awaited<ReturnType<typeof usageTab>>, "counts">;

/** The model slices as the Services view's figures, most used first. */
function modelFigures(rows: SliceRow[]) {
  return rows
    .map((r) =>
      figures({
        modelName: r.key,
        modelProvider: r.provider ?? "",
        requests: r.totalRequests,
        successCount: r.successCount,
        tokens: r.totalTokens,
        costMicros: r.totalCostMicros,
        durationMs: r.totalDurationMs,
        timedRequests: r.timedRequests,
        lastUsedAt: 0,
      }),
    )
    .sort((a, b) => b.requests - a.requests || byText(a.modelName, b.modelName) || byText(a.modelProvider, b.modelProvider));
}

// Ties in order of name, as SQLite's binary collation orders them (the pages' order before issue 49).
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function providersOf(models: ReturnType<typeof modelFigures>) {
  const providers = new Map<string, { provider: string; requests: number; cost: number; tokens: number; models: Set<string> }>();
  for (const m of models) {
    const p = providers.get(m.modelProvider) ?? { provider: m.modelProvider, requests: 0, cost: 0, tokens: 0, models: new Set<string>() };
    p.requests += m.requests;
    p.cost += m.costMicros / 1e6;
    p.tokens += m.tokens;
    p.models.add(m.modelName);
    providers.set(m.modelProvider, p);
  }
  return [...providers.values()].map((p) => ({ ...p, models: [...p.models] })).sort((a, b) => b.requests - a.requests);
}
