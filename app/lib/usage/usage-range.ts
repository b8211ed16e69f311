// Which days and which slice a usage view shows (issue 49), read from its URL so every view is a
// link and works without JavaScript: a preset (?range=1d|7d|30d) or a custom range of the
// account zone's days (?from=YYYY-MM-DD&to=YYYY-MM-DD, both inclusive), a grouping (?group_by=)
// and, for the exports and the request log, a filter (?model=&provider=&device=&type=&status=;
// `request_type=` as the read API spells it is taken too).
// The usage tab, the analytics tab and the tidy CSV exports share these rules.
import { MS, USAGE, USAGE_API } from "../constants";
import { z } from "../zod";
import { addDays, dayKey, dayStart, lastDays } from "./dates";
import type { UsageFilter } from "./ledger/types";
import { MAX } from "./report";

export type UsagePreset = keyof typeof USAGE.ranges;
export const PRESETS = Object.keys(USAGE.ranges) as UsagePreset[];

/** The groupings a person can choose (the ledger's other dimensions are for filters). */
export const GROUPS = { model: "Model", provider: "Provider", device: "Device", request_type: "Request type" } as const;
export type UsageGroup = keyof typeof GROUPS;

/** The `device` value that stands for "no device" (fallback reports): an empty value is "any". */
const NO_DEVICE = "none";

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

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (value: string) => DAY.test(value) && addDays(value, 0) === value;
const day = (name: string) =>
  z
    .string()
    .trim()
    .refine(isDay, { message: `${name} must be a date written YYYY-MM-DD, such as 2025-03-31.` });
// As long as the API lets a report's field be (a device is a session id, far shorter).
const text = (name: string, max: number) =>
  z
    .string()
    .max(max, { message: `${name} is at most ${max} characters.` })
    .optional();

const schema = z.object({
  from: day("The start date").optional(),
  to: day("The end date").optional(),
  group_by: z.enum(Object.keys(GROUPS) as [UsageGroup, ...UsageGroup[]], { message: "Group by must be model, provider, device or request_type." }).optional(),
  model: text("The model", MAX.modelName),
  provider: text("The provider", MAX.provider),
  device: text("The device", MAX.appInstanceId),
  request_type: text("The request type", MAX.requestType),
  status: z.enum(["success", "error"], { message: "Status must be success or error." }).optional(),
});

/**
 * The first day a view may start on: nothing older can exist, since the API takes reports at most
 * USAGE_API.maxAgeDays old and the account did not exist before it was created. From there to
 * today the ledger keeps every day's figures for good (ADR 0020).
 */
function firstKeptDay(createdAt: number, zone: string): string {
  return dayKey(createdAt - USAGE_API.maxAgeDays * MS.DAY, zone);
}

/** The first and last day a range may cover: the range form's bounds. */
export function rangeLimits(createdAt: number, now: number, zone: string): RangeLimits {
  return { first: firstKeptDay(createdAt, zone), today: dayKey(now, zone) };
}
export type RangeLimits = { first: string; today: string };

/** Days from `from` to `to`, both included. */
function spanDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / MS.DAY) + 1;
}

/**
 * The view a URL asks for. An unknown preset falls back to `fallback` (spec: unknown toggle values
 * fall back); a custom range or grouping that is malformed, backwards or outside the kept days is
 * refused with a message saying what to change.
 */
export function parseUsageView(
  params: URLSearchParams,
  { now, zone, createdAt, fallback }: { now: number; zone: string; createdAt: number; fallback: UsagePreset },
): ViewResult {
  const raw = Object.fromEntries(
    ["from", "to", "group_by", "model", "provider", "device", "request_type", "status"].flatMap((k) => {
      // The request log spells the request type `type` (its links and this page's agree).
      const v = params.get(k) ?? (k === "request_type" ? params.get("type") : null);
      return v === null || v === "" ? [] : [[k, v]];
    }),
  );
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]!.message };
  const p = parsed.data;
  const groupBy = p.group_by ?? "model";
  const filter = filterOf(p);
  if (p.from === undefined && p.to === undefined) {
    const asked = params.get("range");
    return { ok: true, view: presetView(PRESETS.find((r) => r === asked) ?? fallback, now, zone, groupBy, filter) };
  }
  if (p.from === undefined || p.to === undefined) return { ok: false, message: "A custom range needs both a start date and an end date." };
  const today = dayKey(now, zone);
  const first = firstKeptDay(createdAt, zone);
  if (p.to < p.from) return { ok: false, message: `The end date (${p.to}) is before the start date (${p.from}).` };
  if (p.to > today) return { ok: false, message: `The end date (${p.to}) is after today (${today} in ${zone}).` };
  if (p.from < first) return { ok: false, message: `Usage is kept from ${first} to today (${today} in ${zone}): choose a start date on or after ${first}.` };
  return { ok: true, view: { preset: null, from: p.from, to: p.to, days: spanDays(p.from, p.to), groupBy, filter } };
}

/** A preset's days, ending today in the account's zone. */
export function presetView(preset: UsagePreset, now: number, zone: string, groupBy: UsageGroup = "model", filter: UsageFilter = {}): UsageView {
  const days = lastDays(USAGE.ranges[preset], now, zone);
  return { preset, from: days[0]!, to: days.at(-1)!, days: days.length, groupBy, filter };
}

function filterOf(p: z.infer<typeof schema>): UsageFilter {
  const filter: UsageFilter = {};
  if (p.model !== undefined) filter.model = p.model;
  if (p.provider !== undefined) filter.provider = p.provider;
  if (p.device !== undefined) filter.device = p.device === NO_DEVICE ? "" : p.device;
  if (p.request_type !== undefined) filter.requestType = p.request_type;
  if (p.status !== undefined) filter.status = p.status;
  return filter;
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
