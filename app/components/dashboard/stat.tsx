import type { ReactNode } from "react";
import { Card, cx } from "../ui";

/** A small figure card: title, value and an optional hint line. */
export function StatCard({ title, value, hint, testId, className }: { title: string; value: ReactNode; hint?: string; testId?: string; className?: string }) {
  return (
    <Card className={cx("p-5", className)}>
      <p className="text-sm font-medium text-slate-500">{title}</p>
      <p className="mt-2 text-2xl font-semibold text-slate-900" data-testid={testId}>
        {value}
      </p>
      {hint ? <p className="mt-1 text-xs text-slate-500">{hint}</p> : null}
    </Card>
  );
}

export function ChangeBadge({ value, label }: { value: string; label: string }) {
  const negative = value.startsWith("-");
  const neutral = value === "—" || value === "0%";
  return (
    <span
      className={cx(
        "rounded-full px-2 py-0.5 text-xs font-semibold",
        neutral ? "bg-slate-100 text-slate-600" : negative ? "bg-emerald-50 text-emerald-700" : "bg-amber-50 text-amber-800",
      )}
      title={label}
    >
      {value}
    </span>
  );
}

/**
 * A bar of 0–100 %. Its accessible name is `label`; a value over 100 (a budget overspent) fills the
 * bar and is read out as it is ("274%"), while aria-valuenow stays within the bar's range.
 */
export function ProgressBar({ percent, tone, label }: { percent: number; tone: "green" | "orange" | "yellow" | "red"; label: string }) {
  const colours = { green: "bg-emerald-500", orange: "bg-orange-500", yellow: "bg-yellow-400", red: "bg-red-500" };
  const shown = Math.min(100, Math.max(0, percent));
  return (
    <div
      className="mt-3 h-2 w-full overflow-hidden rounded-full bg-slate-100"
      role="progressbar"
      aria-label={label}
      aria-valuenow={Math.round(shown)}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuetext={`${Math.round(Math.max(0, percent))}%`}
    >
      <div className={cx("h-full rounded-full", colours[tone])} style={{ width: `${shown}%` }} />
    </div>
  );
}

/** Marks a budget the user has not chosen: the spec's default, in effect until they save. */
export function DefaultBadge() {
  return (
    <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600" data-testid="budget-default-badge">
      Default
    </span>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 p-6 text-center">
      <p className="text-sm font-semibold text-slate-900">{title}</p>
      {children ? <div className="mt-1 text-sm text-slate-600">{children}</div> : null}
    </div>
  );
}
