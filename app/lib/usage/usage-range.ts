// Which days and which slice a usage view shows (issue 49), read from its URL so every view is a
// link and works without JavaScript: a preset (?range=1d|7d|30d) or a custom range of the
// account zone's days (?from=YYYY-MM-DD&to=YYYY-MM-DD, both inclusive), a grouping (?group_by=)
// and, for the exports and the request log, a filter (?model=&provider=&device=&type=&status=;
// `request_type=` as the read API spells it is taken too).
// The usage tab, the analytics tab and the tidy CSV exports share these rules.
import { MS, USAGE, USAGE_API } from "../constants";
import { addDays, dayKey, dayStart, lastDays } from "./dates";
import type { UsageFilter } from "./ledger/types";

export type UsagePreset = keyof typeof USAGE.ranges;
export const PRESETS = Object.keys(USAGE.ranges) as UsagePreset[];

/** The groupings a person can choose (the ledger's other dimensions are for filters). */
export const GROUPS = { model: "Model", provider: "Provider", device: "Device", request_type: "Request type" } as const;
export type UsageGroup = keyof typeof GROUPS;

/** The `device` value that stands for "no device" (fallback reports): an empty value is "any". */
export const NO_DEVICE = "none";

export type UsageView = {
  /** The preset chosen, or null for a custom range. */
  preset: UsagePreset | null;
  from: string;
  to: string;
  /** Days in the range (from and to included). */
  days: number;
  groupBy: UsageGroup;
  filter: UsageFilter;
};

export type ViewResult = { ok: true; view: UsageView } | { ok: false; message: string };

/**
 * The first day a view may start on: nothing older can exist, since the API takes reports at most
 * USAGE_API.maxAgeDays old and the account did not exist before it was created. From there to
 * today the ledger keeps every day's figures for good (ADR 0020).
 */
export function firstKeptDay(createdAt: number, zone: string): string {
  return dayKey(createdAt - USAGE_API.maxAgeDays * MS.DAY, zone);
}

/** The first and last day a range may cover: the range form's bounds. */
export function rangeLimits(createdAt: number, now: number, zone: string): RangeLimits {
  return { first: firstKeptDay(createdAt, zone), today: dayKey(now, zone) };
}
export type RangeLimits = { first: string; today: string };

/** A preset's days, ending today in the account's zone. */
export function presetView(preset: UsagePreset, now: number, zone: string, groupBy: UsageGroup = "model", filter: UsageFilter = {}): UsageView {
  const days = lastDays(USAGE.ranges[preset], now, zone);
  return { preset, from: days[0]!, to: days.at(-1)!, days: days.length, groupBy, filter };
}

/** What a page shows of its view: the days also as their first instants, for its locale to write. */
export function shownView(view: UsageView, zone: string) {
  return {
    preset: view.preset,
    from: view.from,
    to: view.to,
    days: view.days,
    groupBy: view.groupBy,
    fromStart: dayStart(view.from, zone),
    toStart: dayStart(view.to, zone),
  };
}
export type ShownView = ReturnType<typeof shownView>;

/** The days before a range, as many as it has (the summary's comparison bars). */
export function previousRange(view: Pick<UsageView, "from" | "days">): { from: string; to: string } {
  return { from: addDays(view.from, -view.days), to: addDays(view.from, -1) };
}

/** A view's days and filter as URL parameters (the request log's and the exports' links). */
export function viewParams(view: Pick<UsageView, "from" | "to">, filter: UsageFilter = {}): URLSearchParams {
  const params = new URLSearchParams({ from: view.from, to: view.to });
  if (filter.model !== undefined) params.set("model", filter.model);
  if (filter.provider !== undefined) params.set("provider", filter.provider);
  if (filter.device !== undefined) params.set("device", filter.device === "" ? NO_DEVICE : filter.device);
  if (filter.requestType !== undefined) params.set("type", filter.requestType);
  if (filter.status !== undefined) params.set("status", filter.status);
  return params;
}

/** The filter that narrows a view to one group's row. */
export function groupFilter(groupBy: UsageGroup, row: { key: string; provider?: string }): UsageFilter {
  if (groupBy === "model") return row.provider === undefined ? { model: row.key } : { model: row.key, provider: row.provider };
  if (groupBy === "provider") return { provider: row.key };
  if (groupBy === "device") return { device: row.key };
  return { requestType: row.key };
}
