// The range of a usage view (issue 49): the presets as links, and any span of the account zone's
// days through a GET form, so every range is a URL that works without JavaScript and can be
// shared. The other parameters of the page (metric, view, grouping, category…) travel along.
import { Form, Link, useLocation } from "react-router";
import type { Formats } from "~/lib/format";
import type { RangeLimits, ShownView, UsagePreset } from "~/lib/usage/usage-range";
import { PRESETS } from "~/lib/usage/usage-range";
import { withParams } from "../modal";
import { Alert, buttonClass, segmentClass } from "../ui";

const RANGE_PARAMS = ["range", "from", "to"];
const dateInput = "rounded-lg border border-slate-300 bg-white px-2.5 py-1.5 text-sm text-slate-900";

export function RangeBar({
  view,
  limits,
  error,
}: {
  view: { preset: UsagePreset | null; from: string; to: string } | null;
  limits: RangeLimits;
  error?: string;
}) {
  const { pathname, search } = useLocation();
  const params = new URLSearchParams(search);
  const kept = [...params].filter(([k]) => !RANGE_PARAMS.includes(k));
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <nav aria-label="Range" className="inline-flex rounded-lg bg-slate-100 p-1">
          {PRESETS.map((p) => (
            <Link
              key={p}
              to={withParams(pathname, search, { range: p, from: null, to: null })}
              preventScrollReset
              aria-current={view?.preset === p ? "true" : undefined}
              className={segmentClass(view?.preset === p, "shrink-0")}
            >
              {p}
            </Link>
          ))}
        </nav>
        <Form method="get" preventScrollReset className="flex flex-wrap items-end gap-2" aria-label="Custom range" key={`${view?.from}/${view?.to}`}>
          {kept.map(([k, v]) => (
            <input key={k} type="hidden" name={k} value={v} />
          ))}
          <label className="flex flex-col text-xs font-medium text-slate-600">
            From
            <input
              type="date"
              name="from"
              defaultValue={view?.from ?? params.get("from") ?? ""}
              min={limits.first}
              max={limits.today}
              required
              className={dateInput}
            />
          </label>
          <label className="flex flex-col text-xs font-medium text-slate-600">
            To
            <input
              type="date"
              name="to"
              defaultValue={view?.to ?? params.get("to") ?? ""}
              min={limits.first}
              max={limits.today}
              required
              className={dateInput}
            />
          </label>
          <button type="submit" className={buttonClass("secondary", "sm")} aria-current={view && view.preset === null ? "true" : undefined}>
            Apply range
          </button>
        </Form>
      </div>
      {error ? (
        <Alert tone="error" className="max-w-2xl">
          {error}
        </Alert>
      ) : null}
    </div>
  );
}

/** The days a view covers, in words, with the zone they are counted in. */
export function rangeLabel(data: { view: ShownView; timeZone: string }, f: Formats): string {
  const { preset, fromStart, toStart } = data.view;
  if (preset === "1d") return `Today, by hour (${data.timeZone})`;
  if (preset !== null) return `Last ${preset.replace("d", " days")} (${data.timeZone})`;
  if (fromStart === toStart) return `${f.date(fromStart)}, by hour (${data.timeZone})`;
  return `${f.date(fromStart)} – ${f.date(toStart)} (${data.timeZone})`;
}

/** A range the page cannot show: why, and the range form to choose another. */
export function UsageViewRefused({ title = "Usage Analytics", message, limits }: { title?: string; message: string; limits: RangeLimits }) {
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
      <div className="mt-6">
        <RangeBar view={null} limits={limits} error={message} />
      </div>
    </>
  );
}
