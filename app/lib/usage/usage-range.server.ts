// A usage view's URL checked with zod (issue 49): server-only, so the pages that link and show
// views (usage-range.ts) do not ship zod to the browser.
import { MS } from "../constants";
import { z } from "../zod";
import { addDays, dayKey } from "./dates";
import type { UsageFilter } from "./ledger/types";
import { MAX } from "./report";
import { firstKeptDay, GROUPS, NO_DEVICE, PRESETS, presetView, type UsageGroup, type UsagePreset, type ViewResult } from "./usage-range";

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

function filterOf(p: z.infer<typeof schema>): UsageFilter {
  const filter: UsageFilter = {};
  if (p.model !== undefined) filter.model = p.model;
  if (p.provider !== undefined) filter.provider = p.provider;
  if (p.device !== undefined) filter.device = p.device === NO_DEVICE ? "" : p.device;
  if (p.request_type !== undefined) filter.requestType = p.request_type;
  if (p.status !== undefined) filter.status = p.status;
  return filter;
}
